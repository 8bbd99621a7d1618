// {file or URL} ! uridecodebin (video only, a pool of pipelines) ! libyuv scale -> PNG/JPEG files and a contact sheet
//
// Thumbnails of a movie, without a player: evenly spaced (--count) or at given seconds (--times),
// keyframes (fast) or --exact frames, fitted into --size, written into -o DIR as PNG files, and
// optionally laid out as one contact sheet PNG, each thumbnail labelled with its time.
// Usage: mediathumbs FILE_OR_URL (--count N | --times S,S,...) [--exact] [--size WxH] [-o DIR] [--sheet FILE.png]
import FileSource
import Foundation
import MediaEngine

let usage =
    "usage: mediathumbs FILE_OR_URL (--count N | --times S,S,...) [--exact] [--size WxH] [-o DIR] [--sheet FILE]\n"
func fail(_ message: String, status: Int32 = 2) -> Never {
    FileHandle.standardError.write(Data(message.utf8))
    exit(status)
}
func required<Value>(_ value: Value?) -> Value {
    guard let value else { fail(usage) }
    return value
}

var input: String?
var count: Int?
var seconds: [Double]?
var option = SeekOption.nearestKeyFrame
var size = VideoSize(width: 320, height: 180)
var folder: URL?
var sheet: URL?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--count": count = required(arguments.next().flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil })
    case "--times": seconds = required(arguments.next()).split(separator: ",").map { required(Double($0)) }
    case "--exact": option = .exact
    case "--size":
        let parts = arguments.next()?.split(separator: "x").compactMap { Int($0) } ?? []
        guard parts.count == 2, parts.allSatisfy({ $0 > 0 }) else { fail(usage) }
        size = VideoSize(width: parts[0], height: parts[1])
    case "-o": folder = URL(fileURLWithPath: required(arguments.next()), isDirectory: true)
    case "--sheet": sheet = URL(fileURLWithPath: required(arguments.next()))
    case "--help", "-h": fail(usage, status: 0)
    default: if input == nil && !argument.hasPrefix("-") { input = argument } else { fail(usage) }
    }
}
guard let input, (count == nil) != (seconds == nil) else { fail(usage) }
let source: any MediaSource =
    input.contains("://") ? URISource(uri: input) : FileSource(path: input)

// --count: N times spread over the movie (the middle of N equal parts); the duration comes from a probe.
var times = (seconds ?? []).map { Duration.milliseconds(Int64(($0 * 1000).rounded())) }
if let count {
    let probe = MoviePlayer(source: source, videoSink: NullVideoSink(), audioOutput: .discard)
    probe.shouldAutoplay = false
    do { try await probe.prepareToPlay() } catch { fail("mediathumbs: \(error.code): \(error.message)\n", status: 1) }
    let duration = probe.duration ?? .zero
    await probe.shutdown()
    times = (0..<count).map { duration * ((Double($0) + 0.5) / Double(count)) }
}

// A folder or file that cannot be written (read-only, a full disk) ends the run with its typed error.
func written(_ write: () throws(MediaError) -> Void) {
    do { try write() } catch { fail("\nmediathumbs: \(error.code): \(error.message)\n", status: 1) }
}
if let folder {
    do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
        fail("mediathumbs: cannot make \(folder.path): \(error.localizedDescription)\n", status: 1)
    }
}
let generator = ThumbnailGenerator(source: source, maximumSize: size)
var results: [ThumbnailResult] = []
var failures = 0
for await result in generator.images(at: times, option: option) {
    results.append(result)
    let done = results.count
    let bar = String(repeating: "#", count: done * 30 / times.count).padding(toLength: 30, withPad: ".", startingAt: 0)
    FileHandle.standardError.write(Data("\r[\(bar)] \(done)/\(times.count)".utf8))
    guard let image = result.image else {
        failures += 1
        FileHandle.standardError.write(Data("\nmediathumbs: \(result.requestedTime): \(result.error!)\n".utf8))
        continue
    }
    if let folder {
        let milliseconds = Int((result.requestedTime.inSeconds * 1000).rounded())
        written { () throws(MediaError) in
            try image.write(to: folder.appendingPathComponent(String(format: "thumb-%08d.png", milliseconds)))
        }
    }
}
FileHandle.standardError.write(Data("\n".utf8))

// The contact sheet: a grid in time order, each cell a thumbnail with its time under it.
if let sheet {
    let cells = results.filter { $0.image != nil }.sorted { $0.requestedTime < $1.requestedTime }
    let columns = max(1, min(5, cells.count))
    let rows = (cells.count + columns - 1) / columns
    let (gap, label) = (8, 22)
    let (width, height) = (columns * (size.width + gap) + gap, rows * (size.height + label + gap) + gap)
    var canvas = [UInt8](repeating: 0, count: width * height * 4)
    for index in stride(from: 3, to: canvas.count, by: 4) { canvas[index] = 255 }  // opaque black
    func paste(_ pixels: [UInt8], _ w: Int, _ h: Int, stride: Int, atX x: Int, y: Int) {
        for row in 0..<h {
            for column in 0..<w {
                let from = row * stride + column * 4
                let to = ((y + row) * width + x + column) * 4
                let alpha = Int(pixels[from + 3])  // straight alpha over the background
                for channel in 0..<3 {
                    canvas[to + channel] = UInt8(
                        (Int(pixels[from + channel]) * alpha + Int(canvas[to + channel]) * (255 - alpha)) / 255)
                }
            }
        }
    }
    let style = TextStyle(font: "Sans 11", color: .white)
    for (index, cell) in cells.enumerated() {
        let image = cell.image!
        let (x, y) = (
            gap + (index % columns) * (size.width + gap), gap + (index / columns) * (size.height + label + gap)
        )
        let left = x + (size.width - image.width) / 2
        paste(image.planes[0], image.width, image.height, stride: image.strides[0], atX: left, y: y)
        let time = cell.actualTime ?? cell.requestedTime
        let text = String(
            format: "%d:%06.3f", Int(time.inSeconds) / 60, time.inSeconds.truncatingRemainder(dividingBy: 60))
        let request = OverlayRenderRequest(frameSize: size, time: nil)
        if let bitmap = try TextOverlay(text: text, style: style).bitmap(for: request) {
            let w = min(bitmap.width, size.width)
            paste(
                bitmap.pixels, w, min(bitmap.height, label), stride: bitmap.width * 4, atX: x + (size.width - w) / 2,
                y: y + size.height + 2)
        }
    }
    written { () throws(MediaError) in
        try VideoImage(width: width, height: height, rgba: canvas).write(to: sheet, format: .png)
    }
}
await generator.shutdown()
exit(failures == 0 ? 0 : 1)
