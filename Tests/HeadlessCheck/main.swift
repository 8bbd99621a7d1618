// A headless app written against MediaEngineCore alone, as a server that only wants frames would
// be: it must link no X11, Pango or libavcodec (HeadlessCoreTests reads its `ldd`), play a movie
// into a frame sink with GStreamer's own decoder, and refuse what needs the libraries it lacks
// (an X11 window, drawn text) with typed errors. Usage: engine-headless-check MOVIE
//
// Prints, one per line: `decoder NAME`, `frames N`, `size WxH`, `row R,G,B R,G,B ...` (seven
// points across the first frame, a quarter down), `finish REASON`, `window CODE: MESSAGE`,
// `text CODE: MESSAGE`.
import FileSource
import Foundation
import MediaEngineCore

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: engine-headless-check MOVIE\n".utf8))
    exit(2)
}

let firstRow = Locked<[RGBAColor]?>(nil)
let frames = FrameSink(format: .rgba, synchronized: false) { frame in
    firstRow.withLock { row in
        guard row == nil else { return }
        let y = frame.height / 4
        row = (0..<7).map { bar in frame.color(atX: (2 * bar + 1) * frame.width / 14, y: y) }
    }
}
let player = MoviePlayer(source: FileSource(path: CommandLine.arguments[1]), videoSink: frames)
let finished = Task {
    for await event in player.events {
        if case .playbackDidFinish(let reason, let error) = event { return "\(reason)\(error.map { " \($0)" } ?? "")" }
    }
    return "none"
}
do {
    try await player.prepareToPlay()
    try await player.play()
} catch {
    print("failed \(error.code): \(error.message)")
    exit(1)
}
let reason = await finished.value
print("decoder \(player.videoDecoder ?? "none")")
print("frames \(frames.framesDelivered)")
print("size \(player.naturalSize.width)x\(player.naturalSize.height)")
let row = firstRow.withLock { $0 } ?? []
print("row " + row.map { "\($0.red),\($0.green),\($0.blue)" }.joined(separator: " "))
print("finish \(reason)")
await player.shutdown()

do {
    _ = try WindowSink(display: ":0").makeOutput()
    print("window made")
} catch {
    print("window \(error.code): \(error.message)")
}
do {
    _ = try TextOverlay(text: "hello")
    print("text drawn")
} catch {
    print("text \(error.code): \(error.message)")
}
