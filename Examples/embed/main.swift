// {file} ! playbin ! [overlays] ! videoconvert ! appsink (RGBA) -> a Swift closure
//
// The smallest app that embeds the engine: open a movie, watch its events, read pixels of the
// frames as they play, seek, and react to the end. Usage: embed FILE
import FileSource
import Foundation
import MediaEngine
import Synchronization

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: embed FILE\n".utf8))
    exit(2)
}

// The centre pixel of the latest frame, written on GStreamer's streaming thread.
let centre = Mutex<RGBAColor?>(nil)
let frames = FrameSink(format: .rgba) { frame in
    // The pixels are mapped, not copied, and the frame cannot escape this closure.
    let color = frame.color(atX: frame.width / 2, y: frame.height / 2)
    centre.withLock { $0 = color }
}
let player = MoviePlayer(source: FileSource(path: CommandLine.arguments[1]), videoSink: frames)

// Every change, in order, until playback finishes.
let watcher = Task {
    for await event in player.events {
        print("event: \(event)")
        if case .playbackDidFinish = event { return }
    }
}

do {
    try await player.prepareToPlay()
    print(
        "prepared: \(player.naturalSize), \(player.movieMediaTypes), \(player.duration.map { "\($0)" } ?? "unknown length")"
    )
    try await player.play()
    try await player.seek(to: .milliseconds(500))
    print(String(format: "seeked to about %.1f s", player.currentPlaybackTime.inSeconds))
} catch {
    print("failed: \(error.code): \(error.message)")
    exit(1)
}

await watcher.value
print("centre of the last frame: \(centre.withLock { $0.map { "\($0)" } ?? "none" })")
print("frames shown: \(frames.framesDelivered)")
