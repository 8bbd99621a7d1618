import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

@Suite("Video sink registry")
struct VideoSinkRegistryTests {
    @Test("the built-in sinks are there with no set-up, with their capabilities")
    func builtIns() throws {
        let registry = VideoSinkRegistry()
        #expect(registry.all.map(\.name) == ["frames", "images", "null", "window"])
        #expect(registry.entry(named: "frames")?.capabilities == .frames)
        #expect(registry.entry(named: "window")?.capabilities == [.window, .fullscreen])
        #expect(registry.entry(named: "images")?.capabilities == .external)
        #expect(try registry.makeSink(named: "null") is NullVideoSink)
        let frames = try #require(
            try registry.makeSink(named: "frames", options: ["format": "rgba", "sync": "false"]) as? FrameSink)
        #expect(frames.format == .rgba && !frames.synchronized)
    }

    @Test("the default is a window when a display is reachable, otherwise null")
    func defaultSink() throws {
        #expect(VideoSinkRegistry(environment: [:]).defaultSinkName == "null")
        #expect(VideoSinkRegistry(environment: ["DISPLAY": ":5"]).defaultSinkName == "window")
        #expect(VideoSinkRegistry(environment: ["WAYLAND_DISPLAY": "wayland-0"]).defaultSinkName == "window")
        #expect(VideoSinkRegistry(environment: ["DISPLAY": ""]).defaultSinkName == "null")
        #expect(try VideoSinkRegistry(environment: [:]).makeDefaultSink() is NullVideoSink)
        #expect(try VideoSinkRegistry(environment: ["DISPLAY": ":5"]).makeDefaultSink() is WindowSink)
        // A registry without the window sink falls back to null even with a display.
        #expect(VideoSinkRegistry(builtIns: false, environment: ["DISPLAY": ":5"]).defaultSinkName == "null")
    }

    @Test("a default sink the registry cannot make fails preparation with the registry's error, announced")
    func unavailableDefaultSink() async throws {
        // No built-in sinks: the default, `null`, is not registered.
        let registry = VideoSinkRegistry(builtIns: false, environment: [:])
        let clip = try await TestMedia.url(for: TestMedia.bars)
        let player = MoviePlayer(source: FileSource(url: clip), registry: registry)
        let recorder = EventRecorder(player)
        await #expect { try await player.prepareToPlay() } throws: { ($0 as? MediaError)?.code == .unknownSink }
        try await recorder.waitFor { $0.finish?.1?.code == .unknownSink }
        // Another sink makes the player usable.
        try await player.setVideoSink(NullVideoSink())
        try await player.prepareToPlay()
        #expect(player.isPreparedToPlay)
    }

    @Test("unknown names, duplicates and bad options are typed errors")
    func errors() throws {
        let registry = VideoSinkRegistry()
        #expect { try registry.makeSink(named: "nope") } throws: { ($0 as? MediaError)?.code == .unknownSink }
        #expect { try registry.register("null", summary: "again") { _ in NullVideoSink() } } throws: {
            ($0 as? MediaError)?.code == .duplicateSink
        }
        #expect { try registry.register("bad name!", summary: "") { _ in NullVideoSink() } } throws: {
            ($0 as? MediaError)?.code == .invalidArgument
        }
        #expect { try registry.makeSink(named: "frames", options: ["format": "yuv9"]) } throws: {
            ($0 as? MediaError)?.code == .invalidArgument
        }
        #expect { try registry.makeSink(named: "frames", options: ["width": "100"]) } throws: {
            ($0 as? MediaError)?.code == .invalidArgument
        }
        #expect { try registry.makeSink(named: "images", options: [:]) } throws: {
            ($0 as? MediaError)?.code == .invalidArgument  // no folder
        }
        // A sink whose element is not installed says which package has it, when it is made.
        try registry.register("gl", summary: "needs gstreamer1.0-gl") { _ in
            struct GLSink: VideoSink {
                func makeOutput() throws(MediaError) -> VideoOutput {
                    .element(ElementDescription(factory: "glimagesink-missing"))
                }
            }
            return GLSink()
        }
        #expect { try registry.makeSink(named: "gl") } throws: { ($0 as? MediaError)?.code == .missingPlugin }
    }

    @Test("a plugin's sink registers and plays; an element that does not exist names its package")
    func pluginSink() async throws {
        /// Counts the frames it is given, written as a plugin would: public API only.
        final class CountingSink: VideoSink {
            let count = Locked(0)
            func makeOutput() throws(MediaError) -> VideoOutput {
                .frames(FrameConsumer(synchronized: false) { [self] _ in count.withLock { $0 += 1 } })
            }
        }
        struct MissingElementSink: VideoSink {
            func makeOutput() throws(MediaError) -> VideoOutput {
                .element(ElementDescription(factory: "glimagesink-nope"))
            }
        }
        struct WrongPropertySink: VideoSink {
            func makeOutput() throws(MediaError) -> VideoOutput {
                .element(ElementDescription(factory: "fakesink", properties: ["sync": "maybe"]))
            }
        }
        let registry = VideoSinkRegistry(builtIns: false)
        let counting = CountingSink()
        try registry.register("counting", summary: "test", capabilities: .external) { _ in counting }
        let clip = try await TestMedia.url(for: TestMedia.bars)
        let player = MoviePlayer(source: FileSource(url: clip), videoSink: try registry.makeSink(named: "counting"))
        let recorder = EventRecorder(player)
        try await player.play()
        let (reason, error) = try await recorder.waitForFinish()
        #expect(reason == .playbackEnded && error == nil)
        #expect(counting.count.withLock { $0 } == 60)  // every frame of the 2-second clip

        let missing = MoviePlayer(source: FileSource(url: clip), videoSink: MissingElementSink())
        await #expect(throws: MediaError.self) { try await missing.prepareToPlay() }
        #expect(missing.error?.code == .missingPlugin)
        #expect(missing.error?.message.contains("glimagesink-nope") == true)

        let wrong = MoviePlayer(source: FileSource(url: clip), videoSink: WrongPropertySink())
        await #expect(throws: MediaError.self) { try await wrong.prepareToPlay() }
        #expect(wrong.error?.code == .invalidProperty)
        #expect(wrong.error?.message.contains("'sync'") == true)
    }

    @Test("a bin description works as a sink")
    func binSink() async throws {
        struct BinSink: VideoSink {
            func makeOutput() throws(MediaError) -> VideoOutput { .element(.bin("videoconvert ! fakesink sync=false")) }
        }
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.bars)), videoSink: BinSink())
        try await player.prepareToPlay()
        #expect(player.readyForDisplay)
    }

    @Test("plugins load only from an absolute folder that exists; a file that is not a library is refused, not loaded")
    func pluginFolders() throws {
        let registry = VideoSinkRegistry(builtIns: false)
        #expect { try registry.loadPlugins(from: URL(string: "plugins")!) } throws: {
            ($0 as? MediaError)?.code == .invalidArgument
        }
        #expect { try registry.loadPlugins(from: URL(fileURLWithPath: "/nonexistent/plugins")) } throws: {
            ($0 as? MediaError)?.code == .fileNotFound
        }
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("\u{7F}ELF but not really".utf8).write(to: folder.appendingPathComponent("libfake.so"))
        try Data("ignored: not .so".utf8).write(to: folder.appendingPathComponent("README"))
        let reports = try registry.loadPlugins(from: folder)
        #expect(reports.count == 1 && reports[0].file.lastPathComponent == "libfake.so")
        #expect(reports[0].error?.code == .invalidArgument && reports[0].sinks.isEmpty)
        #expect(registry.all.isEmpty)
    }
}
