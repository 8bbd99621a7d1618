internal import CGStreamer
internal import CMediaEngineGlue
internal import CMediaEnginePipeline
internal import CMediaEngineWorkarounds

/// Applies a source's ``SourceSettings`` to the elements playbin makes for it: the source element
/// (`source-setup`), and, through `element-setup` (every element added anywhere in playbin), the
/// source elements an adaptive demuxer makes for its segments and the demuxer itself.
///
/// GStreamer 1.22's playbin plugs `hlsdemux` and `dashdemux`, not `hlsdemux2`/`dashdemux2`:
/// those need a streams-aware parent (decodebin3) and refuse to start in decodebin, which then
/// falls back to the older elements. Those read each segment with a source element of their own
/// (souphttpsrc in a bin inside the demuxer), made from the segment's URI, so the source's
/// settings (headers, cookies, user agent, credentials, TLS trust, timeout) reach every segment.
///
/// The signal handlers are C functions that run on the thread that makes the element (the
/// thread changing the pipeline's state, or a demuxer's streaming thread).
final class SourceSetup: Sendable {

    /// The settings of the movie being loaded (replaced when the pipeline is reused).
    let settings: Locked<SourceSettings>
    /// The source itself, when it configures its elements further (``SourceElementConfiguring``).
    let configuring: Locked<(any SourceElementConfiguring)?>
    /// The first setting that did not fit, reported by the player as the preparation's error.
    let failure = Locked<MediaError?>(nil)
    /// The bytes the source elements (segments' included) delivered, for the access log.
    let transfer = TransferCounter()

    /// Whether the movie is read over a network: only then are its bytes counted (a local file's
    /// streaming thread is spared the probe).
    private let countsTransfer: Locked<Bool>
    /// Whether the source reads an adaptive stream's manifest (``AdaptiveManifestReading``): only
    /// then is the manifest copied for it.
    private let readsManifest: Locked<Bool>
    /// Whether an adaptive demuxer (HLS, DASH) reads the movie: then the source element reads
    /// only the manifest, and its bytes say nothing about how much of the movie has arrived.
    private let adaptive = Locked(false)

    /// Whether an adaptive demuxer reads the current movie.
    var isAdaptive: Bool { adaptive.withLock { $0 } }

    init(source: any MediaSource) {
        settings = Locked(source.settings)
        configuring = Locked(source as? any SourceElementConfiguring)
        countsTransfer = Locked(source.isNetworkSource)
        readsManifest = Locked(source is any AdaptiveManifestReading)
    }

    /// Another movie in the same pipeline.
    func replace(with source: any MediaSource) {
        settings.withLock { $0 = source.settings }
        configuring.withLock { $0 = source as? any SourceElementConfiguring }
        countsTransfer.withLock { $0 = source.isNetworkSource }
        readsManifest.withLock { $0 = source is any AdaptiveManifestReading }
        adaptive.withLock { $0 = false }
        transfer.reset()
    }

    /// Connects to `playbin`'s signals (or a uridecodebin's: it has `source-setup` only).
    func connect(to playbin: Element) {
        for signal in ["source-setup", "element-setup"]
        where g_signal_lookup(signal, me_object_type(playbin.pointer)) != 0 {
            me_signal_connect_element(
                playbin.pointer, signal,
                { _, element, data in
                    guard let element, let data else { return }
                    Unmanaged<SourceSetup>.fromOpaque(data).takeUnretainedValue().setUp(Element(borrowing: element))
                },
                Unmanaged.passRetained(self).toOpaque(),
                { data, _ in
                    guard let data else { return }
                    Unmanaged<SourceSetup>.fromOpaque(data).release()
                })
        }
    }

    /// Configures an element playbin made: a source gets the source's properties, an adaptive
    /// demuxer the demuxer's and its start bitrate; others are left alone. The source element
    /// comes through both signals and is configured twice, with the same values.
    private func setUp(_ element: Element) {
        let settings = self.settings.withLock { $0 }
        if me_is_uri_source(element.pointer) != 0 {
            if countsTransfer.withLock({ $0 }) { transfer.watch(element) }
            if GStreamerWorkaround.fragmentGate.isActive { me_adaptive_gate_watch_fragment_source(element.pointer) }
            guard apply(settings.properties, to: element) else { return }
            guard let configuring = configuring.withLock({ $0 }) else { return }
            do {
                try configuring.configure(sourceElement: UnsafeMutableRawPointer(element.pointer))
            } catch {
                failure.withLock { $0 = $0 ?? error }
                element.postApplicationMessage(ME_MESSAGE_SOURCE_SETTINGS_FAILED)
            }
        } else if me_is_adaptive_demuxer(element.pointer) != 0 {
            adaptive.withLock { $0 = true }
            // dashdemux does not report its switches; the source reads its manifest instead.
            if element.factoryName == "dashdemux", readsManifest.withLock({ $0 }),
                GStreamerWorkaround.dashManifest.isActive
            {
                me_capture_manifest(element.pointer)
            }
            // decodebin sets the demuxer's connection-speed (to playbin's) after adding it: the
            // demuxer is configured when its manifest starts arriving, before it is read.
            me_on_first_input(
                element.pointer,
                { _, demuxer, data in
                    guard let demuxer, let data else { return }
                    let setup = Unmanaged<SourceSetup>.fromOpaque(data).takeUnretainedValue()
                    setup.configureDemuxer(Element(borrowing: demuxer))
                },
                Unmanaged.passRetained(self).toOpaque(),
                { data in
                    guard let data else { return }
                    Unmanaged<SourceSetup>.fromOpaque(data).release()
                })
        }
    }

    /// An adaptive demuxer's properties, then its start bitrate (which goes back to the
    /// connection speed set here once the stream's first data has left the demuxer).
    private func configureDemuxer(_ demuxer: Element) {
        let settings = self.settings.withLock { $0 }
        _ = apply(settings.demuxerProperties, to: demuxer)
        if let bitrate = settings.startBitrate, GStreamerWorkaround.adaptiveStartBitrate.isActive {
            me_adaptive_start_at(demuxer.pointer, guint(clamping: max(1, bitrate / 1000)))
        }
        fragmentGates.withLock { gates in
            guard !gates.refused, GStreamerWorkaround.fragmentGate.isActive else { return }
            me_adaptive_gate_after_first_fragment(demuxer.pointer)
            gates.mayBeClosed = true
        }
    }

    /// Whether a demuxer may be holding fragments back (not opened since), and whether new gates
    /// are refused (while the pipeline goes down). One lock, so that no gate is made between
    /// opening them all and the state change that needs them open.
    private let fragmentGates = Locked((mayBeClosed: false, refused: false))

    /// Lets every adaptive demuxer of `pipeline` read ahead: once the movie has prerolled on the
    /// first fragment, or preparation has taken long enough (`fragmentgate.c`). With
    /// `refusingNew`, no demuxer gets a gate until ``allowFragmentGates()``: before the pipeline
    /// goes down to READY or NULL, which a demuxer blocked at its gate would never reach.
    func openFragmentGates(in pipeline: Element, refusingNew: Bool = false) {
        fragmentGates.withLock { gates in
            if refusingNew { gates.refused = true }
            guard gates.mayBeClosed else { return }
            gates.mayBeClosed = false
            me_adaptive_open_fragment_gates(pipeline.pointer)
        }
    }

    /// Demuxers get gates again (the pipeline is starting another movie).
    func allowFragmentGates() {
        fragmentGates.withLock { $0.refused = false }
    }

    /// Sets the properties the element has; false (and the failure posted) when one does not fit.
    private func apply(_ properties: [String: PropertyValue], to element: Element) -> Bool {
        for key in properties.keys.sorted() where element.hasProperty(key) {
            do {
                try element.set(key, properties[key]!)
            } catch {
                failure.withLock { $0 = $0 ?? error }
                element.postApplicationMessage(ME_MESSAGE_SOURCE_SETTINGS_FAILED)
                return false
            }
        }
        return true
    }
}
