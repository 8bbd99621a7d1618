import Foundation
import MediaTestSupport
import Testing

/// Runs each example executable the way its README says, on real media.
@Suite("Examples")
struct ExampleSmokeTests {
    @Test("mediaprobe --json prints one object with the documented keys")
    func probeJSON() async throws {
        let clip = try await TestMedia.url(for: TestMedia.barsWithAudio)
        let result = try await ProcessRunner.run(BuildProducts.executable("mediaprobe"), ["--json", clip.path])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        try #require(lines.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let duration = try #require(object["duration"] as? Double)
        #expect(abs(duration - 2.0) < 0.1)
        #expect(object["width"] as? Int == 320)
        #expect(object["height"] as? Int == 240)
        #expect(object["mediaTypes"] as? [String] == ["video", "audio"])
        #expect(object["sourceType"] as? String == "file")
        #expect(object["videoDecoder"] as? String == "meh264dec")
        let tags = try #require(object["tags"] as? [String: String])
        #expect(tags["audio-codec"]?.contains("AAC") == true)
        #expect(object["truncated"] as? Bool == false)
        #expect(object["playableDuration"] as? Double == duration)
    }

    @Test("mediaprobe --json tells a movie cut short, and how much of it plays", arguments: [0.01, 0.5, 0.99])
    func probeTruncated(fraction: Double) async throws {
        let clip = try await TestMedia.cut(TestMedia.barsWithAudio, keeping: fraction)
        let result = try await ProcessRunner.run(BuildProducts.executable("mediaprobe"), ["--json", clip.path])
        #expect(result.status == 0, "\(result.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let duration = try #require(object["duration"] as? Double)
        let playable = try #require(object["playableDuration"] as? Double)
        #expect(object["truncated"] as? Bool == true)
        #expect(abs(duration - 2.0) < 0.1)
        #expect(playable >= 0 && playable <= duration * fraction + 0.1, "\(playable) of \(duration)")
        let text = try await ProcessRunner.run(BuildProducts.executable("mediaprobe"), [clip.path])
        #expect(text.standardOutput.contains("(the file is cut short)"), "\(text.standardOutput)")
    }

    @Test("mediaprobe prints a readable summary")
    func probeText() async throws {
        let clip = try await TestMedia.url(for: TestMedia.bars)
        let result = try await ProcessRunner.run(BuildProducts.executable("mediaprobe"), [clip.path])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("size:        320x240"))
        #expect(result.standardOutput.contains("duration:    2.000 s"))
    }

    @Test("mediaprobe reports a bad input as one line naming the error code, and fails")
    func probeErrors() async throws {
        let inputs = try await BadInputs.make()
        for input in inputs.cases where !input.failsDuringPlayback {
            let result = try await ProcessRunner.run(BuildProducts.executable("mediaprobe"), [input.path])
            #expect(result.status == 1, "\(input.name)")
            #expect(result.standardOutput.isEmpty)
            let lines = result.standardError.split(separator: "\n")
            #expect(lines.count == 1, "\(input.name): \(result.standardError)")
            #expect(lines.first?.hasPrefix("mediaprobe: \(input.expectedCode): ") == true, "\(input.name): \(lines)")
        }
    }

    @Test("a missing decoder names the Debian package to install")
    func missingDecoder() async throws {
        let clip = try await TestMedia.url(for: TestMedia.bars)
        // Hide every H.264 decoder (the engine's own too), as on a machine without gstreamer1.0-libav.
        let result = try await ProcessRunner.run(
            BuildProducts.executable("mediaprobe"), [clip.path],
            environment: ["GST_PLUGIN_FEATURE_RANK": "avdec_h264:NONE,openh264dec:NONE,meh264dec:NONE"])
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("mediaprobe: missingPlugin: "), "\(result.standardError)")
        #expect(result.standardError.contains("install gstreamer1.0-libav"))
    }

    @Test("H.264 goes to the engine's decoder unless a decoder ranked above avdec_h264 (a hardware one) is there")
    func decoderRank() async throws {
        let clip = try await TestMedia.url(for: TestMedia.bars)
        func decoder(ranks: String) async throws -> String? {
            let result = try await ProcessRunner.run(
                BuildProducts.executable("mediaprobe"), ["--json", clip.path],
                environment: ["GST_PLUGIN_FEATURE_RANK": ranks])
            try #require(result.status == 0, "\(result.standardError)")
            let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
            return object?["videoDecoder"] as? String
        }
        // openh264dec stands in for a hardware decoder: hardware decoders sit at PRIMARY + 1
        // (257), where the engine's decoder would otherwise win the tie by name.
        #expect(try await decoder(ranks: "openh264dec:257") == "openh264dec")
        // At avdec_h264's own rank it is no reason to step back.
        #expect(try await decoder(ranks: "openh264dec:256") == "meh264dec")
    }

    @Test("mediaplay --list-sinks lists the built-in sinks with their capabilities")
    func listSinks() async throws {
        let result = try await ProcessRunner.run(BuildProducts.executable("mediaplay"), ["--list-sinks"])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("null ") })
        // Each sink's capabilities, as its type declares them (no sink made to list them).
        #expect(lines.contains { $0.hasPrefix("frames     frames ") })
        #expect(lines.contains { $0.hasPrefix("window     window, fullscreen ") })
        #expect(lines.contains { $0.hasPrefix("images     external ") })
        #expect(lines.contains { $0.hasPrefix("terminal   none ") })
    }

    // The frames sink unpaced: a paced one drops frames that come late (a busy machine), and the
    // count of all 60 is checked.
    @Test("mediaplay plays to the end on the frames sink, printing progress", arguments: ["frames:sync=false", "null"])
    func play(sink: String) async throws {
        let clip = try await TestMedia.url(for: TestMedia.bars)
        let result = try await ProcessRunner.run(BuildProducts.executable("mediaplay"), ["--sink", sink, clip.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("playing \(clip.path): 320x240"))
        #expect(result.standardOutput.contains("finished: playbackEnded"))
        if sink.hasPrefix("frames") { #expect(result.standardOutput.contains("(60 frames)")) }
    }

    @Test("mediaplay --controls draws the engine's controls; an unknown style is a usage error")
    func controls() async throws {
        let clip = try await TestMedia.url(for: TestMedia.bars)
        let played = try await ProcessRunner.run(
            BuildProducts.executable("mediaplay"),
            ["--controls", "fullscreen", "--sink", "frames:sync=false", clip.path])
        #expect(played.status == 0, "\(played.standardError)")
        #expect(
            played.standardOutput.contains("finished: playbackEnded") && played.standardOutput.contains("(60 frames)"),
            "\(played.standardOutput.suffix(1500))")
        let refused = try await ProcessRunner.run(
            BuildProducts.executable("mediaplay"), ["--controls", "sideways", clip.path])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("--controls takes none, embedded or fullscreen, not 'sideways'"))
    }

    @Test("embed plays, reads pixels, seeks and sees the end")
    func embed() async throws {
        let clip = try await TestMedia.url(for: TestMedia.bars)
        let result = try await ProcessRunner.run(BuildProducts.executable("embed"), [clip.path])
        #expect(result.status == 0, "\(result.standardError)")
        let output = result.standardOutput
        #expect(output.contains("prepared: 320x240, [video], 2.0 seconds"))
        #expect(output.contains("event: playbackStateChanged(playing)"))
        // Where the exact seek landed is the event; the line after it reads the playhead of a
        // movie that plays on (0.6 s and more on a busy machine), so it is at or after 0.5 s.
        #expect(output.contains("event: seekCompleted(0.5 seconds)"))
        let seeked = output.split(separator: "\n").first { $0.hasPrefix("seeked to about ") }
        let seconds = seeked.flatMap { Double($0.dropFirst("seeked to about ".count).dropLast(" s".count)) }
        #expect(seconds.map { (0.5...2.0).contains($0) } == true, "\(String(describing: seeked))")
        #expect(output.contains("event: playbackDidFinish(playbackEnded)"))
        // The centre of SMPTE bars is the green bar.
        #expect(output.contains("centre of the last frame: rgba(0, 2"), "\(output)")
        #expect(output.contains("frames shown: "))
    }

    @Test("mediaplay refuses an unknown sink, naming the ones there are")
    func unknownSink() async throws {
        let clip = try await TestMedia.url(for: TestMedia.bars)
        let result = try await ProcessRunner.run(
            BuildProducts.executable("mediaplay"), ["--sink", "hologram", clip.path])
        #expect(result.status == 1)
        #expect(result.standardError.contains("unknownSink"))
        #expect(result.standardError.contains("frames, hls, images, null, rtp, srt, terminal, window"))
    }

    @Test("overlay-tabs maps a click through the view to the tab under it")
    func overlayTabs() async throws {
        let clip = try await TestMedia.url(for: TestMedia.bars)
        // The 480x36 tab bar spans the 320-pixel view: two thirds of its size, at y 216-240.
        let result = try await ProcessRunner.run(
            BuildProducts.executable("overlay-tabs"),
            ["--sink", "null", "--click", "100,230", "--click", "100,100", clip.path])
        #expect(result.status == 0, "\(result.standardError)")
        let output = result.standardOutput
        #expect(output.contains("overlays: tab bar (overlay-1) with 4 tabs, banner 'swift-media-engine'"), "\(output)")
        #expect(output.contains("click at (100, 100): no tab there"), "\(output)")
        #expect(output.contains("clicked tab-2 at (150, 21) in the tab bar"), "\(output)")
        #expect(output.contains("finished: playbackEnded"))
        let missing = try await ProcessRunner.run(BuildProducts.executable("overlay-tabs"), ["/nowhere/movie.mp4"])
        #expect(missing.status == 1 && missing.standardError.contains("fileNotFound"), "\(missing.standardError)")
    }

    @Test("malformed --sink and --click arguments are usage errors, never a crash")
    func malformedArguments() async throws {
        let clip = try await TestMedia.url(for: TestMedia.bars)
        for sink in ["", ":", ":format=rgba", "images:2"] {
            let result = try await ProcessRunner.run(
                BuildProducts.executable("mediaplay"), ["--sink", sink, clip.path])
            #expect(result.status == 1, "--sink '\(sink)': \(result.standardError)")
            #expect(result.standardError.hasPrefix("mediaplay: "), "--sink '\(sink)': \(result.standardError)")
            #expect(result.standardError.contains("usage: mediaplay"), "--sink '\(sink)'")
        }
        for click in ["nan,nan", "1e300,1e300", "inf,0", "1,", "1,2,3"] {
            let result = try await ProcessRunner.run(
                BuildProducts.executable("overlay-tabs"), ["--sink", "null", "--click", click, clip.path])
            #expect(result.status == 1, "--click \(click): \(result.standardError)")
            #expect(result.standardError.hasPrefix("overlay-tabs: --click needs X,Y"), "--click \(click)")
        }
    }

    @Test("mediaplay writes the frames at comma-separated times through the images sink")
    func imagesAtTimes() async throws {
        let clip = try await TestMedia.url(for: TestMedia.bars)
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await ProcessRunner.run(
            BuildProducts.executable("mediaplay"),
            ["--sink", "images:folder=\(folder.path),times=0.5,1,1.5", clip.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("finished: playbackEnded"))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == ["frame-00000.png", "frame-00001.png", "frame-00002.png"])
    }
}
