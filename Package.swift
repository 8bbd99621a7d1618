// swift-tools-version: 6.1
import PackageDescription

/// The pkg-config file beside a system library's module map (`Sources/<target>/<target>.pc`), named
/// by its path (SwiftPM reads a `pkgConfig` that is a path as that file). GStreamer's, GIO's and
/// Pango's own .pc files require GLib's gmodule-no-export-2.0.pc, whose compiler flags include
/// `-pthread`, which SwiftPM refuses: "warning: prohibited flag(s): -pthread" on every build (the
/// flag dropped). Ours give the same include folders and libraries without it, GLib's from GLib's
/// own files. SwiftPM splits `pkgConfig` at spaces, so a checkout whose path has one uses
/// `system`, the library's own .pc files, and their warning.
func pkgConfigFile(of target: String, else system: String) -> String {
    let path = "\(Context.packageDirectory)/Sources/\(target)/\(target).pc"
    return path.contains(" ") ? system : path
}

let package = Package(
    name: "swift-media-engine",
    products: [
        // Everything: the core, the X11 window sink's windows, text overlays (Pango), the engine's
        // libav decoders. What an app normally depends on.
        .library(name: "MediaEngine", targets: ["MediaEngine"]),
        // The core alone, on GStreamer (and libyuv) only: no X11, Pango or libavcodec linked; for
        // headless apps that want frames (see the README's "Linking only the core").
        .library(name: "MediaEngineCore", targets: ["MediaEngineCore"]),
        .library(name: "FileSource", targets: ["FileSource"]),
        .library(name: "HTTPStreamSource", targets: ["HTTPStreamSource"]),
        .library(name: "PrerollAdSource", targets: ["PrerollAdSource"]),
        .library(name: "TerminalVideoSink", targets: ["TerminalVideoSink"]),
        .library(name: "NetworkVideoSink", targets: ["NetworkVideoSink"]),
        .library(name: "MediaEngineTesting", targets: ["MediaEngineTesting"]),
        // Playback synchronised across machines: a group's clock over the network (libgstnet),
        // its commands and their transport.
        .library(name: "PlaybackSync", targets: ["PlaybackSync"]),
        // The engine's GStreamer elements as a loadable plugin (libgstmediaengine.so), for gst-launch-1.0
        // and gst-inspect-1.0: the elements' target (GST_PLUGIN_DEFINE in its plugin.c) with the libav
        // decoders, which install themselves into its registration.
        .library(
            name: "gstmediaengine", type: .dynamic, targets: ["CMediaEngineElements", "CMediaEngineLibavDecoder"]),
        // Two tools for people who use the engine, runnable from a package that depends on this one
        // (`swift run mediaprobe MOVIE`): what the engine makes of a movie, and a player that tries
        // every sink and hosts sink plugins loaded at run time (`mediaplay --plugin-dir`). The other
        // executables (the examples, engine-bench, the checks and fuzzers the tests run) are targets
        // only: an app has no use for them, and `swift build --product NAME` or `swift run NAME`
        // builds them in a checkout of this package all the same.
        .executable(name: "mediaprobe", targets: ["mediaprobe"]),
        .executable(name: "mediaplay", targets: ["mediaplay"]),
    ],
    targets: [
        .systemLibrary(
            name: "CMediaEngineCGStreamer",
            pkgConfig: pkgConfigFile(of: "CMediaEngineCGStreamer", else: "gstreamer-pbutils-1.0"),
            providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]
        ),
        .systemLibrary(name: "CMediaEngineCYUV", providers: [.apt(["libyuv-dev"])]),
        .systemLibrary(name: "CMediaEngineCAVCodec", pkgConfig: "libavcodec", providers: [.apt(["libavcodec-dev"])]),
        .systemLibrary(name: "CMediaEngineCX11", pkgConfig: "x11", providers: [.apt(["libx11-dev"])]),
        .systemLibrary(
            name: "CMediaEngineCPangoCairo",
            pkgConfig: pkgConfigFile(of: "CMediaEngineCPangoCairo", else: "pangocairo"),
            providers: [.apt(["libpango1.0-dev", "libcairo2-dev"])]),
        // The engine's C, by role (elements, workarounds, glue; feature C beside its feature), every module
        // prefixed CMediaEngine so that it cannot clash in an app's package graph (the system libraries
        // above too: a module name is global to the graph, and CGStreamer or CX11 are names another
        // package could well use). A system library is CMediaEngine + its usual module name, so
        // that it sorts before these targets: their headers include GStreamer's and GLib's, and
        // Swift gives those declarations to the first module holding them that it loads, in the
        // order of the modules' names (Architecture.md says more). Glue: the wrappers Swift cannot
        // express (GType constants, GObject macros, typed signals, buffer accessors, thread
        // names, the bus messages' names and field keys, and the points where the window system, the
        // text renderer and the decoders install themselves), a header per concern. libyuv's tables
        // are C globals read through it: named for the C-only plugin product (no autolinking there).
        .target(
            name: "CMediaEngineGlue", dependencies: ["CMediaEngineCGStreamer", "CMediaEngineCYUV"],
            linkerSettings: [.linkedLibrary("yuv")]),
        // The engine's GStreamer elements (mescaler, meframeselect, mebackdrop, meoutputbin), one file
        // each, registered in the engine's process and, with the libav decoders, the loadable plugin.
        .target(name: "CMediaEngineElements", dependencies: ["CMediaEngineCGStreamer", "CMediaEngineGlue"]),
        // One file per GStreamer bug the engine works around, each switched on by the running
        // GStreamer's version through the registry (me_workarounds.h; MEDIA_ENGINE_WORKAROUNDS).
        .target(name: "CMediaEngineWorkarounds", dependencies: ["CMediaEngineCGStreamer", "CMediaEngineGlue"]),
        // The pad probes and watches a player installs that are not workarounds: first frame, output
        // swap, orientation, volume ramps (GStreamer's controller library), bytes received, stream
        // types, captions, pointer, decoder preference, tracks, stream groups, buffering elements.
        .target(
            name: "CMediaEnginePipeline",
            dependencies: [
                "CMediaEngineCGStreamer", "CMediaEngineGlue", "CMediaEngineElements", "CMediaEngineWorkarounds",
            ],
            linkerSettings: [.linkedLibrary("gstcontroller-1.0")]),
        // Feature C beside its feature: thumbnail pipelines, pictures decoded and encoded, ID3 tags.
        .target(
            name: "CMediaEngineThumbnails",
            dependencies: [
                "CMediaEngineCGStreamer", "CMediaEngineGlue", "CMediaEnginePipeline", "CMediaEngineWorkarounds",
            ]),
        .target(name: "CMediaEngineImages", dependencies: ["CMediaEngineCGStreamer", "CMediaEnginePipeline"]),
        .target(
            name: "CMediaEngineTimedMetadata",
            dependencies: ["CMediaEngineCGStreamer", "CMediaEngineGlue", "CMediaEngineWorkarounds"]),
        // ThreadSanitizer's view of GLib's locks (`make tsan`): compiled empty unless the build is
        // instrumented for TSan (`--sanitize=thread`), linked into everything that links the core.
        .target(name: "CMediaEngineTSan", dependencies: ["CMediaEngineCGStreamer"]),
        // The engine's X11 windows and X error handling: the only target that links libX11.
        .target(
            name: "CMediaEngineX11Window", dependencies: ["CMediaEngineGlue", "CMediaEngineCX11"],
            linkerSettings: [.linkedLibrary("X11")]),
        // Text to pixels with Pango and cairo: the only target that links them.
        .target(name: "CMediaEngineTextRender", dependencies: ["CMediaEngineGlue", "CMediaEngineCPangoCairo"]),
        // The engine's libav decoders (meh264dec, meh265dec): the only target that links libavcodec.
        // The decoder calls libavutil (frames, errors) as well.
        .target(
            name: "CMediaEngineLibavDecoder",
            dependencies: ["CMediaEngineElements", "CMediaEngineGlue", "CMediaEngineCAVCodec"],
            linkerSettings: [.linkedLibrary("avcodec"), .linkedLibrary("avutil")]),
        .systemLibrary(
            name: "CMediaEngineCGIO", pkgConfig: pkgConfigFile(of: "CMediaEngineCGIO", else: "gio-2.0"),
            providers: [.apt(["libglib2.0-dev", "glib-networking"])]),
        // Why an HTTP connection failed (souphttpsrc does not say), with libsoup's own stack.
        .target(name: "CMediaEngineNetworkProbe", dependencies: ["CMediaEngineCGIO"]),
        // GStreamer's network library (GstNetTimeProvider, GstNetClientClock): a playback group's
        // clock. CMediaEngineNetClock is the only target that links it, for PlaybackSync alone.
        .systemLibrary(
            name: "CMediaEngineCGStreamerNet",
            pkgConfig: pkgConfigFile(of: "CMediaEngineCGStreamerNet", else: "gstreamer-net-1.0"),
            providers: [.apt(["libgstreamer1.0-dev"])]),
        .target(name: "CMediaEngineNetClock", dependencies: ["CMediaEngineCGStreamerNet"]),
        // The core: player, sources, sinks protocol and registry, frames, overlays. GStreamer only.
        .target(
            name: "MediaEngineCore",
            dependencies: [
                "CMediaEngineCGStreamer", "CMediaEngineCYUV", "CMediaEngineGlue", "CMediaEngineElements",
                "CMediaEngineWorkarounds", "CMediaEnginePipeline", "CMediaEngineThumbnails", "CMediaEngineImages",
                "CMediaEngineTimedMetadata", "CMediaEngineTSan",
            ]),
        // The umbrella: the core re-exported, with the window system, text renderer and decoders
        // linked in (each installs itself into the core when linked).
        .target(
            name: "MediaEngine",
            dependencies: [
                "MediaEngineCore", "CMediaEngineX11Window", "CMediaEngineTextRender", "CMediaEngineLibavDecoder",
            ]),
        // Playback synchronised across machines: the group (its clock, published or followed
        // over the network, its commands in order, members joining late), on the core's players,
        // whose machine decides how each follows the group; the default transport (TCP).
        .target(name: "PlaybackSync", dependencies: ["MediaEngineCore", "CMediaEngineNetClock"]),
        // Hostile XML (VAST answers, DASH manifests) read with libxml2 called directly: no network, no
        // DTD (so no entities), bounded size, depth and node count (CMediaEngineXML, me_xml_parse.h),
        // into a Swift value tree (MediaEngineXML). Only the two sources that read XML link libxml2;
        // the core does not.
        .systemLibrary(name: "CMediaEngineCLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .target(
            name: "CMediaEngineXML", dependencies: ["CMediaEngineCLibXML2"], linkerSettings: [.linkedLibrary("xml2")]),
        .target(name: "MediaEngineXML", dependencies: ["CMediaEngineXML"]),
        // Each source registers itself in the core's source registry when linked, from a C
        // constructor (a Swift library has no static initializers).
        .target(name: "CMediaEngineFileSourceInstall"),
        .target(name: "FileSource", dependencies: ["MediaEngineCore", "CMediaEngineFileSourceInstall"]),
        .target(name: "CMediaEngineHTTPStreamSourceInstall"),
        .target(
            name: "HTTPStreamSource",
            dependencies: [
                "MediaEngineCore", "MediaEngineXML", "CMediaEngineNetworkProbe", "CMediaEngineHTTPStreamSourceInstall",
            ]),
        // VAST ads before the movie: fetch, parse (MediaEngineXML), tracking beacons, frequency cap.
        .target(name: "PrerollAdSource", dependencies: ["MediaEngineCore", "MediaEngineXML"]),
        // Video in a terminal with 24-bit colour half blocks: a plugin on MediaEngine's public API only.
        .target(name: "TerminalVideoSink", dependencies: ["MediaEngineCore"], path: "Plugins/TerminalVideoSink"),
        // Video to another machine (RTP, SRT, HLS): a plugin written against MediaEngine's public API only.
        .target(name: "NetworkVideoSink", dependencies: ["MediaEngineCore"], path: "Plugins/NetworkVideoSink"),
        // The conformance kit for sink authors: plays a clip into a sink and checks VideoSink's rules.
        .target(name: "MediaEngineTesting", dependencies: ["MediaEngineCore", "FileSource"]),
        .executableTarget(
            name: "mediaprobe", dependencies: ["MediaEngine", "FileSource", "HTTPStreamSource"],
            path: "Examples/mediaprobe",
            exclude: ["README.md"]),
        .executableTarget(
            name: "embed", dependencies: ["MediaEngine", "FileSource"], path: "Examples/embed", exclude: ["README.md"]),
        // mediaplay's keys and progress line: a terminal's bytes read as keys, the line drawn in
        // place, raw mode and signals; a library of its own so that its pure parts are unit-tested.
        .target(name: "MediaplayConsole", dependencies: ["MediaEngine"], path: "Examples/mediaplay/Console"),
        .executableTarget(
            name: "mediaplay",
            dependencies: [
                "MediaEngine", "FileSource", "HTTPStreamSource", "TerminalVideoSink", "NetworkVideoSink",
                "MediaplayConsole",
            ],
            path: "Examples/mediaplay",
            exclude: ["README.md", "Console"],
            // Sink plugins loaded at run time (--plugin-dir) use the engine's symbols from here.
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"])]),
        .executableTarget(
            name: "overlay-tabs", dependencies: ["MediaEngine", "FileSource"], path: "Examples/overlay-tabs",
            exclude: ["README.md"]),
        .executableTarget(
            name: "preroll", dependencies: ["MediaEngine", "FileSource", "PrerollAdSource"], path: "Examples/preroll",
            exclude: ["README.md"]),
        .executableTarget(
            name: "mediathumbs", dependencies: ["MediaEngine", "FileSource"], path: "Examples/mediathumbs",
            exclude: ["README.md"]),
        .executableTarget(
            name: "mediawall", dependencies: ["MediaEngine", "FileSource", "PlaybackSync", "TerminalVideoSink"],
            path: "Examples/mediawall", exclude: ["README.md"]),
        .executableTarget(
            name: "engine-bench",
            // MediaTestSupport: nginx on loopback for the network benchmark.
            dependencies: ["MediaEngine", "FileSource", "HTTPStreamSource", "PrerollAdSource", "MediaTestSupport"],
            path: "Benchmarks/engine-bench"),
        .executableTarget(
            name: "engine-leak-check", dependencies: ["MediaEngine", "FileSource"], path: "Tests/LeakCheck"),
        // One member of a playback group in a process of its own, for PlaybackSyncTests and
        // `engine-bench --only sync`: leads or follows, takes commands on standard input and
        // prints what its frames showed when, one JSON line each.
        .executableTarget(
            name: "engine-sync-member",
            dependencies: ["MediaEngine", "FileSource", "PlaybackSync", "MediaTestSupport"],
            path: "Tests/SyncMember"),
        // A headless app on the core alone: HeadlessCoreTests checks what it links (no X11, Pango
        // or libavcodec) and that it plays, and refuses windows and text with typed errors.
        .executableTarget(
            name: "engine-headless-check", dependencies: ["MediaEngineCore", "FileSource"],
            path: "Tests/HeadlessCheck"),
        // Each workaround's scenario in a child process (WorkaroundReproductionTests runs it with the
        // workaround forced off and on): several deadlock the process when off.
        .executableTarget(
            name: "engine-workaround-check",
            dependencies: ["MediaEngine", "FileSource", "HTTPStreamSource", "MediaTestSupport"],
            path: "Tests/WorkaroundCheck"),
        // Fuzzing (`make fuzz`): one executable per parser, a libFuzzer target when built with
        // `-sanitize=fuzzer,address -DFUZZING`, otherwise a replayer of the files it is given.
        .target(name: "CMediaEngineFuzzerDriver", path: "Fuzz/CMediaEngineFuzzerDriver"),
        .target(
            name: "ParserFuzzing",
            dependencies: [
                "MediaEngineCore", "FileSource", "HTTPStreamSource", "PrerollAdSource", "CMediaEngineFuzzerDriver",
            ],
            path: "Fuzz/ParserFuzzing"),
        .executableTarget(
            name: "FuzzContainerInspector", dependencies: ["ParserFuzzing"], path: "Fuzz/FuzzContainerInspector"),
        .executableTarget(name: "FuzzSubtitles", dependencies: ["ParserFuzzing"], path: "Fuzz/FuzzSubtitles"),
        .executableTarget(name: "FuzzSinkOptions", dependencies: ["ParserFuzzing"], path: "Fuzz/FuzzSinkOptions"),
        .executableTarget(name: "FuzzVAST", dependencies: ["ParserFuzzing"], path: "Fuzz/FuzzVAST"),
        .executableTarget(name: "FuzzManifests", dependencies: ["ParserFuzzing"], path: "Fuzz/FuzzManifests"),
        .executableTarget(name: "FuzzTimedMetadata", dependencies: ["ParserFuzzing"], path: "Fuzz/FuzzTimedMetadata"),
        .executableTarget(name: "FuzzCaptions", dependencies: ["ParserFuzzing"], path: "Fuzz/FuzzCaptions"),
        // The whole engine on mutated movies, subtitles and pictures, each in a child process
        // (`make fuzz-engine`): the driver and the child are this one executable.
        .executableTarget(
            name: "engine-mutation-fuzz", dependencies: ["MediaEngine", "FileSource"], path: "Fuzz/EngineMutation"),
        .target(name: "MediaTestSupport", dependencies: ["MediaEngine"], path: "Tests/MediaTestSupport"),
        .testTarget(
            name: "MediaEngineTests", dependencies: ["MediaEngine", "FileSource", "MediaTestSupport", "ParserFuzzing"],
            exclude: ["FuzzRegressions/Inputs"]),
        .testTarget(name: "FileSourceTests", dependencies: ["FileSource", "MediaTestSupport"]),
        .testTarget(name: "MediaEngineXMLTests", dependencies: ["MediaEngineXML"]),
        .testTarget(
            name: "HTTPStreamSourceTests", dependencies: ["HTTPStreamSource", "MediaTestSupport", "ParserFuzzing"],
            exclude: ["FuzzRegressions/Inputs"]),
        .testTarget(
            name: "PrerollAdSourceTests", dependencies: ["PrerollAdSource", "MediaTestSupport", "ParserFuzzing"],
            exclude: ["FuzzRegressions/Inputs"]),
        .testTarget(name: "ExamplesTests", dependencies: ["MediaTestSupport"]),
        // Each workaround's bug with the workaround off, and fixed with it on (engine-workaround-check).
        .testTarget(
            name: "WorkaroundReproductionTests", dependencies: ["MediaTestSupport", "engine-workaround-check"]),
        // Playback groups: the wire format and the ledger, then real processes on loopback
        // (engine-sync-member), real UDP and TCP, real frames.
        .testTarget(
            name: "PlaybackSyncTests", dependencies: ["PlaybackSync", "MediaTestSupport", "engine-sync-member"],
            path: "Tests/PlaybackSyncTests"),
        .testTarget(
            name: "MediaplayConsoleTests", dependencies: ["MediaplayConsole"], path: "Tests/MediaplayConsoleTests"),
        .testTarget(
            name: "TerminalVideoSinkTests", dependencies: ["TerminalVideoSink", "MediaTestSupport"],
            path: "Tests/TerminalVideoSinkTests"),
        .testTarget(
            name: "NetworkVideoSinkTests", dependencies: ["NetworkVideoSink", "MediaTestSupport", "FileSource"],
            path: "Tests/NetworkVideoSinkTests"),
        .testTarget(
            name: "SinkConformanceTests",
            dependencies: ["MediaEngineTesting", "TerminalVideoSink", "NetworkVideoSink", "MediaTestSupport"],
            path: "Tests/SinkConformanceTests"),
    ]
)
