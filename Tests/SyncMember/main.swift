// engine-sync-member: one member of a playback group in a process of its own, for
// PlaybackSyncTests and `engine-bench --only sync`. Real clocks, real UDP and TCP on loopback.
//
//   engine-sync-member lead --port N MOVIE [options]
//   engine-sync-member follow --host H --port N MOVIE [options]
//
//   --frames            print a line for every frame the sink got: its movie time, its running
//                       time, the pipeline's base time, and the group clock's time when the frame
//                       reached the sink's callback
//   --slow MS           the frame callback takes MS milliseconds (a member too slow for its group)
//   --tile R,C/RS,CS    show tile (R, C) of a wall of RS x CS screens
//   --lead-time MS      the group's lead time (default 300)
//   --poll MS           how often a follower's clock asks the time source (default 500)
//   --loss MS           how long the time source may be silent (default 2500)
//   --sync-timeout MS   how long a follower waits for the time source (default 5000)
//   --clock-port N      a follower's time source is on UDP port N (a delay proxy's), its
//                       leader's commands on TCP --port
//
// Standard input takes one command a line: play, pause, seek SECONDS [exact|keyframe],
// rate R, stop, silence and answer (the leader stops and resumes answering clocks), quit.
// Standard output gets one JSON object a line: {"event":"joined",...} once in the group,
// {"event":"ready"} once the movie is prepared, {"frame":...} (with --frames),
// {"event":"seeked","position":NS,"number":N,"paused":B} when a seek lands (N: the frame number
// read from the picture, FrameNumber, modulo 80), and the players' and group's events.
import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import PlaybackSync

#if canImport(Glibc)
    import Glibc
#endif

/// One JSON line at a time on standard output, whichever thread writes it.
final class Output: Sendable {
    private let lock = Locked(())

    func emit(_ fields: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]) else { return }
        lock.withLock { _ in
            FileHandle.standardOutput.write(data + Data("\n".utf8))
        }
    }
}

struct Arguments {
    var leading = true
    var host = "127.0.0.1"
    var port = 0
    var movie = ""
    var frames = false
    var slow: Int?
    var tile: (row: Int, column: Int, rows: Int, columns: Int)?
    var leadTime = 300
    var poll = 500
    var loss = 2500
    var syncTimeout = 5000
    var clockPort: Int?

    init(_ arguments: [String]) throws {
        var rest = arguments.makeIterator()
        guard let mode = rest.next(), mode == "lead" || mode == "follow" else { throw Usage() }
        leading = mode == "lead"
        func number(_ text: String?) throws -> Int {
            guard let text, let value = Int(text) else { throw Usage() }
            return value
        }
        while let argument = rest.next() {
            switch argument {
            case "--host": host = rest.next() ?? host
            case "--port": port = try number(rest.next())
            case "--frames": frames = true
            case "--slow": slow = try number(rest.next())
            case "--lead-time": leadTime = try number(rest.next())
            case "--poll": poll = try number(rest.next())
            case "--loss": loss = try number(rest.next())
            case "--sync-timeout": syncTimeout = try number(rest.next())
            case "--clock-port": clockPort = try number(rest.next())
            case "--tile":
                let parts = (rest.next() ?? "").split(whereSeparator: { ",/".contains($0) }).compactMap { Int($0) }
                guard parts.count == 4 else { throw Usage() }
                tile = (parts[0], parts[1], parts[2], parts[3])
            default:
                guard !argument.hasPrefix("-"), movie.isEmpty else { throw Usage() }
                movie = argument
            }
        }
        guard !movie.isEmpty else { throw Usage() }
    }

    struct Usage: Error {}
}

let started = ContinuousClock.now
let out = Output()
let arguments: Arguments
do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(
        Data(
            "usage: engine-sync-member lead|follow [--host H] --port N MOVIE [--frames] [--slow MS] [--tile R,C/RS,CS]\n"
                .utf8))
    exit(2)
}

func nanoseconds(_ duration: Duration) -> Int64 {
    duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
}

let options = PlaybackGroup.Options(
    leadTime: .milliseconds(arguments.leadTime), syncTimeout: .milliseconds(arguments.syncTimeout),
    timeSourceLossTimeout: .milliseconds(arguments.loss), pollInterval: .milliseconds(arguments.poll))
let group: PlaybackGroup
/// The transport made here (with --clock-port), closed at the end.
var ownTransport: PlaybackGroupTCPTransport?
do {
    if arguments.leading {
        group = try PlaybackGroup.lead(port: arguments.port, options: options)
    } else if let clockPort = arguments.clockPort {
        let transport = try await PlaybackGroupTCPTransport.connecting(host: arguments.host, port: arguments.port)
        ownTransport = transport
        group = try await PlaybackGroup.follow(
            host: arguments.host, port: clockPort, options: options, transport: transport)
    } else {
        group = try await PlaybackGroup.follow(host: arguments.host, port: arguments.port, options: options)
    }
} catch {
    out.emit(["event": "failed", "code": error.code.name, "message": error.message])
    exit(1)
}
out.emit([
    "event": "joined", "port": group.port, "member": group.memberID, "clock": nanoseconds(group.clockTime),
    "sinceStart": (ContinuousClock.now - started).inSeconds * 1000,
])

/// The player, for the frame callback (set once, before the movie plays).
final class PlayerBox: Sendable {
    let player = Locked<MoviePlayer?>(nil)
}
let box = PlayerBox()
let slow = arguments.slow
let framesWanted = arguments.frames
let sink = FrameSink(format: .i420) { frame in
    let now = group.clockTime
    if framesWanted, let pts = frame.presentationTime, let running = frame.runningTime {
        let player = box.player.withLock { $0 }
        let base = player?.pipelineBaseTime
        out.emit([
            "frame": nanoseconds(pts), "running": nanoseconds(running), "base": base.map(nanoseconds) ?? -1,
            "clock": nanoseconds(now), "playing": player?.playbackState == .playing,
        ])
    }
    if let slow { usleep(useconds_t(slow * 1000)) }
}
let player = MoviePlayer(
    source: FileSource(url: URL(fileURLWithPath: arguments.movie)), videoSink: sink, audioOutput: .none)
box.player.withLock { $0 = player }
if let tile = arguments.tile {
    player.wallTile = VideoWallTile(row: tile.row, column: tile.column, rows: tile.rows, columns: tile.columns)
}

let playerEvents = player.events
Task {
    for await event in playerEvents {
        switch event {
        case .seekCompleted(let position):
            let number = sink.latestFrame().flatMap(FrameNumber.read)
            out.emit([
                "event": "seeked", "position": nanoseconds(position), "number": number ?? -1,
                "paused": player.playbackState == .paused, "clock": nanoseconds(group.clockTime),
            ])
        case .groupMemberTooSlow(let dropped, let within):
            out.emit(["event": "tooSlow", "dropped": dropped, "within": within.inSeconds])
        case .groupTimeSourceLost:
            out.emit(["event": "timeSourceLost", "clock": nanoseconds(group.clockTime)])
        case .groupTimeSourceRestored:
            out.emit(["event": "timeSourceRestored", "clock": nanoseconds(group.clockTime)])
        case .playbackStateChanged(let state):
            out.emit(["event": "state", "state": "\(state)", "clock": nanoseconds(group.clockTime)])
        case .playbackDidFinish(let reason, let error):
            out.emit(["event": "finished", "reason": "\(reason)", "code": error?.code.name ?? ""])
        default:
            break
        }
    }
}
let groupEvents = group.events
Task {
    for await event in groupEvents {
        switch event {
        case .messageRefused(let error):
            out.emit(["event": "refused", "code": error.code.name, "message": error.message])
        case .memberReported(let member, let report):
            out.emit(["event": "report", "member": member, "report": "\(report)"])
        case .memberJoined(let member):
            out.emit(["event": "memberJoined", "member": member])
        case .commandApplied(let sequence, let command):
            out.emit([
                "event": "command", "sequence": sequence, "action": command.action.rawValue,
                "time": nanoseconds(command.timeline.time), "position": nanoseconds(command.timeline.position),
            ])
        default:
            break
        }
    }
}

do {
    try await group.add(player)
} catch {
    out.emit(["event": "failed", "code": error.code.name, "message": error.message])
    exit(1)
}
out.emit(["event": "ready", "clock": nanoseconds(group.clockTime)])

/// Standard input's lines, read on a thread of their own.
let lines = AsyncStream<String> { continuation in
    Thread {
        while let line = readLine() { continuation.yield(line) }
        continuation.finish()
    }.start()
}

loop: for await line in lines {
    let words = line.split(separator: " ").map(String.init)
    do throws(MediaError) {
        switch words.first {
        case "play": try await group.play()
        case "pause": try await group.pause()
        case "seek":
            let seconds = words.count > 1 ? Double(words[1]) ?? 0 : 0
            let option: SeekOption = words.count > 2 && words[2] == "keyframe" ? .nearestKeyFrame : .exact
            try await group.seek(to: .milliseconds(Int64(seconds * 1000)), option: option)
        case "rate": try await group.setRate(words.count > 1 ? Double(words[1]) ?? 1 : 1)
        case "stop": try await group.stop()
        case "silence": group.setTimeSourceAnswering(false)
        case "answer": group.setTimeSourceAnswering(true)
        case "quit": break loop
        default: out.emit(["event": "unknownCommand", "line": line])
        }
    } catch {
        out.emit(["event": "commandFailed", "code": error.code.name, "message": error.message])
    }
}
await group.close()
ownTransport?.close()
await player.shutdown()
out.emit(["event": "bye"])
exit(0)
