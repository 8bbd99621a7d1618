import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// Numbers and strings an attacker chooses: every one ends in a typed error or a clean run,
/// never a trap, a format-string read or a silently empty result.
@Suite("Hostile input")
struct HostileInputTests {
    private func subtitleError(_ text: String) -> MediaError? {
        do {
            _ = try SubtitleParser.cues(parsing: Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test("cue timings with huge, signed or non-ASCII numbers are invalidSubtitles, not a trap")
    func subtitleNumbers() throws {
        let timings = [
            "1234567890123456:00:01,000 --> 1234567890123456:00:02,000",  // a 16-digit hour count
            "99999999999999999999:00:01,000 --> 99999999999999999999:00:02,000",  // past Int64
            "2562048:00:00,000 --> 2562048:00:01,000",  // past a GStreamer clock time
            "-1:00:01,000 --> 00:00:02,000",
            "+1:00:01,000 --> +1:00:02,000",
            "00:00:+1,000 --> 00:00:02,000",
            "٠٠:٠٠:٠١,٠٠٠ --> ٠٠:٠٠:٠٢,٠٠٠",  // Arabic-Indic digits
            "00:00:01,000 --> ",
            "00:00:01,0000 --> 00:00:02,000",
        ]
        for timing in timings {
            #expect(subtitleError("1\n\(timing)\nhi\n")?.code == .invalidSubtitles, "\(timing)")
        }
        // The largest hour count a clock time holds is still a time.
        let cues = try SubtitleParser.cues(parsing: Array("1\n2562046:59:58,000 --> 2562046:59:59,999\nlate\n".utf8))
        #expect(cues.first?.start == .seconds(2_562_046 * 3600 + 59 * 60 + 58))
        // A one-line file: the timing alone.
        #expect(subtitleError("00:00:01,000 --> 1234567890123456:00:02,000")?.code == .invalidSubtitles)
    }

    @Test("images sink times: commas, semicolons and spaces separate; NaN, infinities and huge numbers are refused")
    func imageTimes() throws {
        let folder = FileManager.default.temporaryDirectory.path
        func times(_ text: String) throws(MediaError) -> [Duration]? {
            let sink = try VideoSinkRegistry.shared.makeSink(
                named: "images", options: ["folder": folder, "times": text])
            guard case .times(let times) = (sink as? ImageFileSink)?.selection else { return nil }
            return times
        }
        #expect(try times("1,2.5;4 6") == [.seconds(1), .milliseconds(2500), .seconds(4), .seconds(6)])
        for bad in ["nan", "inf", "-inf", "1e300", "1e20", "-1", "1,x,2", "", ",", "0x", "1,,nan"] {
            #expect(throws: MediaError.self, "times=\(bad)") { try times(bad) }
            do { _ = try times(bad) } catch { #expect(error.code == .invalidArgument, "times=\(bad)") }
        }
        // Times past a clock time given through the API are refused when the output is made.
        let far = ImageFileSink(folder: URL(fileURLWithPath: folder), selection: .times([.seconds(Int64.max)]))
        #expect { try far.makeOutput() } throws: { ($0 as? MediaError)?.code == .invalidArgument }
    }

    @Test("images sink every=N beyond 32 bits is refused, not silently wrapped to nothing")
    func imageEvery() throws {
        let folder = FileManager.default.temporaryDirectory.path
        for bad in ["4294967296", "0", "-1", "99999999999999999999"] {
            #expect("every=\(bad)") {
                try VideoSinkRegistry.shared.makeSink(named: "images", options: ["folder": folder, "every": bad])
            } throws: {
                ($0 as? MediaError)?.code == .invalidArgument
            }
        }
        let largest = try VideoSinkRegistry.shared.makeSink(
            named: "images", options: ["folder": folder, "every": "4294967295"])
        #expect((largest as? ImageFileSink)?.selection == .everyNthFrame(Int(UInt32.max)))
    }

    @Test("sink specifications: a name, then options whose values may hold commas; malformed ones are typed errors")
    func sinkSpecifications() throws {
        let images = try VideoSinkSpecification(parsing: "images:folder=/tmp/a b,times=1,2.5,4,format=jpeg")
        #expect(images.name == "images")
        #expect(images.options == ["folder": "/tmp/a b", "times": "1,2.5,4", "format": "jpeg"])
        #expect(try VideoSinkSpecification(parsing: "null") == VideoSinkSpecification(name: "null"))
        #expect(try VideoSinkSpecification(parsing: "frames:") == VideoSinkSpecification(name: "frames"))
        #expect(try VideoSinkSpecification(parsing: "x:a==b").options == ["a": "=b"])
        for bad in ["", ":", ":a=1", "x:1", "x:=1", "x:a=1,a=2", "x:a b=1", ",", "x:,a=1"] {
            #expect("'\(bad)'") { try VideoSinkSpecification(parsing: bad) } throws: {
                ($0 as? MediaError)?.code == .invalidArgument
            }
        }
    }

    @Test("a folder whose name holds printf conversions gets exactly the files asked for")
    func percentInFolder() async throws {
        let parent = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: parent) }
        // %n would write through a pointer, %s read one: either used to crash the process.
        let folder = parent.appendingPathComponent("shots %s%s%s%n %d %% %05d")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let sink = ImageFileSink(folder: folder, selection: .everyNthFrame(30))
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)), videoSink: sink,
            audioOutput: .discard)
        let recorder = EventRecorder(player)
        try await player.play()
        let (reason, error) = try await recorder.waitForFinish()
        #expect(reason == .playbackEnded && error == nil, "\(String(describing: error))")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [
                "frame-00000.png", "frame-00001.png",
            ])
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent.path) == [folder.lastPathComponent])
    }

    @Test("an intact movie written one frame in sixty ends normally, not as truncated")
    func sparseImagesAreNotTruncation() async throws {
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The clip has 60 frames: only frame 0 is kept, and the sink sees nothing after 0.033 s.
        for selection in [ImageFileSink.Selection.everyNthFrame(60), .times([.zero])] {
            let player = MoviePlayer(
                source: FileSource(url: try await TestMedia.url(for: TestMedia.numbered)),
                videoSink: ImageFileSink(folder: folder, selection: selection), audioOutput: .discard)
            let recorder = EventRecorder(player)
            try await player.play()
            let (reason, error) = try await recorder.waitForFinish()
            #expect(reason == .playbackEnded && error == nil, "\(selection): \(String(describing: error))")
        }
    }
}
