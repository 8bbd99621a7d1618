#if canImport(Glibc)
    import Glibc
#endif

/// Where a player's audio goes.
///
/// With a video output that is not paced by the clock (``FrameSink`` or ``NullVideoSink`` with
/// `synchronized: false`, an element with `sync=false`), ``automatic`` and ``discard`` leave the
/// sound out (as ``none`` does), so that the whole movie runs flat out instead of at the sound's
/// pace. An ``element(_:)`` of the app's own is used as it is. The choice is made when the
/// movie is prepared; moving the video to another sink later does not change it.
public enum AudioOutput: Sendable, Hashable {
    /// The system's sound server or card (`autoaudiosink`) when this machine has one;
    /// otherwise audio is discarded at playback speed, so a headless machine plays too.
    case automatic
    /// Decoded and discarded at playback speed (`fakesink sync=true`).
    case discard
    /// No sound at all: the audio streams are neither decoded nor played (playbin without its
    /// audio flag). ``MoviePlayer/movieMediaTypes`` still reports the movie's audio.
    case none
    /// A GStreamer element or bin of your choice.
    case element(ElementDescription)

    /// The element this output resolves to on this machine, for video paced by the clock or not;
    /// nil for ``none``.
    func resolved(videoSynchronized: Bool) -> ElementDescription? {
        switch self {
        case .automatic where !videoSynchronized, .discard where !videoSynchronized:
            // Not decoded at all: a sound sink running flat out beside the video races it to the
            // end and can leave the pipeline unable to preroll when paused (seen after a swap).
            nil
        case .automatic:
            AudioOutput.machineHasSound
                ? ElementDescription(factory: "autoaudiosink")
                : ElementDescription(factory: "fakesink", properties: ["sync": true])
        case .discard:
            ElementDescription(factory: "fakesink", properties: ["sync": true])
        case .none:
            nil
        case .element(let description):
            description
        }
    }

    /// Whether a sound server socket or an ALSA playback device exists. Decided once per
    /// process: probing audio sinks one by one (as `autoaudiosink` does) costs milliseconds on
    /// every pipeline of a headless machine.
    static let machineHasSound: Bool = {
        let environment = ProcessEnvironment.current
        if environment["PULSE_SERVER"] != nil { return true }
        var candidates = ["/run/user/\(getuid())/pulse/native", "/run/user/\(getuid())/pipewire-0"]
        if let runtime = environment["XDG_RUNTIME_DIR"] {
            candidates += ["\(runtime)/pulse/native", "\(runtime)/pipewire-0"]
        }
        if candidates.contains(where: { access($0, F_OK) == 0 }) { return true }
        guard let directory = opendir("/dev/snd") else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix("pcmC") && name.hasSuffix("p") { return true }
        }
        return false
    }()
}
