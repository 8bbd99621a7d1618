// {file} ! playbin (on the group's network clock, base time set by the group) ! mescaler (the tile) ! {terminal or window}
//
// A video wall, or screens that change together: one process per screen plays the same movie
// in step, on GStreamer's network clock. The leader publishes the clock and the commands; the
// others follow it, each showing its own tile of the picture.
//
// Usage: mediawall --lead FILE [--port N] [--tile R,C/RS,CS] [--bezel W,H] [--sink terminal|window]
//        mediawall --follow HOST:PORT FILE [--tile R,C/RS,CS] [--bezel W,H] [--sink terminal|window]
// Commands on standard input, one a line, from any screen: play, pause, seek SECONDS, rate R,
// stop, quit. The leader starts the movie (looping) as soon as it is ready.
import FileSource
import Foundation
import MediaEngine
import PlaybackSync
import TerminalVideoSink

let usage = """
    usage: mediawall --lead FILE [--port N] [--tile R,C/RS,CS] [--bezel W,H] [--sink terminal|window]
           mediawall --follow HOST:PORT FILE [--tile R,C/RS,CS] [--bezel W,H] [--sink terminal|window]

    """
func fail(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data(message.utf8))
    exit(status)
}
func say(_ line: String) { FileHandle.standardError.write(Data("mediawall: \(line)\n".utf8)) }
func numbers(_ text: String?, _ count: Int) -> [Int] {
    let parts = (text ?? "").split(whereSeparator: { ",/".contains($0) }).compactMap { Int($0) }
    guard parts.count == count else { fail(usage) }
    return parts
}

var leader: Int?
var follow: (host: String, port: Int)?
var file: String?
var tile: [Int]?
var bezel = [0, 0]
var sinkName = "terminal"
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--lead": leader = 0
    case "--port": leader = numbers(arguments.next(), 1)[0]
    case "--follow":
        let parts = (arguments.next() ?? "").split(separator: ":")
        guard parts.count == 2, let port = Int(parts[1]) else { fail(usage) }
        follow = (String(parts[0]), port)
    case "--tile": tile = numbers(arguments.next(), 4)
    case "--bezel": bezel = numbers(arguments.next(), 2)
    case "--sink": sinkName = arguments.next() ?? ""
    case "--help", "-h": fail(usage, status: 0)
    default: if file == nil && !argument.hasPrefix("-") { file = argument } else { fail(usage) }
    }
}
guard let file, (leader == nil) != (follow == nil), ["terminal", "window"].contains(sinkName) else { fail(usage) }

do {
    // The group first: a follower's clock must follow the leader's before its movie is prepared.
    let group =
        if let follow {
            try await PlaybackGroup.follow(host: follow.host, port: follow.port)
        } else {
            try PlaybackGroup.lead(port: leader ?? 0)
        }
    say("\(group.role == .leader ? "leading" : "following") the group on port \(group.port) as \(group.memberID)")
    let sink: any VideoSink = sinkName == "window" ? WindowSink() : TerminalVideoSink(exitsOnInterrupt: true)
    let player = MoviePlayer(source: FileSource(path: file), videoSink: sink)
    player.repeatMode = .one
    if let tile {
        player.scalingMode = .aspectFill
        player.wallTile = VideoWallTile(
            row: tile[0], column: tile[1], rows: tile[2], columns: tile[3], bezelWidth: bezel[0],
            bezelHeight: bezel[1])
    }
    let events = group.events
    Task {
        for await event in events {
            switch event {
            case .memberJoined(let member): say("\(member) joined")
            case .memberReported(let member, let report): say("\(member): \(report)")
            case .timeSourceLost, .timeSourceRestored, .messageRefused, .sendFailed: say("\(event)")
            case .commandApplied: break
            }
        }
    }
    try await group.add(player)
    if group.role == .leader { try await group.play() }
    say("ready: type play, pause, seek SECONDS, rate R, stop or quit")

    // Standard input's commands, read on a thread of their own (a read blocks).
    let lines = AsyncStream<String> { continuation in
        Thread {
            while let line = readLine() { continuation.yield(line) }
            continuation.finish()
        }.start()
    }
    for await line in lines {
        let words = line.split(separator: " ")
        let value = words.count > 1 ? Double(words[1]) : nil
        do throws(MediaError) {
            switch words.first {
            case "play": try await group.play()
            case "pause": try await group.pause()
            case "seek": try await group.seek(to: .milliseconds(Int64((value ?? 0) * 1000)))
            case "rate": try await group.setRate(value ?? 1)
            case "stop": try await group.stop()
            case "quit": break
            default: say("unknown command: \(line)")
            }
        } catch {
            say("\(error)")
        }
        if words.first == "quit" { break }
    }
    await group.close()
    await player.shutdown()
    say("bye")
} catch {
    fail("mediawall: \(error)\n", status: 1)
}
