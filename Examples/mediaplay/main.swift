// {file} ! playbin ! {null | frames | any registered sink}
//
// Plays a movie to a video sink chosen by name and prints a progress line.
// Usage: mediaplay [--sink NAME[:key=value,...]] [--list-sinks] FILE
import FileSource
import Foundation
import MediaEngine

#if canImport(Glibc)
    import Glibc
#endif

struct Arguments {
    var sink = VideoSinkSpecification(name: VideoSinkRegistry.shared.defaultSinkName)
    var listSinks = false
    var file: String?

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
            case "--list-sinks":
                listSinks = true
            case "--help", "-h":
                throw UsageError(nil)
            default:
                guard !argument.hasPrefix("--"), file == nil else { throw UsageError("unexpected '\(argument)'") }
                file = argument
            }
        }
    }
}

struct UsageError: Error {
    let message: String?
    init(_ message: String?) { self.message = message }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(1)
}

let arguments: Arguments
do {
    arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
} catch let error as UsageError {
    fail(
        (error.message.map { "mediaplay: \($0)\n" } ?? "")
            + "usage: mediaplay [--sink NAME[:key=value,...]] [--list-sinks] FILE")
}

if arguments.listSinks {
    for entry in VideoSinkRegistry.shared.all {
        let name = entry.name.padding(toLength: 10, withPad: " ", startingAt: 0)
        let capabilities = entry.capabilities.description.padding(toLength: 28, withPad: " ", startingAt: 0)
        print("\(name) \(capabilities) \(entry.summary)")
    }
    exit(0)
}

guard let file = arguments.file else { fail("usage: mediaplay [--sink NAME[:key=value,...]] [--list-sinks] FILE") }

let sink: any VideoSink
do {
    sink = try VideoSinkRegistry.shared.makeSink(named: arguments.sink.name, options: arguments.sink.options)
} catch {
    fail("mediaplay: \(error.code): \(error.message)")
}

let player = MoviePlayer(source: FileSource(path: file), videoSink: sink)
let events = player.events
do {
    try await player.prepareToPlay()
    let duration = player.duration.map { String(format: "%.2f s", $0.inSeconds) } ?? "unknown length"
    print("playing \(file): \(player.naturalSize), \(player.movieMediaTypes), \(duration) to '\(arguments.sink.name)'")
    try await player.play()
} catch {
    fail("mediaplay: \(error.code): \(error.message)")
}

// Progress every half second of movie time, from a periodic time observer, until the movie finishes.
_ = try? player.addPeriodicTimeObserver(every: .milliseconds(500))

for await event in events {
    if case .periodicTime(_, let time) = event {
        let frames = (sink as? FrameSink).map { ", \($0.framesDelivered) frames" } ?? ""
        print(String(format: "  %7.2f s%@", time.inSeconds, frames))
    }
    guard case .playbackDidFinish(let reason, let error) = event else { continue }
    if let error { fail("mediaplay: \(error.code): \(error.message)") }
    let frames = (sink as? FrameSink).map { " (\($0.framesDelivered) frames)" } ?? ""
    print("finished: \(reason)\(frames)")
    break
}
