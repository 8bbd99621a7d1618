import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The contract between the engine and a video-sink plugin loaded at run time
/// (``VideoSinkRegistry/loadPlugins(from:)``): a shared library built against this engine's
/// `MediaEngineCore` module, whose engine symbols the host process provides (the host is linked
/// with `--export-dynamic`, as `mediaplay` is), and which exports two C functions:
///
/// ```swift
/// import MediaEngineCore
///
/// @_cdecl("media_engine_sink_plugin_abi_version")
/// public func abiVersion() -> Int32 { VideoSinkPluginABI.version }   // inlined: the version built against
///
/// @_cdecl("media_engine_sink_plugin_register")
/// public func register(_ handle: Int) -> Int32 {
///     VideoSinkPluginABI.register(handle) { registry throws(MediaError) in
///         try registry.register("barcode", summary: "...") { options throws(MediaError) in BarcodeSink(options) }
///     }
/// }
/// ```
///
/// The engine asks the version first and refuses a plugin built for another one before running
/// any of its code; then it calls the register function once, with a handle to the registry.
public enum VideoSinkPluginABI {
    /// The plugin contract's version. `@inlinable`: a plugin that returns it from its version
    /// function returns the version it was compiled against, which the loading engine compares
    /// with its own.
    ///
    /// 2: `VideoSink` declares its capabilities on the type (`static var capabilities`) and the
    /// elements it needs (`requiredElements`), and `VideoSinkRegistry.register` reads them from the
    /// type; a sink compiled for 1 has another layout of the protocol's requirements, which the
    /// engine would misread.
    ///
    /// 3: the engine's types moved from the `MediaEngine` module to `MediaEngineCore` (the
    /// `MediaEngine` product re-exports it), so their symbols have other names.
    @inlinable public static var version: Int32 { 3 }
    /// The C name of the plugin's version function: `Int32 (void)`.
    public static let versionSymbol = "media_engine_sink_plugin_abi_version"
    /// The C name of the plugin's register function: `Int32 (Int)`, 0 when it registered its sinks.
    public static let registerSymbol = "media_engine_sink_plugin_register"

    /// The register function's body: looks up the registry the engine is loading into and runs
    /// `body` on it. Returns the value the register function returns: 0, or 1 after an error
    /// (which the engine reports as the plugin's refusal).
    /// - Parameters:
    ///   - handle: The handle the engine passed to the register function.
    ///   - body: Registers the plugin's sinks.
    /// - Returns: 0 on success, 1 otherwise.
    public static func register(_ handle: Int, _ body: (VideoSinkRegistry) throws(MediaError) -> Void) -> Int32 {
        guard let loading = PluginLoading.current.withLock({ $0?.handle == handle ? $0 : nil }) else { return 1 }
        do throws(MediaError) {
            try body(loading.registry)
            return 0
        } catch {
            PluginLoading.current.withLock { $0?.error = error }
            return 1
        }
    }
}

/// What became of one file in a plugin folder.
public struct VideoSinkPluginReport: Sendable, CustomStringConvertible {
    /// The file.
    public let file: URL
    /// The sinks it registered (empty when refused).
    public let sinks: [String]
    /// Why it was refused, or nil when it was loaded.
    public let error: MediaError?

    /// `libbarcode-sink.so: loaded (barcode)` or `libx.so: refused: ...`.
    public var description: String {
        if let error { return "\(file.lastPathComponent): refused: \(error.message)" }
        return "\(file.lastPathComponent): loaded (\(sinks.joined(separator: ", ")))"
    }
}

/// The registry a plugin's register function is running for (one load at a time).
private struct PluginLoading {
    let handle: Int
    let registry: VideoSinkRegistry
    var error: MediaError?

    static let current = Locked<PluginLoading?>(nil)
    /// Held for a whole load, so loads in several threads take turns.
    static let turn = Locked(0)
}

extension VideoSinkRegistry {
    /// Loads every sink plugin (`*.so`) in `folder` and registers its sinks here. Files are
    /// tried in name order; each is loaded or refused with a reason, never crashing the host:
    /// not a shared library, no plugin entry points, built for another plugin ABI
    /// (``VideoSinkPluginABI/version``), or its register function failed. Every library opened
    /// stays open for the life of the process: a loaded plugin's code runs the sinks it
    /// registered, and the Swift runtime keeps pointers into any Swift library it has seen.
    ///
    /// Nothing is loaded from the current folder implicitly: `folder` must be an absolute path.
    /// - Parameter folder: The folder of plugins.
    /// - Returns: One report per file.
    /// - Throws: ``MediaError/Code/invalidArgument`` for a relative path, ``MediaError/Code/fileNotFound``
    ///   for a folder that does not exist or cannot be read.
    public func loadPlugins(from folder: URL) throws(MediaError) -> [VideoSinkPluginReport] {
        let path = folder.path
        guard folder.isFileURL, path.hasPrefix("/") else {
            throw MediaError(.invalidArgument, "a plugin folder must be an absolute path, not '\(path)'")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw MediaError(.fileNotFound, "cannot read the plugin folder \(path): \(error.localizedDescription)")
        }
        return names.filter { $0.hasSuffix(".so") }.sorted().map { loadPlugin(folder.appendingPathComponent($0)) }
    }

    /// Loads one plugin file (see ``loadPlugins(from:)``).
    private func loadPlugin(_ file: URL) -> VideoSinkPluginReport {
        func refused(_ message: String) -> VideoSinkPluginReport {
            VideoSinkPluginReport(file: file, sinks: [], error: MediaError(.invalidArgument, message))
        }
        guard let library = dlopen(file.path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown"
            return refused("not a shared library the engine can load (\(reason))")
        }
        // A library once opened stays open, refused or not: opening a Swift library registers its
        // types and conformances with the Swift runtime, which keeps pointers into it; closing it
        // would leave them dangling (a later generic type lookup crashed, seen in the tests).
        guard let versionSymbol = dlsym(library, VideoSinkPluginABI.versionSymbol),
            let registerSymbol = dlsym(library, VideoSinkPluginABI.registerSymbol)
        else {
            return refused(
                "not a sink plugin: no \(VideoSinkPluginABI.versionSymbol) and \(VideoSinkPluginABI.registerSymbol)")
        }
        typealias VersionFunction = @convention(c) () -> Int32
        typealias RegisterFunction = @convention(c) (Int) -> Int32
        let version = unsafeBitCast(versionSymbol, to: VersionFunction.self)()
        guard version == VideoSinkPluginABI.version else {
            return refused(
                "built for sink plugin ABI \(version); this engine loads ABI \(VideoSinkPluginABI.version) (rebuild it)"
            )
        }
        let register = unsafeBitCast(registerSymbol, to: RegisterFunction.self)
        return PluginLoading.turn.withLock { turn in
            turn += 1
            let before = Set(all.map(\.name))
            PluginLoading.current.withLock { $0 = PluginLoading(handle: turn, registry: self) }
            let status = register(turn)
            let failure = PluginLoading.current.withLock { loading in
                defer { loading = nil }
                return loading?.error
            }
            let added = all.map(\.name).filter { !before.contains($0) }
            guard status == 0 else {
                // The library stays loaded: sinks it registered before failing run its code.
                let reason = failure?.message ?? "its register function returned \(status)"
                return VideoSinkPluginReport(
                    file: file, sinks: added,
                    error: MediaError(.invalidArgument, "its sinks were not registered: \(reason)"))
            }
            return VideoSinkPluginReport(file: file, sinks: added, error: nil)
        }
    }
}
