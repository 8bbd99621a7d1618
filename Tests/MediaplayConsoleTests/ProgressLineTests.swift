import MediaEngine
import MediaplayConsole
import Testing

/// The progress line at every width: what it shows, and that it never reaches the last column.
@Suite("Progress line")
struct ProgressLineTests {
    private let file = ProgressSnapshot(position: .milliseconds(12_340), duration: .seconds(60), state: .playing)

    @Test("a file playing: times, a bar, the state and the volume")
    func playingFile() {
        let line = ProgressLine.render(file, width: 80)
        #expect(line.hasPrefix("0:12.3 / 1:00.0 ["), "\(line)")
        #expect(line.hasSuffix("] playing vol 100%"), "\(line)")
        #expect(line.count == 79, "one column left free: \(line)")
        let bar = line.drop { $0 != "[" }.dropFirst().prefix { $0 != "]" }
        // 12.34 of 60 s: a fifth of the bar played, the head, no buffered part for a file.
        #expect(bar.firstIndex(of: ">").map { bar.distance(from: bar.startIndex, to: $0) } == bar.count * 1234 / 6000)
        #expect(!bar.contains("-"))
    }

    @Test("a seek under way says seeking instead of the state")
    func seeking() {
        var snapshot = file
        snapshot.state = .paused
        snapshot.isSeeking = true
        #expect(ProgressLine.render(snapshot, width: 80).hasSuffix("] seeking vol 100%"))
        snapshot.isSeeking = false
        #expect(ProgressLine.render(snapshot, width: 80).hasSuffix("] paused vol 100%"))
    }

    @Test("rate, buffered amount, mute and repeat appear when they say something")
    func optionalParts() {
        var stream = file
        stream.rate = 2
        stream.playable = .seconds(20)
        stream.isMuted = true
        stream.repeatMode = .one
        stream.state = .paused
        let line = ProgressLine.render(stream, width: 120)
        #expect(line.hasSuffix("] paused 2x buffered 7.7 s muted repeat one"), "\(line)")
        #expect(line.contains(">-"), "what is buffered ahead of the head: \(line)")
        var quiet = file
        quiet.volume = 0.8
        quiet.rate = 0.25
        #expect(ProgressLine.render(quiet, width: 100).hasSuffix("] playing 0.25x vol 80%"))
    }

    @Test("at every width from 1 to 200 the line fits in width - 1 columns, and keeps the state while it can")
    func widths() {
        var full = file
        full.rate = 1.5
        full.playable = .seconds(30)
        full.repeatMode = .all
        for width in 1...200 {
            let line = ProgressLine.render(full, width: width)
            #expect(line.count <= max(width - 1, 1), "width \(width): \(line)")
            #expect(line.allSatisfy { $0.isASCII && !$0.isNewline && $0 != "\u{1B}" }, "width \(width)")
            if width >= 30 { #expect(line.contains("playing"), "width \(width): \(line)") }
            if width >= 40 { #expect(line.contains("["), "width \(width): \(line)") }
        }
        // Narrow: the bar shrinks to its smallest, then the least needed parts go, last first.
        #expect(ProgressLine.render(full, width: 40) == "0:12.3 / 1:00.0 [=>--    ] playing 1.5x")
        #expect(ProgressLine.render(full, width: 30) == "0:12.3 / 1:00.0 playing 1.5x")
    }

    @Test("a live stream (no duration) has no bar; an hour and more shows hours")
    func liveAndLong() {
        let live = ProgressSnapshot(position: .seconds(75), duration: nil, state: .playing, playable: .seconds(80))
        #expect(ProgressLine.render(live, width: 80) == "1:15.0 / --:-- playing buffered 5.0 s vol 100%")
        let long = ProgressSnapshot(position: .seconds(3725), duration: .seconds(7200), state: .playing)
        #expect(ProgressLine.render(long, width: 60).hasPrefix("1:02:05 / 2:00:00 ["))
    }

    @Test("a network movie waiting for data says so: buffering and how far, stalled, or loading")
    func waitingForTheNetwork() {
        var stream = ProgressSnapshot(
            position: .seconds(12), duration: .seconds(60), state: .interrupted, playable: .seconds(12),
            bufferingPercent: 35)
        #expect(ProgressLine.render(stream, width: 80).hasSuffix("] buffering 35% buffered 0.0 s vol 100%"))
        stream.bufferingPercent = nil
        #expect(ProgressLine.render(stream, width: 80).hasSuffix("] stalled buffered 0.0 s vol 100%"))
        stream.bufferingPercent = 100
        #expect(ProgressLine.render(stream, width: 80).hasSuffix("] stalled buffered 0.0 s vol 100%"))
        // A local file has no network to wait for: its interruption keeps its name.
        var file = stream
        file.playable = nil
        #expect(ProgressLine.render(file, width: 80).hasSuffix("] interrupted vol 100%"))
        // Loading: before any buffering report, and after.
        var loading = ProgressSnapshot(position: .zero, duration: nil, state: .stopped, isLoading: true)
        #expect(ProgressLine.render(loading, width: 80) == "0:00.0 / --:-- loading vol 100%")
        loading.bufferingPercent = 7
        #expect(ProgressLine.render(loading, width: 80) == "0:00.0 / --:-- buffering 7% vol 100%")
        // Narrow, the state's words go last.
        #expect(ProgressLine.render(loading, width: 30) == "0:00.0 / --:-- buffering 7%")
    }

    @Test("the head stays inside the bar at the start and the end")
    func ends() {
        for position in [Duration.zero, .seconds(60), .seconds(90)] {
            var snapshot = file
            snapshot.position = position
            let line = ProgressLine.render(snapshot, width: 60)
            let bar = line.drop { $0 != "[" }.dropFirst().prefix { $0 != "]" }
            #expect(bar.filter { $0 == ">" }.count == 1, "\(line)")
            #expect(position == .zero ? bar.first == ">" : bar.last == ">", "\(line)")
        }
    }
}
