import FileSource
import Foundation
@_spi(Benchmarks) import MediaEngineCore

/// `thumbnails`: 20 thumbnails, 320 pixels wide, written as PNG files, of a 120 s 1080p H.264
/// movie with sound and 2-second GOPs, at 3, 9, ..., 117 s: each 1 s after a keyframe, so an
/// exact thumbnail decodes about 30 pictures. Timed from a new `ThumbnailGenerator` to the 20th
/// file written (pipelines opened, torn down after), median of 5 interleaved rounds. Peers in the same run:
/// ffmpeg once per time (`-skip_frame nokey -noaccurate_seek -ss T` for keyframes, `-ss T`
/// before `-i` for exact), ffmpegthumbnailer when installed, and a plain playbin in this
/// process doing the 20 seeks one after the other (preroll included, nothing scaled or written).
/// Every thumbnail's frame number is read from its pixels: a wrong, black or late frame fails
/// the benchmark. For exact thumbnails, the floor is decoding 31 pictures per thumbnail at
/// GStreamer's full-speed decode rate on this machine (gst-launch-1.0 on the 10 s movie of `decode`).
enum ThumbnailsBenchmark {
    static let times = stride(from: 3, through: 117, by: 6).map { Duration.seconds($0) }
    static let runs = 5

    static func run() async throws -> [Measurement] {
        let movie = try BenchmarkMedia.fullHDLong()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("engine-bench-thumbs-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        var measurements: [Measurement] = []
        for option in [SeekOption.nearestKeyFrame, .exact] {
            let name = option == .exact ? "exact" : "keyframe"
            // Interleaved rounds, so the three see the same load on a shared machine.
            var engine: [Double] = []
            var ffmpeg: [Double] = []
            var playbin: [Double] = []
            var pictures = 0
            for _ in 0..<runs {
                let (milliseconds, decoded) = try await engineRun(movie, option: option, folder: folder)
                engine.append(milliseconds)
                pictures = decoded
                ffmpeg.append(try ffmpegRun(movie, option: option, folder: folder))
                playbin.append(try playbinRun(movie, option: option))
            }
            measurements.append(
                Measurement(
                    "thumbs", "\(name)-20-vs-ffmpeg", engine.median, "ms", baseline: ffmpeg.median,
                    ratio: ffmpeg.median / engine.median))
            measurements.append(
                Measurement(
                    "thumbs", "\(name)-20-vs-playbin", engine.median, "ms", baseline: playbin.median,
                    ratio: playbin.median / engine.median))
            measurements.append(
                Measurement("thumbs", "\(name)-pictures-decoded", Double(pictures) / Double(times.count), "/thumb"))
            if Command.exists("ffmpegthumbnailer") {
                let peer = try (0..<runs).map { _ in try ffmpegthumbnailerRun(movie, folder: folder) }.median
                measurements.append(
                    Measurement(
                        "thumbs", "\(name)-20-vs-ffmpegthumbnailer", engine.median, "ms", baseline: peer,
                        ratio: peer / engine.median))
            }
            if option == .exact {
                // gst-launch-1.0 decoding the 10 s 1080p movie (same encoder settings) flat out,
                // its process start-up measured alone and taken off: pure decoding, both cores.
                let startup = try Command.time("gst-launch-1.0", ["-q", "fakesrc", "num-buffers=1", "!", "fakesink"])
                let framesPerSecond = try DecodeBenchmark.gstLaunchFramesPerSecond(
                    try BenchmarkMedia.fullHD(), format: .i420, startup: startup.seconds)
                let floor = Double(times.count * 31) / framesPerSecond * 1000
                measurements.append(
                    Measurement(
                        "thumbs", "exact-20-vs-decode-floor", engine.median, "ms", baseline: floor,
                        ratio: floor / engine.median))
            }
        }
        return measurements
    }

    /// One engine run: a new generator, 20 thumbnails written as PNG, each frame checked.
    /// - Returns: The time, and how many pictures the decoders output for the 20 thumbnails.
    private static func engineRun(_ movie: URL, option: SeekOption, folder: URL) async throws -> (Double, Int) {
        let clock = ContinuousClock()
        let start = clock.now
        let generator = ThumbnailGenerator(
            source: FileSource(url: movie), maximumSize: VideoSize(width: 320, height: 320))
        var checked: [(ThumbnailResult, VideoImage)] = []
        for await result in generator.images(at: times, option: option) {
            guard let image = result.image else { throw BenchmarkError("thumbnail failed: \(result)") }
            let seconds = Int(result.requestedTime.inSeconds.rounded())
            try image.write(to: folder.appendingPathComponent("engine-\(seconds).png"))
            checked.append((result, image))
        }
        let elapsed = (clock.now - start).milliseconds
        let pictures = generator.picturesDecoded
        await generator.shutdown()
        for (result, image) in checked {
            // Keyframes every 2 s: 1 s before each time; exact: the time itself.
            let expected = option == .exact ? result.requestedTime : result.requestedTime - .seconds(1)
            let frame = Int((expected.inSeconds * 30).rounded())
            guard image.width == 320, image.height == 180, result.actualTime == expected,
                frameNumber(image) == frame % 80
            else {
                throw BenchmarkError(
                    "wrong thumbnail for \(result.requestedTime): frame \(String(describing: frameNumber(image))) "
                        + "at \(String(describing: result.actualTime)), \(image.width)x\(image.height), "
                        + "not frame \(frame % 80) (mod 80) at \(expected)")
            }
        }
        return (elapsed, pictures)
    }

    private static func ffmpegRun(_ movie: URL, option: SeekOption, folder: URL) throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        for time in times {
            let seconds = "\(Int(time.inSeconds))"
            let seek =
                option == .exact ? ["-ss", seconds] : ["-skip_frame", "nokey", "-noaccurate_seek", "-ss", seconds]
            _ = try Command.time(
                "ffmpeg",
                ["-v", "error", "-y"] + seek + [
                    "-i", movie.path, "-frames:v", "1", "-vf", "scale=320:-2",
                    folder.appendingPathComponent("ffmpeg-\(seconds).png").path,
                ])
        }
        return (clock.now - start).milliseconds
    }

    private static func ffmpegthumbnailerRun(_ movie: URL, folder: URL) throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        for time in times {
            let seconds = "\(Int(time.inSeconds))"
            _ = try Command.time(
                "ffmpegthumbnailer",
                ["-i", movie.path, "-t", seconds, "-s", "320", "-o", folder.appendingPathComponent("ft.png").path])
        }
        return (clock.now - start).milliseconds
    }

    private static func playbinRun(_ movie: URL, option: SeekOption) throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        _ = try PlaybinBaseline.seekTimes(uri: FileSource(url: movie).uri, positions: times, exact: option == .exact)
        return (clock.now - start).milliseconds
    }

    /// The frame number modulo 80, read where the last (blue) bar meets the first (white) one
    /// (as the tests' FrameNumber reads it): the bars move 4 thumbnail pixels a frame.
    private static func frameNumber(_ image: VideoImage) -> Int? {
        func isBlue(_ c: RGBAColor) -> Bool { c.blue > 180 && c.red < 90 && c.green < 90 }
        func isWhite(_ c: RGBAColor) -> Bool { c.red > 180 && c.green > 180 && c.blue > 180 }
        var previous = image.color(atX: 0, y: 20)
        for x in 1..<image.width {
            let current = image.color(atX: x, y: 20)
            if isBlue(previous) && isWhite(current) { return Int((Double(image.width - x) / 4).rounded()) % 80 }
            previous = current
        }
        return isWhite(image.color(atX: 0, y: 20)) && isBlue(image.color(atX: image.width - 1, y: 20)) ? 0 : nil
    }
}
