import FileSource
import Foundation
import MediaEngineCore

/// A conformance kit for `VideoSink` authors: plays a clip into a sink and checks the rules
/// written on `VideoSink` (a fresh output per pipeline, every element of the output named in
/// `requiredElements`, capabilities that do not change, frames in presentation order and one at a
/// time, playback to the end, a live swap in and out with no frame lost around it). Use it from a
/// test:
///
/// ```swift
/// let clip = try await VideoSinkConformance.makeClip(in: folder)
/// let report = await VideoSinkConformance.check(MySink(), clip: clip)
/// #expect(report.failures.isEmpty, "\(report)")
/// ```
///
/// Each check needs a working GStreamer; a sink that needs a display needs one too (Xvfb).
public enum VideoSinkConformance {
    /// What the kit found: the checks passed, and a line for each failure.
    public struct Report: Sendable, CustomStringConvertible {
        /// The checks that passed, by name.
        public var passed: [String] = []
        /// Each failed check: its name, a colon and what went wrong.
        public var failures: [String] = []

        /// One line per check.
        public var description: String {
            (passed.map { "pass \($0)" } + failures.map { "FAIL \($0)" }).joined(separator: "\n")
        }

        mutating func check(_ name: String, _ failure: String?) {
            if let failure { failures.append("\(name): \(failure)") } else { passed.append(name) }
        }
    }

    /// Frames in the clip ``makeClip(in:)`` writes.
    public static let clipFrames = 60

    /// Writes the kit's clip into `folder` (2 s of 320x240 at 30 fps, Motion JPEG in Matroska:
    /// GStreamer's good plugins, no sound) with `gst-launch-1.0`, unless it is there already.
    /// - Returns: The clip's URL.
    /// - Throws: `MediaError` (`pipelineFailure`) when `gst-launch-1.0` fails or is missing.
    public static func makeClip(in folder: URL) async throws(MediaError) -> URL {
        let url = folder.appendingPathComponent("conformance-clip.mkv")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let partial = folder.appendingPathComponent("conformance-clip-\(UUID().uuidString).partial")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "gst-launch-1.0", "-q", "videotestsrc", "num-buffers=\(clipFrames)", "pattern=smpte", "!",
            "video/x-raw,width=320,height=240,framerate=30/1", "!", "jpegenc", "!", "matroskamux", "!", "filesink",
            "location=\(partial.path)",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // The end is awaited through the process's termination handler: no thread waits for it.
        let status: Int32? = await withCheckedContinuation { (done: CheckedContinuation<Int32?, Never>) in
            process.terminationHandler = { ended in done.resume(returning: ended.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                done.resume(returning: nil)
            }
        }
        guard let status else {
            throw MediaError(.pipelineFailure, "gst-launch-1.0 could not be started")
        }
        guard status == 0 else {
            try? FileManager.default.removeItem(at: partial)
            throw MediaError(.pipelineFailure, "gst-launch-1.0 failed (\(status)) making the clip")
        }
        do {
            try FileManager.default.moveItem(at: partial, to: url)
        } catch {
            try? FileManager.default.removeItem(at: partial)
            if !FileManager.default.fileExists(atPath: url.path) {
                throw MediaError(.pipelineFailure, "the clip could not be moved into place: \(error)")
            }
        }
        return url
    }

    /// Runs every check on `sink` with `clip` (``makeClip(in:)``'s, or any movie of
    /// ``clipFrames`` frames without sound).
    /// - Parameters:
    ///   - sink: The sink to check.
    ///   - clip: The movie played into it.
    ///   - timeout: How long one playback may take.
    /// - Returns: What passed and what failed.
    public static func check(_ sink: any VideoSink, clip: URL, timeout: Duration = .seconds(20)) async -> Report {
        await check(opened: sink, clip: clip, timeout: timeout)
    }

    /// ``check(_:clip:timeout:)`` with the sink's type known: the kit's wrappers of the sink
    /// (``WatchedSink``) are of that type's capabilities.
    static func check<Sink: VideoSink>(opened sink: Sink, clip: URL, timeout: Duration) async -> Report {
        var report = Report()
        let capabilities = Sink.capabilities
        report.check("fresh output per pipeline", freshOutputs(sink))
        report.check("its elements named in requiredElements", undeclaredElements(sink))
        let watched = WatchedSink(sink)
        report.check("plays to the end", await playToEnd(watched, clip: clip, timeout: timeout))
        report.check("a second pipeline", await playToEnd(watched, clip: clip, timeout: timeout))
        report.check("frames in presentation order, one at a time", watched.log.problems)
        report.check("live swap in and out, no frame lost", await swapInAndOut(sink, clip: clip, timeout: timeout))
        report.check(
            "capabilities do not change",
            Sink.capabilities == capabilities ? nil : "\(capabilities) at first, \(Sink.capabilities) after playing")
        return report
    }

    /// Every element factory of the element or bin `makeOutput()` describes is one of the sink's
    /// `requiredElements`, which the registry checks without making the output.
    static func undeclaredElements(_ sink: some VideoSink) -> String? {
        // An output that cannot be made is the fresh-output check's failure.
        guard case .element(let description, _)? = try? sink.makeOutput() else { return nil }
        let declared = sink.requiredElements
        let undeclared = description.factoryNames.filter { !declared.contains($0) }
        guard !undeclared.isEmpty else { return nil }
        return "the output uses \(undeclared.joined(separator: ", ")), not in requiredElements \(declared)"
    }

    /// Two calls of `makeOutput()` both succeed, and a frames output is not one shared consumer.
    static func freshOutputs(_ sink: any VideoSink) -> String? {
        do throws(MediaError) {
            let first = try sink.makeOutput()
            let second = try sink.makeOutput()
            if case .frames = first, case .element = second { return "one call gave frames, the next an element" }
            return nil
        } catch {
            return "makeOutput() failed: \(error)"
        }
    }

    /// Plays `clip` into `sink` from start to end.
    static func playToEnd(_ sink: any VideoSink, clip: URL, timeout: Duration) async -> String? {
        let player = MoviePlayer(source: FileSource(url: clip), videoSink: sink, audioOutput: .discard)
        let events = player.events
        var failure: String?
        do {
            try await player.play()
            failure = await finish(events, within: timeout)
        } catch {
            failure = "play() failed: \(error)"
        }
        // Shut down before returning: a window sink's display may go right after the check.
        await player.shutdown()
        return failure
    }

    /// Plays `clip` into the kit's own frames sink, swaps to `sink` after a third of it and back
    /// after two thirds: every frame reaches one of the two (when `sink` hands frames to Swift; its
    /// late frames are delivered rather than dropped for this check),
    /// the kit's sink gets the movie's end back (when `sink` is paced by the clock; an unpaced one
    /// may finish the movie first), and the movie ends.
    static func swapInAndOut<Sink: VideoSink>(_ sink: Sink, clip: URL, timeout: Duration) async -> String? {
        let kitFrames = Locked<[Duration]>([])
        let own = FrameSink(dropsLateFrames: false) { frame in
            if let time = frame.presentationTime { kitFrames.withLock { $0.append(time) } }
        }
        // A frame the sink dropped for coming late (a busy machine) would look lost at the swap.
        let watched = WatchedSink(sink, keepsLateFrames: true)
        let player = MoviePlayer(source: FileSource(url: clip), videoSink: own, audioOutput: .discard)
        let events = player.events
        var failure: String?
        do {
            try await player.play()
            try await waitUntil("a third of the frames in the kit's sink", within: timeout, player: player) {
                kitFrames.withLock { $0.count } >= clipFrames / 3
            }
            try await player.setVideoSink(watched)
            try await waitUntil("two thirds of the movie, in the sink checked", within: timeout, player: player) {
                player.currentPlaybackTime >= .seconds(4) / 3
            }
            try await player.setVideoSink(own)
            failure = await finish(events, within: timeout)
        } catch {
            failure = "\(error)"
        }
        await player.shutdown()
        if let failure { return failure }
        let ours = kitFrames.withLock { $0 }
        // An unpaced output runs the movie flat out: it may end before the swap back.
        let paced = (try? sink.makeOutput())?.isSynchronized ?? true
        if paced, (ours.last ?? .zero) < .milliseconds(1900) {
            return "the kit's sink did not get the movie's end back after the swap"
        }
        if let problem = watched.log.problems { return problem }
        if watched.log.handedFrames {
            let all = Set(ours + watched.log.times)
            if all.count < clipFrames {
                return "\(clipFrames - all.count) of \(clipFrames) frames reached neither sink"
            }
        }
        return nil
    }

    static func finish(_ events: PlayerEvents, within timeout: Duration) async -> String? {
        let result = await withTaskGroup(of: String?.self) { group in
            group.addTask {
                for await event in events {
                    if case .playbackDidFinish(let reason, let error) = event {
                        return reason == .playbackEnded ? nil : "finished with \(reason): \(String(describing: error))"
                    }
                }
                return "the events ended without a finish"
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return "no finish within \(timeout)"
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        return result
    }

    /// Polls `condition` until it holds; after `timeout`, fails naming `what` and where the
    /// player was.
    static func waitUntil(
        _ what: String, within timeout: Duration, player: MoviePlayer, _ condition: @Sendable () -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else {
                throw MediaError(
                    .timedOut,
                    "the movie did not get to \(what) within \(timeout): at \(player.currentPlaybackTime), "
                        + "\(player.playbackState), \(player.loadState), error: \(String(describing: player.error))")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
