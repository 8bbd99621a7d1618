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
        .library(name: "gstmediaengine", type: .dynamic, targets: ["CMediaEngineElements", "CLibavDecoder"]),
        .executable(name: "mediaprobe", targets: ["mediaprobe"]),
        .executable(name: "mediaplay", targets: ["mediaplay"]),
        .executable(name: "preroll", targets: ["preroll"]),
        .executable(name: "engine-bench", targets: ["engine-bench"]),
        .executable(name: "mediawall", targets: ["mediawall"]),
    ],
    targets: [
        .systemLibrary(
            name: "CGStreamer",
            pkgConfig: pkgConfigFile(of: "CGStreamer", else: "gstreamer-pbutils-1.0"),
            providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]
        ),
        .systemLibrary(name: "CYUV", providers: [.apt(["libyuv-dev"])]),
        .systemLibrary(name: "CAVCodec", pkgConfig: "libavcodec", providers: [.apt(["libavcodec-dev"])]),
        .systemLibrary(name: "CX11", pkgConfig: "x11", providers: [.apt(["libx11-dev"])]),
        .systemLibrary(
            name: "CPangoCairo", pkgConfig: pkgConfigFile(of: "CPangoCairo", else: "pangocairo"),
            providers: [.apt(["libpango1.0-dev", "libcairo2-dev"])]),
        // The engine's C, by role (elements, workarounds, glue; feature C beside its feature), every module
        // prefixed CMediaEngine so that it cannot clash in an app's package graph. Glue: the wrappers Swift
        // cannot express (GType constants, GObject macros, typed signals, buffer accessors, thread
        // names, the bus messages' names and field keys, and the points where the window system, the
        // text renderer and the decoders install themselves), a header per concern. libyuv's tables
        // are C globals read through it: named for the C-only plugin product (no autolinking there).
        .target(
            name: "CMediaEngineGlue", dependencies: ["CGStreamer", "CYUV"], linkerSettings: [.linkedLibrary("yuv")]),
        // The engine's GStreamer elements (mescaler, meframeselect, mebackdrop, meoutputbin), one file
        // each, registered in the engine's process and, with the libav decoders, the loadable plugin.
        .target(name: "CMediaEngineElements", dependencies: ["CGStreamer", "CMediaEngineGlue"]),
        // One file per GStreamer bug the engine works around, each switched on by the running
        // GStreamer's version through the registry (me_workarounds.h; MEDIA_ENGINE_WORKAROUNDS).
        .target(name: "CMediaEngineWorkarounds", dependencies: ["CGStreamer", "CMediaEngineGlue"]),
        // The pad probes and watches a player installs that are not workarounds: first frame, output
        // swap, orientation, volume ramps (GStreamer's controller library), bytes received, stream
        // types, captions, pointer, decoder preference, tracks, stream groups, buffering elements.
        .target(
            name: "CMediaEnginePipeline",
            dependencies: ["CGStreamer", "CMediaEngineGlue", "CMediaEngineElements", "CMediaEngineWorkarounds"],
            linkerSettings: [.linkedLibrary("gstcontroller-1.0")]),
        // Feature C beside its feature: thumbnail pipelines, pictures decoded and encoded, ID3 tags.
        .target(
            name: "CMediaEngineThumbnails",
            dependencies: ["CGStreamer", "CMediaEngineGlue", "CMediaEnginePipeline", "CMediaEngineWorkarounds"]),
        .target(name: "CMediaEngineImages", dependencies: ["CGStreamer", "CMediaEnginePipeline"]),
        .target(
            name: "CMediaEngineTimedMetadata",
            dependencies: ["CGStreamer", "CMediaEngineGlue", "CMediaEngineWorkarounds"]),
        // ThreadSanitizer's view of GLib's locks (`make tsan`): compiled empty unless the build is
        // instrumented for TSan (`--sanitize=thread`), linked into everything that links the core.
        .target(name: "CMediaEngineTSan", dependencies: ["CGStreamer"]),
        // The engine's X11 windows and X error handling: the only target that links libX11.
        .target(
            name: "CX11Window", dependencies: ["CMediaEngineGlue", "CX11"], linkerSettings: [.linkedLibrary("X11")]),
        // Text to pixels with Pango and cairo: the only target that links them.
        .target(name: "CTextRender", dependencies: ["CMediaEngineGlue", "CPangoCairo"]),
        // The engine's libav decoders (meh264dec, meh265dec): the only target that links libavcodec.
        // The decoder calls libavutil (frames, errors) as well.
        .target(
            name: "CLibavDecoder", dependencies: ["CMediaEngineElements", "CMediaEngineGlue", "CAVCodec"],
            linkerSettings: [.linkedLibrary("avcodec"), .linkedLibrary("avutil")]),
        .systemLibrary(
            name: "CGIO", pkgConfig: pkgConfigFile(of: "CGIO", else: "gio-2.0"),
            providers: [.apt(["libglib2.0-dev", "glib-networking"])]),
        // Why an HTTP connection failed (souphttpsrc does not say), with libsoup's own stack.
        .target(name: "CNetworkProbe", dependencies: ["CGIO"]),
        // GStreamer's network library (GstNetTimeProvider, GstNetClientClock): a playback group's
        // clock. CMediaEngineNetClock is the only target that links it, for PlaybackSync alone.
        .systemLibrary(
            name: "CGStreamerNet", pkgConfig: pkgConfigFile(of: "CGStreamerNet", else: "gstreamer-net-1.0"),
            providers: [.apt(["libgstreamer1.0-dev"])]),
        .target(name: "CMediaEngineNetClock", dependencies: ["CGStreamerNet"]),
        // The core: player, sources, sinks protocol and registry, frames, overlays. GStreamer only.
        .target(
            name: "MediaEngineCore",
            dependencies: [
                "CGStreamer", "CYUV", "CMediaEngineGlue", "CMediaEngineElements", "CMediaEngineWorkarounds",
                "CMediaEnginePipeline", "CMediaEngineThumbnails", "CMediaEngineImages", "CMediaEngineTimedMetadata",
                "CMediaEngineTSan",
            ]),
        // The umbrella: the core re-exported, with the window system, text renderer and decoders
        // linked in (each installs itself into the core when linked).
        .target(name: "MediaEngine", dependencies: ["MediaEngineCore", "CX11Window", "CTextRender", "CLibavDecoder"]),
        // Playback synchronised across machines: the group (its clock, published or followed
        // over the network, its commands in order, members joining late), on the core's players,
        // whose machine decides how each follows the group; the default transport (TCP).
        .target(name: "PlaybackSync", dependencies: ["MediaEngineCore", "CMediaEngineNetClock"]),
        // Hostile XML (VAST answers, DASH manifests) read with libxml2 called directly: no network, no
        // DTD (so no entities), bounded size, depth and node count (CMediaEngineXML, me_xml_parse.h),
        // into a Swift value tree (MediaEngineXML). Only the two sources that read XML link libxml2;
        // the core does not.
        .systemLibrary(name: "CMediaEngineLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .target(
            name: "CMediaEngineXML", dependencies: ["CMediaEngineLibXML2"], linkerSettings: [.linkedLibrary("xml2")]),
        .target(name: "MediaEngineXML", dependencies: ["CMediaEngineXML"]),
        // Each source registers itself in the core's source registry when linked, from a C
        // constructor (a Swift library has no static initializers).
        .target(name: "CFileSourceInstall"),
        .target(name: "FileSource", dependencies: ["MediaEngineCore", "CFileSourceInstall"]),
        .target(name: "CHTTPStreamSourceInstall"),
        .target(
            name: "HTTPStreamSource",
            dependencies: ["MediaEngineCore", "MediaEngineXML", "CNetworkProbe", "CHTTPStreamSourceInstall"]),
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
        // `make docs`: lists the public symbols without a doc comment in the compiler's symbol graphs
        // (Foundation only, so it builds in seconds, before the documented modules).
        .executableTarget(name: "doc-check", path: "Tools/doc-check"),
        // Fuzzing (`make fuzz`): one executable per parser, a libFuzzer target when built with
        // `-sanitize=fuzzer,address -DFUZZING`, otherwise a replayer of the files it is given.
        .target(name: "CFuzzerDriver", path: "Fuzz/CFuzzerDriver"),
        .target(
            name: "ParserFuzzing",
            dependencies: ["MediaEngineCore", "FileSource", "HTTPStreamSource", "PrerollAdSource", "CFuzzerDriver"],
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
        .testTarget(name: "DocCheckTests", dependencies: ["doc-check"]),
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
