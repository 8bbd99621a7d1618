// {file | http(s) URL} ! playbin ! {null | frames | terminal | any registered sink}
//
// Plays a movie (a file, a web server's movie, an HLS or DASH stream) to a video sink chosen by
// name (a built-in one, terminal from TerminalVideoSink, or rtp, srt or hls from NetworkVideoSink)
// and prints its progress, timed metadata (ID3 in the stream, ICY titles) as playback reaches
// it, and for network streams the load state, stalls (when each starts and ends) and retries as
// they happen. On a terminal the progress is one line redrawn in place (time, duration, a bar, the
// state, `buffering 35%` while a network movie waits for data, the rate, what is buffered, the
// volume) and keys control the player (Output.swift, Controls.swift; ? lists them); piped, it
// prints a line every half second. With the terminal sink drawing on standard output,
// those lines go to the sink's status line instead. Sink plugins built as shared libraries are
// loaded from --plugin-dir DIR first.
// The window sink's window shows the engine's on-screen controls (the fullscreen set) unasked;
// --controls STYLE (none, embedded or fullscreen) chooses them, for any sink. A click in the
// player's window works them.
// Usage: mediaplay [--plugin-dir DIR] [--sink NAME[:key=value,...]] [--controls STYLE] [--list-sinks] [--user USER:PASSWORD]
//                  [--header 'NAME: VALUE'] [--cookie NAME=VALUE] [--ca-file PEM] [--retry N]
//                  [--retry-delay SECONDS] [--retry-max-time SECONDS] [--retry-connrefused] FILE|URL [FILE|URL...]
// Several files or URLs play as a queue, each following the one before without a gap.
// Keys on a terminal (and in the window sink's window): space play/pause, left/right seek (shift:
// exact), up/down rate, f fullscreen, a scaling, l repeat, m mute, 9/0 volume, n/p next/previous,
// t audio track, s subtitles, ? keys, q quit.
import FileSource
import Foundation
import HTTPStreamSource
import MediaEngine
import MediaplayConsole
import NetworkVideoSink
import TerminalVideoSink

#if canImport(Glibc)
    import Glibc
#endif

struct Arguments {
    var sink: VideoSinkSpecification?
    var listSinks = false
    /// Nil: the engine's default for the sink.
    var controls: MovieControlStyle?
    var pluginFolders: [String] = []
    var files: [String] = []
    var http = HTTPStreamOptions()

    init(_ arguments: [String]) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--sink":
                guard let value = iterator.next() else { throw UsageError("--sink needs a name") }
                do {
                    sink = try VideoSinkSpecification(parsing: value)
                } catch {
                    throw UsageError(error.message)
                }
            case "--controls":
                guard let value = iterator.next() else { throw UsageError("--controls needs a style") }
                guard let style = MovieControlStyle.allCases.first(where: { $0.description == value }) else {
                    throw UsageError("--controls takes none, embedded or fullscreen, not '\(value)'")
                }
                controls = style
            case "--list-sinks":
                listSinks = true
            case "--plugin-dir":
                guard let value = iterator.next() else { throw UsageError("--plugin-dir needs a folder") }
                pluginFolders.append(value)
            case _ where HTTPStreamOptions.commandLineFlags.contains(argument):
                guard let value = iterator.next() else { throw UsageError("\(argument) needs a value") }
                do {
                    _ = try http.applyCommandLineFlag(argument, value)
                } catch {
                    throw UsageError(error.message)
                }
            case _ where HTTPStreamOptions.commandLineSwitches.contains(argument):
                _ = http.applyCommandLineSwitch(argument)
            case "--help", "-h":
                throw UsageError(nil)
            default:
                guard !argument.hasPrefix("--") else { throw UsageError("unexpected '\(argument)'") }
                files.append(argument)
            }
        }
    }
}

struct UsageError: Error {
    let message: String?
    init(_ message: String?) { self.message = message }
}

/// Where lines and progress go, and the keyboard; made once the sink is.
var output: Output?

@MainActor
func fail(_ message: String) -> Never {
    output?.restore()
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

/// Prints a line: above the progress line, or below the picture while the terminal sink draws.
@MainActor
func say(_ line: String) {
    if let output { output.say(line) } else { print(line) }
}

// The terminal and network sinks (rtp, srt, hls: the movie sent to another machine) join the
// built-in ones.
do {
    try TerminalVideoSink.register()
    try NetworkVideoSink.register()
} catch {
    fail("mediaplay: \(error.code): \(error.message)")
}

let usage =
    "usage: mediaplay [--plugin-dir DIR] [--sink NAME[:key=value,...]] [--controls none|embedded|fullscreen] [--list-sinks] \(HTTPStreamOptions.commandLineUsage) FILE|URL [FILE|URL...]"
    + "\non a terminal, a progress line and keys:\n\(KeyBindings.help)"

let arguments: Arguments
do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
} catch let error as UsageError {
    fail(
        (error.message.map { "mediaplay: \($0)\n" } ?? "")
            + usage)
}

// Plugins first, so their sinks can be listed and chosen. A relative folder is taken from the
// current one because the user named it; the registry itself never looks there unasked.
for folder in arguments.pluginFolders {
    let url = URL(fileURLWithPath: folder, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
    do {
        for report in try VideoSinkRegistry.shared.loadPlugins(from: url.standardizedFileURL) {
            FileHandle.standardError.write(Data("mediaplay: plugin \(report)\n".utf8))
        }
    } catch {
        fail("mediaplay: \(error.code): \(error.message)")
    }
}
var sinkSpecification = arguments.sink ?? VideoSinkSpecification(name: VideoSinkRegistry.shared.defaultSinkName)
// mediaplay gives the terminal back on Ctrl-C itself (its keyboard too), for the sink as well.
if sinkSpecification.name == TerminalVideoSink.registeredName && sinkSpecification.options["sigint"] == nil {
    sinkSpecification.options["sigint"] = "false"
}

if arguments.listSinks {
    // Each entry's capabilities are its sink type's: no sink is made and no element built to list them.
    for entry in VideoSinkRegistry.shared.all {
        let name = entry.name.padding(toLength: 10, withPad: " ", startingAt: 0)
        let capabilities = entry.capabilities.description.padding(toLength: 28, withPad: " ", startingAt: 0)
        print("\(name) \(capabilities) \(entry.summary)")
    }
    exit(0)
}

guard let file = arguments.files.first else { fail(usage) }

let sink: any VideoSink
do {
    sink = try VideoSinkRegistry.shared.makeSink(named: sinkSpecification.name, options: sinkSpecification.options)
} catch {
    fail("mediaplay: \(error.code): \(error.message)")
}
let console = Output(sink: sink)
output = console

// http(s) URLs go to the HTTP-stream source; anything else is a file.
@MainActor
func makeSource(for file: String) -> any MediaSource {
    guard file.lowercased().hasPrefix("http://") || file.lowercased().hasPrefix("https://") else {
        return FileSource(path: file)
    }
    do {
        return try HTTPStreamSource(string: file, options: arguments.http)
    } catch {
        fail("mediaplay: \(error.code): \(error.message)")
    }
}
let source = makeSource(for: file)

func describe(_ error: MediaError) -> String {
    "mediaplay: \(error.code)\(error.httpStatusCode.map { " (HTTP \($0))" } ?? ""): \(error.message)"
}

let player = MoviePlayer(source: source, videoSink: sink)
if let style = arguments.controls { player.controlStyle = style }
let controls = Controls(player: player, output: console, queueLength: arguments.files.count)
console.snapshot = {
    let network = isNetworkMovie()
    return ProgressSnapshot(
        // A seek under way shows its target (and `seeking`): the next key starts from there.
        position: controls.seekTarget ?? player.currentPlaybackTime, duration: player.duration,
        state: player.playbackState, rate: controls.rate, playable: network ? player.playableDuration : nil,
        volume: player.volume, isMuted: player.isMuted, repeatMode: player.repeatMode,
        isSeeking: controls.seekTarget != nil, isLoading: !player.isPreparedToPlay,
        // While it loads or stalls, how far the wait for data has got: `buffering 35%`.
        bufferingPercent: network ? player.bufferingPercent : nil)
}

/// Whether the movie playing now is read over the network (a queue can mix files and URLs).
@MainActor
func isNetworkMovie() -> Bool {
    player.source.uri.hasPrefix("http:") || player.source.uri.hasPrefix("https:")
}
if let keys = console.keys { Task { await controls.run(keys.keys) } }
// Several movies play as a queue, one after another without a gap.
if arguments.files.count > 1 {
    do {
        try player.setQueue(arguments.files.map(makeSource(for:)))
    } catch {
        fail("mediaplay: \(error.code): \(error.message)")
    }
}
let events = player.events
// A network movie that fails in a way that may pass is loaded again after a wait, while it
// prepares too: say so as it happens (the main loop below starts once the movie plays).
let retries = player.events
Task {
    for await event in retries {
        guard case .reconnecting(let attempt, let delay, let error) = event else { continue }
        let status = error.httpStatusCode.map { " (HTTP \($0))" } ?? ""
        say(
            String(format: "  retry %d of %d in %.1f s, after ", attempt, source.retryPolicy.attempts, delay.inSeconds)
                + "\(error.code)\(status): \(error.message)")
    }
}
// On a terminal the progress line is drawn four times a second of wall-clock time from the
// start (loading, buffering, paused, stalled: whatever it waits for, it says), and at every
// event; piped, a network movie that takes more than a second to load says it waits.
let refresher: Task<Void, Never>? =
    console.isInteractive
    ? Task {
        while !Task.isCancelled {
            console.refresh()
            try? await Task.sleep(for: .milliseconds(250))
        }
    } : nil
let loadingNote: Task<Void, Never>? =
    console.isInteractive || !isNetworkMovie()
    ? nil
    : Task {
        try? await Task.sleep(for: .seconds(1))
        if !Task.isCancelled && !player.isPreparedToPlay { say("  loading: waiting for the network") }
    }
do {
    try await player.prepareToPlay()
    loadingNote?.cancel()
    let duration = player.duration.map { String(format: "%.2f s", $0.inSeconds) } ?? "unknown length"
    say(
        "playing \(source.uri.hasPrefix("file:") ? file : source.uri): \(player.naturalSize), \(player.movieMediaTypes), \(duration) to '\(sinkSpecification.name)'"
    )
    if let truncation = player.truncation {
        say("  warning: the file is cut short, \(truncation)")
    }
    if console.keys != nil { say("keys: space play/pause, arrows seek and rate, ? all keys, q quit") }
    try await player.play()
} catch {
    // q while the movie loaded: stopped on purpose.
    if controls.quitRequested {
        say("finished: userExited")
        console.restore()
        exit(0)
    }
    fail(describe(error))
}

// Progress every half second of movie time, from a periodic time observer, until the movie
// finishes (on a terminal, the refresher above draws it too).
_ = try? player.addPeriodicTimeObserver(every: .milliseconds(500))

// The picture size printed last (the "playing" line has the first); a stream's variants change it.
var pictureSize = player.naturalSize
// When the network movie stalled (`interrupted`: its buffer ran dry, or it waits to start), until
// it plays again.
var stalledSince: ContinuousClock.Instant?
for await event in events {
    switch event {
    case .periodicTime(_, let time) where !console.isInteractive:
        let frames = (sink as? FrameSink).map { ", \($0.framesDelivered) frames" } ?? ""
        say(String(format: "  %7.2f s%@", time.inSeconds, frames))
    case .playbackRateChanged(let rate):
        controls.rate = rate
    case .didEnterFullscreen, .didExitFullscreen:
        say("  fullscreen \(player.isFullscreen ? "on" : "off")")
    case .audioTrackChanged(let track):
        say("  audio: \(track)")
    case .windowKeyPressed(let name, let shift):
        // Typed into the window sink's window: the same keys as on the terminal.
        if let key = KeyBindings.key(windowKey: name, shift: shift) { controls.handle(key) }
    case .loadStateChanged(let state) where source.sourceType != .file:
        say("  load state: \(state)")
    case .playbackStateChanged(.interrupted) where isNetworkMovie():
        // A line when the wait starts and one when it ends; the progress line says `buffering 35%`.
        if stalledSince == nil {
            stalledSince = .now
            let percent = player.bufferingPercent.flatMap { $0 < 100 ? " (buffering \($0)%)" : nil }
            say("  stalled: waiting for the network" + (percent ?? ""))
        }
    case .playbackStateChanged(let state) where stalledSince != nil:
        if state == .playing, let since = stalledSince {
            say(String(format: "  buffered: playing after %.1f s of waiting", (ContinuousClock.now - since).inSeconds))
        }
        stalledSince = nil
    case .timedMetadataChanged(let items):
        for item in items { say("  metadata: \(item)") }
    case .variantSwitched(let change):
        say("  variant: \(change.indicatedBitrate) bit/s (\(change.uri))")
    case .queueItemChanged(let index):
        // A movie skipped to (n, p) is still loading: its length is not known yet.
        let duration = player.duration.map { String(format: ", %.2f s", $0.inSeconds) } ?? ""
        let which = controls.takeSkipBack() ? "previous" : "next"
        say("\(which) (\(index + 1) of \(arguments.files.count)): \(arguments.files[index])\(duration)")
    case .naturalSizeAvailable(let size) where size != pictureSize:
        pictureSize = size
        say("  picture: \(size)")
    default:
        break
    }
    console.refresh()
    guard case .playbackDidFinish(let reason, let error) = event else { continue }
    // A skip in the queue (n, p) ends the movie playing as the app's doing, as a new source
    // does; only q ends them all.
    if reason == .userExited && !controls.quitRequested { continue }
    refresher?.cancel()
    if let error { fail(describe(error)) }
    let frames = (sink as? FrameSink).map { " (\($0.framesDelivered) frames)" } ?? ""
    let drawn = (sink as? TerminalVideoSink).map { " (\($0.framesDrawn) frames drawn, \($0.framesDropped) dropped)" }
    say("finished: \(reason)\(frames)\(drawn ?? "")")
    // The last line stays (below the picture), the progress line goes, the terminal is given back.
    console.restore()
    break
}
