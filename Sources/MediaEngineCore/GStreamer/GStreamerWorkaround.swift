internal import CMediaEngineCGStreamer
internal import CMediaEngineWorkarounds

/// The engine's workarounds for GStreamer's bugs, as the registry in C decides them
/// (`me_workarounds.h`, one table for all, C and Swift): each is active when the running
/// GStreamer (`gst_version()`) is older than the release that fixed its bug, or always while the
/// bug is unfixed; `MEDIA_ENGINE_WORKAROUNDS=name=on|off,...` (read once) and ``force(_:)``
/// override that. The Swift that installs a workaround asks ``isActive`` where it installs it; when
/// the answer is no, the engine does what it would do without the workaround (the bug shows).
///
/// Each case's C file in `Sources/CMediaEngineWorkarounds`, or the Swift that installs it, names the
/// bug, the versions it affects and how it was found.
package enum GStreamerWorkaround: CaseIterable, Sendable {
    /// `gaplesseos.c`: playbin's gapless switch deadlocks in playsink's stream synchronizer.
    case gaplessEOS
    /// `instantrate.c`: a sink's instant-rate request handled on a streaming thread.
    case instantRateRelay
    /// `upstreamseek.c`: a non-flushing seek sent to the pipeline holds its state locks.
    case upstreamLoopSeek
    /// `sinkflowguard.c`: srtsink's FLUSHING outside a flush stops the stream.
    case sinkFlowGuard
    /// `keyframes.c`: decoders clear DELTA_UNIT on every picture.
    case keyframeFlags
    /// `reloadsources.c`: a reused playbin starts the previous movie's source.
    case reloadSources
    /// `tsdemuxid3.c`: tsdemux before 1.28 hides MPEG-TS ID3 metadata streams.
    case tsdemuxID3
    /// `aacid3.c`: packed AAC's ID3 tag is skipped unread.
    case aacID3
    /// `manifestcapture.c`: dashdemux does not report its switches.
    case dashManifest
    /// `fragmentgate.c`: adaptive demuxers read ahead while the first picture decodes.
    case fragmentGate
    /// `bufferingthresholds.c`: playbin does not expose where buffering starts and ends.
    case bufferingThresholds
    /// `loopcontinuity.c`: each gapless loop starts a frame early.
    case loopRunningTime
    /// `stalleddemuxer.c`: decodebin drops the error of a demuxer that fails while set up.
    case stalledDemuxer
    /// `videometa.c`: appsink does not say it reads GstVideoMeta.
    case appsinkVideoMeta
    /// `adaptivestart.c`: hlsdemux and dashdemux have no start bitrate.
    case adaptiveStartBitrate
    /// `PipelineSession.swift` (playbin's flags): playsink leaks its soft-volume element (fixed in 1.22.3).
    case playsinkVolumeLeak
    /// `OverlayCompositor.swift`: a translucent overlay's conversion logs a CRITICAL.
    case overlayGlobalAlpha
    /// `HTTPStreamSource+Element.swift`: souphttpsrc with libsoup 3 ignores `ssl-ca-file`.
    case soupCertificateFile
    /// The machine's keyframe seeks (`PlayerMachine+Seeking.swift`): qtdemux snaps a KEY_UNIT seek
    /// to any stream's keyframe.
    case keyUnitSeekSnap
    /// The machine's audio tracks (`PlayerMachine+Tracks.swift`): switching while PAUSED deadlocks
    /// the next flushing seek.
    case pausedAudioSwitch

    private var raw: MeWorkaround {
        switch self {
        case .gaplessEOS: ME_WORKAROUND_GAPLESS_EOS
        case .instantRateRelay: ME_WORKAROUND_INSTANT_RATE
        case .upstreamLoopSeek: ME_WORKAROUND_UPSTREAM_LOOP_SEEK
        case .sinkFlowGuard: ME_WORKAROUND_SINK_FLOW_GUARD
        case .keyframeFlags: ME_WORKAROUND_KEYFRAME_FLAGS
        case .reloadSources: ME_WORKAROUND_RELOAD_SOURCES
        case .tsdemuxID3: ME_WORKAROUND_TSDEMUX_ID3
        case .aacID3: ME_WORKAROUND_AAC_ID3
        case .dashManifest: ME_WORKAROUND_DASH_MANIFEST
        case .fragmentGate: ME_WORKAROUND_FRAGMENT_GATE
        case .bufferingThresholds: ME_WORKAROUND_BUFFERING_THRESHOLDS
        case .loopRunningTime: ME_WORKAROUND_LOOP_RUNNING_TIME
        case .stalledDemuxer: ME_WORKAROUND_STALLED_DEMUXER
        case .appsinkVideoMeta: ME_WORKAROUND_APPSINK_VIDEO_META
        case .adaptiveStartBitrate: ME_WORKAROUND_ADAPTIVE_START_BITRATE
        case .playsinkVolumeLeak: ME_WORKAROUND_PLAYSINK_VOLUME_LEAK
        case .overlayGlobalAlpha: ME_WORKAROUND_OVERLAY_GLOBAL_ALPHA
        case .soupCertificateFile: ME_WORKAROUND_SOUP_CA_FILE
        case .keyUnitSeekSnap: ME_WORKAROUND_KEY_UNIT_SEEK
        case .pausedAudioSwitch: ME_WORKAROUND_PAUSED_AUDIO_SWITCH
        }
    }

    /// Whether the workaround is to be installed (`me_workaround_active`). Cheap; any thread.
    package var isActive: Bool { me_workaround_active(raw) != 0 }

    /// Its name, the key of `MEDIA_ENGINE_WORKAROUNDS` (`gapless-eos`).
    package var name: String { me_workaround_name(raw).map { String(cString: $0) } ?? "" }

    /// The bug, in one line.
    package var summary: String { me_workaround_summary(raw).map { String(cString: $0) } ?? "" }

    /// The first GStreamer release without the bug, or nil while it is unfixed.
    package var fixedIn: String? { me_workaround_fixed_in(raw).map { String(cString: $0) } }

    /// Forces the workaround on or off in this process from now on, over the version and the
    /// environment (`me_workaround_override`); nil goes back to them. For tests: a workaround is
    /// consulted when a pipeline is built, so force it before building the player's.
    package func force(_ active: Bool?) {
        me_workaround_override(raw, active.map { $0 ? 1 : 0 } ?? -1)
    }

    /// What decided ``isActive``, for the trace.
    private var decidedBy: String {
        switch me_workaround_decision(raw) {
        case ME_WORKAROUND_BY_ENVIRONMENT: "MEDIA_ENGINE_WORKAROUNDS"
        case ME_WORKAROUND_BY_OVERRIDE: "forced"
        default: fixedIn.map { "fixed in \($0)" } ?? "unfixed"
        }
    }

    /// Logs each workaround's decision once (from ``GStreamer``'s initialization), at `info` in
    /// category `workarounds` (printed with `MEDIA_ENGINE_TRACE=1` when no handler is installed).
    static func traceDecisions() {
        guard EngineLog.isEnabled(.info) else { return }
        let version = String(cString: gst_version_string())
        for workaround in allCases {
            let state = workaround.isActive ? "on" : "off"
            EngineLog.log(
                .info, MediaEngineLog.Category.workarounds,
                "workaround \(workaround.name): \(state) (\(version); \(workaround.decidedBy))")
        }
    }
}
