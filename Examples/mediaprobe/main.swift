// {file | http(s) URL} ! playbin (prerolled, never played) -> duration, size, media types, tags
//
// Prints what the engine knows about a movie, a web server's movie or an HLS/DASH stream once
// it is prepared.
// Usage: mediaprobe [--json] [--user USER:PASSWORD] [--header 'NAME: VALUE'] [--cookie NAME=VALUE]
//                   [--ca-file PEM] [--retry N] [--retry-delay SECONDS] [--retry-max-time SECONDS]
//                   [--retry-connrefused] FILE|URL
// On a bad input: one line on stderr naming the error code (and HTTP status), and exit status 1.
import FileSource
import Foundation
import HTTPStreamSource
import MediaEngine

#if canImport(Glibc)
    import Glibc
#endif

let usage = "usage: mediaprobe [--json] \(HTTPStreamOptions.commandLineUsage) FILE|URL"

func usageError(_ message: String? = nil) -> Never {
    FileHandle.standardError.write(Data(((message.map { "mediaprobe: \($0)\n" } ?? "") + usage + "\n").utf8))
    exit(2)
}

var json = false
var path: String?
var http = HTTPStreamOptions()
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--json": json = true
    case _ where HTTPStreamOptions.commandLineFlags.contains(argument):
        guard let value = arguments.next() else { usageError("\(argument) needs a value") }
        do {
            _ = try http.applyCommandLineFlag(argument, value)
        } catch {
            usageError(error.message)
        }
    case _ where HTTPStreamOptions.commandLineSwitches.contains(argument):
        _ = http.applyCommandLineSwitch(argument)
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        guard path == nil, !argument.hasPrefix("--") else { usageError("unexpected '\(argument)'") }
        path = argument
    }
}
guard let path else { usageError() }

// http(s) URLs go to the HTTP-stream source; anything else is a file.
let source: any MediaSource
let lowered = path.lowercased()
if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
    do {
        source = try HTTPStreamSource(string: path, options: http)
    } catch {
        FileHandle.standardError.write(Data("mediaprobe: \(error.code): \(error.message)\n".utf8))
        exit(1)
    }
} else {
    source = FileSource(path: path)
}

let player = MoviePlayer(source: source, videoSink: NullVideoSink(), audioOutput: .discard)
player.shouldAutoplay = false  // probe only: load the movie, never play it
do {
    try await player.prepareToPlay()
} catch {
    let status = error.httpStatusCode.map { " (HTTP \($0))" } ?? ""
    FileHandle.standardError.write(Data("mediaprobe: \(error.code)\(status): \(error.message)\n".utf8))
    // The failed pipeline is still being torn down on the player's thread (its streaming
    // threads may be loading a plugin): exiting under it can abort inside GLib.
    await player.shutdown()
    exit(1)
}

let seconds = player.duration?.inSeconds
// A file cut short plays only up to where its data ends (its container's tables say where).
let playable = player.playableDuration.inSeconds
let truncated = player.truncation != nil
let size = player.naturalSize
let tags = player.metadata

if json {
    let object: [String: Any] = [
        "path": source.uri.hasPrefix("file:") ? path : source.uri,
        "duration": seconds.map { $0 as Any } ?? NSNull(),
        "playableDuration": playable,
        "truncated": truncated,
        "width": size.width,
        "height": size.height,
        "mediaTypes": player.movieMediaTypes.names,
        "sourceType": player.movieSourceType.rawValue,
        "videoDecoder": player.videoDecoder.map { $0 as Any } ?? NSNull(),
        "tags": tags,
    ]
    let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
} else {
    print("file:        \(source.uri.hasPrefix("file:") ? path : source.uri)")
    print("duration:    \(seconds.map { String(format: "%.3f s", $0) } ?? "unknown")")
    if truncated { print("playable:    \(String(format: "%.3f s", playable)) (the file is cut short)") }
    print("size:        \(size.width)x\(size.height)")
    print("media types: \(player.movieMediaTypes.names.joined(separator: ", "))")
    print("source type: \(player.movieSourceType)")
    print("decoder:     \(player.videoDecoder ?? "none")")
    for key in tags.keys.sorted() {
        print("tag \(key): \(tags[key]!)")
    }
}
