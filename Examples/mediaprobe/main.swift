// {file} ! playbin (prerolled, never played) -> duration, size, media types, tags
//
// Prints what the engine knows about a movie once it is prepared.
// Usage: mediaprobe [--json] FILE
// On a bad input: one line on stderr naming the error code, and exit status 1.
import FileSource
import Foundation
import MediaEngine

#if canImport(Glibc)
    import Glibc
#endif

var json = false
var path: String?
for argument in CommandLine.arguments.dropFirst() {
    switch argument {
    case "--json": json = true
    case "--help", "-h":
        print("usage: mediaprobe [--json] FILE")
        exit(0)
    default:
        guard path == nil, !argument.hasPrefix("--") else {
            FileHandle.standardError.write(Data("usage: mediaprobe [--json] FILE\n".utf8))
            exit(2)
        }
        path = argument
    }
}
guard let path else {
    FileHandle.standardError.write(Data("usage: mediaprobe [--json] FILE\n".utf8))
    exit(2)
}

let player = MoviePlayer(source: FileSource(path: path), videoSink: NullVideoSink(), audioOutput: .discard)
player.shouldAutoplay = false  // probe only: load the movie, never play it
do {
    try await player.prepareToPlay()
} catch {
    FileHandle.standardError.write(Data("mediaprobe: \(error.code): \(error.message)\n".utf8))
    // The failed pipeline is still being torn down on the player's thread (its streaming
    // threads may be loading a plugin): exiting under it can abort inside GLib.
    await player.shutdown()
    exit(1)
}

let seconds = player.duration?.inSeconds
let size = player.naturalSize
let tags = player.metadata

if json {
    let object: [String: Any] = [
        "path": path,
        "duration": seconds.map { $0 as Any } ?? NSNull(),
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
    print("file:        \(path)")
    print("duration:    \(seconds.map { String(format: "%.3f s", $0) } ?? "unknown")")
    print("size:        \(size.width)x\(size.height)")
    print("media types: \(player.movieMediaTypes.names.joined(separator: ", "))")
    print("source type: \(player.movieSourceType)")
    print("decoder:     \(player.videoDecoder ?? "none")")
    for key in tags.keys.sorted() {
        print("tag \(key): \(tags[key]!)")
    }
}
