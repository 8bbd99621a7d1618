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
        #expect(registry.entry(named: "null")?.capabilities == [])
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

    @Test("each sink's listed capabilities are the ones of the sink it makes, read from its type")
    func listedCapabilitiesAreTheSinks() throws {
        let registry = VideoSinkRegistry(environment: ["DISPLAY": ":5"])
        let options = [
            "images": ["folder": FileManager.default.temporaryDirectory.path], "window": ["display": ":5"],
        ]
        for entry in registry.all {
            let sink = try registry.makeSink(named: entry.name, options: options[entry.name] ?? [:])
            #expect(ObjectIdentifier(type(of: sink)) == ObjectIdentifier(entry.sinkType), "\(entry.name)")
            #expect(entry.capabilities == sink.capabilities, "\(entry.name)")
            #expect(entry.capabilities == type(of: sink).capabilities, "\(entry.name)")
        }
        // A sink of the app's own: what it declares is what the registry lists.
        try registry.register("recorder", summary: "test") { _ in Recorder() }
        #expect(registry.entry(named: "recorder")?.capabilities == [.frames, .external])
        #expect(try registry.makeSink(named: "recorder").capabilities == [.frames, .external])
    }

    /// Declares its capabilities once, on its type.
    struct Recorder: VideoSink {
        static var capabilities: VideoSinkCapabilities { [.frames, .external] }
        func makeOutput() throws(MediaError) -> VideoOutput { .frames(FrameConsumer { _ in }) }
    }

    /// Registers with the deprecated form, capabilities given again (deprecated too, so that the
    /// call does not warn).
    @available(*, deprecated)
    static func registerTwice(
        _ registry: VideoSinkRegistry, _ name: String, _ capabilities: VideoSinkCapabilities
    ) throws(MediaError) {
        try registry.register(name, summary: "test", capabilities: capabilities) { _ in Recorder() }
    }

    @Test("capabilities given at registration as well must be the sink type's, or the registration is refused")
    @available(*, deprecated)
    func capabilitiesGivenTwice() throws {
        let registry = VideoSinkRegistry(builtIns: false)
        try Self.registerTwice(registry, "agrees", [.frames, .external])
        #expect(registry.entry(named: "agrees")?.capabilities == [.frames, .external])
        let error = try #require(throws: MediaError.self) { try Self.registerTwice(registry, "window-ish", .window) }
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("'window'") && error.message.contains("'frames, external'"), "\(error.message)")
        #expect(registry.entry(named: "window-ish") == nil)
    }

    /// Says it needs an element that no GStreamer has, and counts the outputs it is asked for.
    final class MissingElementCounter: VideoSink {
        static var capabilities: VideoSinkCapabilities { [] }
        let outputs = Locked(0)
        var requiredElements: [String] { ["videoconvert", "glimagesink-missing"] }
        func makeOutput() throws(MediaError) -> VideoOutput {
            outputs.withLock { $0 += 1 }
            return .element(.bin("videoconvert ! glimagesink-missing"))
        }
    }

    @Test("makeSink checks the sink's elements in GStreamer's registry and builds nothing")
    func makeSinkBuildsNothing() throws {
        let registry = VideoSinkRegistry(builtIns: false)
        let missing = MissingElementCounter()
        try registry.register("missing", summary: "test") { _ in missing }
        let error = try #require(throws: MediaError.self) { try registry.makeSink(named: "missing") }
        #expect(error.code == .missingPlugin && error.element == "glimagesink-missing")
        #expect(error.message.contains("no element 'glimagesink-missing'"), "\(error.message)")
        #expect(missing.outputs.withLock { $0 } == 0)
        // The same check, for a sink made in code.
        let direct = try #require(throws: MediaError.self) { try MissingElementCounter().checkRequiredElements() }
        #expect(direct.code == .missingPlugin && direct.element == "glimagesink-missing")
        // A sink whose elements are there is made without its output being made.
        let present = MissingElementCounter()
        struct Present: VideoSink {
            static var capabilities: VideoSinkCapabilities { [] }
            let counter: MissingElementCounter
            var requiredElements: [String] { ["fakesink", "videoconvert"] }
            func makeOutput() throws(MediaError) -> VideoOutput { try counter.makeOutput() }
        }
        try registry.register("present", summary: "test") { _ in Present(counter: present) }
        #expect(try registry.makeSink(named: "present") is Present)
        #expect(present.outputs.withLock { $0 } == 0)
    }

    @Test("making a built-in sink builds no output: the images sink's folder and the window's display are checked")
    func builtInsBuildNothing() throws {
        let registry = VideoSinkRegistry(environment: [:])
        let folder = try TestMedia.scratchDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let images = try registry.makeSink(named: "images", options: ["folder": folder.path, "format": "jpeg"])
        #expect(images.requiredElements == ["meframeselect", "videoconvert", "jpegenc", "multifilesink"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect { try registry.makeSink(named: "images", options: ["folder": folder.path + "/not-there"]) } throws: {
            ($0 as? MediaError)?.code == .invalidArgument
        }
        #expect(try registry.makeSink(named: "null").requiredElements == ["fakesink"])
        #expect(try registry.makeSink(named: "frames").requiredElements.isEmpty)
        #expect(try registry.makeSink(named: "window", options: ["display": ":5"]).requiredElements == ["ximagesink"])
        let environment = ProcessInfo.processInfo.environment
        if (environment["DISPLAY"] ?? "").isEmpty && (environment["WAYLAND_DISPLAY"] ?? "").isEmpty {
            #expect { try registry.makeSink(named: "window") } throws: {
                ($0 as? MediaError)?.code == .unsupportedOperation
            }
        }
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
        // (Declared outside the factory: a factory returning a type declared inside itself crashes
        // Swift 6.3.1's compiler, whose mangling of the closure and the type recurse into each other.)
        struct GLSink: VideoSink {
            static var capabilities: VideoSinkCapabilities { [] }
            var requiredElements: [String] { ["glimagesink-missing"] }
            func makeOutput() throws(MediaError) -> VideoOutput {
                .element(ElementDescription(factory: "glimagesink-missing"))
            }
        }
        try registry.register("gl", summary: "needs gstreamer1.0-gl") { _ in GLSink() }
        #expect { try registry.makeSink(named: "gl") } throws: { ($0 as? MediaError)?.code == .missingPlugin }
    }

    @Test("a plugin's sink registers and plays; an element that does not exist names its package")
    func pluginSink() async throws {
        /// Counts the frames it is given, written as a plugin would: public API only.
        final class CountingSink: VideoSink {
            static var capabilities: VideoSinkCapabilities { .external }
            let count = Locked(0)
            func makeOutput() throws(MediaError) -> VideoOutput {
                .frames(FrameConsumer(synchronized: false) { [self] _ in count.withLock { $0 += 1 } })
            }
        }
        struct MissingElementSink: VideoSink {
            static var capabilities: VideoSinkCapabilities { [] }
            func makeOutput() throws(MediaError) -> VideoOutput {
                .element(ElementDescription(factory: "glimagesink-nope"))
            }
        }
        struct WrongPropertySink: VideoSink {
            static var capabilities: VideoSinkCapabilities { [] }
            func makeOutput() throws(MediaError) -> VideoOutput {
                .element(ElementDescription(factory: "fakesink", properties: ["sync": "maybe"]))
            }
        }
        let registry = VideoSinkRegistry(builtIns: false)
        let counting = CountingSink()
        try registry.register("counting", summary: "test") { _ in counting }
        #expect(registry.entry(named: "counting")?.capabilities == .external)
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
            static var capabilities: VideoSinkCapabilities { [] }
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
