import FileSource
import Foundation
import MediaEngine
import MediaTestSupport
import Testing

/// The player's volume and mute on real sound: the movie's tone written to a WAV file as it
/// plays, then measured.
@Suite("Volume and mute")
struct VolumeTests {
    /// The samples of a 16-bit mono WAV file, and its rate.
    static func samples(ofWAV file: URL) throws -> (rate: Int, samples: [Int16]) {
        let bytes = [UInt8](try Data(contentsOf: file))
        func word(_ at: Int) -> Int {
            Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
        }
        var offset = 12
        var rate = 0
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let size = word(offset + 4)
            if id == "fmt " { rate = word(offset + 12) }
            if id == "data" {
                let end = min(bytes.count, offset + 8 + size)
                let data = bytes[(offset + 8)..<end]
                let samples = stride(from: data.startIndex, to: data.endIndex - 1, by: 2).map {
                    Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8)
                }
                return (rate, samples)
            }
            offset += 8 + size
        }
        throw TestMediaError(message: "no data chunk in \(file.path)")
    }

    /// The root mean square of `samples` between two times.
    static func rms(_ samples: [Int16], rate: Int, from start: Double, to end: Double) -> Double {
        let lower = min(samples.count, max(0, Int(start * Double(rate))))
        let slice = samples[lower..<max(lower, min(samples.count, Int(end * Double(rate))))]
        return (slice.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, slice.count))).squareRoot()
    }

    @Test("volume 0.25 at 0.8 s and mute at 1.4 s: the tone drops to a quarter, then to silence, without a click")
    func rampsWithoutClicks() async throws {
        let wav = try TestMedia.scratchDirectory().appendingPathComponent("sound.wav")
        let output = AudioOutput.element(
            .bin(
                "audioconvert ! audio/x-raw,format=S16LE,channels=1 ! wavenc ! filesink sync=true location=\(wav.path)")
        )
        let player = MoviePlayer(
            source: FileSource(url: try await TestMedia.url(for: TestMedia.longBarsWithAudio)),
            videoSink: NullVideoSink(), audioOutput: output)
        player.shouldAutoplay = false
        // Four seconds of the long clip: room for changes that a busy machine delivers late.
        try player.setPlaybackRange(initial: nil, end: .seconds(4))
        let recorder = EventRecorder(player)
        // The mute comes 0.6 s of the movie after the volume change, wherever that landed: the
        // events reach this task when a busy machine gets to them, and two boundaries fixed in
        // advance could arrive together, leaving no quarter volume between the changes.
        let first = try player.addBoundaryTimeObserver(at: [.milliseconds(800)])
        let events = player.events
        try await player.play()
        try await withDeadline(.seconds(20), "both boundaries") {
            var muteAt: Duration?
            for await event in events {
                guard case .boundaryTimeReached(_, let time) = event else { continue }
                if muteAt == nil {
                    player.volume = 0.25
                    player.removeTimeObserver(first)
                    let at = player.currentPlaybackTime + .milliseconds(600)
                    try #require(at < .milliseconds(3600), "the volume changed at \(time), too late for the mute")
                    _ = try player.addBoundaryTimeObserver(at: [at])
                    muteAt = at
                } else if time == muteAt {
                    player.isMuted = true
                    return
                }
            }
        }
        _ = try await recorder.waitForFinish()
        await player.shutdown()
        #expect(recorder.events.contains(.volumeChanged(0.25)) && recorder.events.contains(.mutedChanged(true)))

        let (rate, samples) = try Self.samples(ofWAV: wav)
        #expect(rate > 0 && samples.count > rate * 7 / 2, "\(samples.count) samples at \(rate) Hz")
        let full = Self.rms(samples, rate: rate, from: 0.2, to: 0.7)
        #expect(full > 1000, "the tone is there: RMS \(full)")
        // The changes are made from the event stream, which a busy machine delivers late: where
        // each took effect is read from the sound itself (50 ms windows), and the levels measured
        // between them.
        let windows = stride(from: 0.8, to: 3.9, by: 0.05).map {
            ($0, Self.rms(samples, rate: rate, from: $0, to: $0 + 0.05))
        }
        let dropped = try #require(windows.first { $0.1 < full * 0.6 }?.0, "the volume never dropped")
        let silent = try #require(windows.first { $0.0 > dropped && $0.1 < full * 0.05 }?.0, "never muted")
        #expect(silent - dropped >= 0.2, "the quarter volume lasted \(silent - dropped) s")
        let quarter = Self.rms(samples, rate: rate, from: dropped + 0.05, to: silent - 0.05)
        let muted = Self.rms(samples, rate: rate, from: silent + 0.05, to: min(3.95, silent + 0.35))
        #expect(abs(quarter / full - 0.25) < 0.05, "a quarter: \(quarter / full)")
        #expect(muted < full * 0.01, "silent: \(muted / full)")
        // No click: no step between two samples steeper than the tone's own steepest (its slope
        // at full volume), where a jump of the gain mid-swing would be several times steeper.
        func steepest(_ range: Range<Int>) -> Int {
            range.dropFirst().map { abs(Int(samples[$0]) - Int(samples[$0 - 1])) }.max() ?? 0
        }
        let natural = steepest(Int(0.2 * Double(rate))..<Int(0.7 * Double(rate)))
        let changes = steepest(Int(0.7 * Double(rate))..<Int(3.9 * Double(rate)))
        func step(_ index: Int) -> Int { abs(Int(samples[index]) - Int(samples[index - 1])) }
        let window: Range<Int> = Int(0.7 * Double(rate))..<Int(3.9 * Double(rate))
        let at: Int = window.dropFirst().max { step($0) < step($1) } ?? 0
        #expect(
            changes <= natural + natural / 10,
            "steepest step \(changes) against the tone's \(natural), at \(Double(at) / Double(rate)) s: \(samples[max(0, at - 4)..<min(samples.count, at + 4)])"
        )
    }
}
