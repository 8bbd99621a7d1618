import MediaEngine
import MediaplayConsole
import Testing

/// mediaplay's keys and the steps they take.
@Suite("Key bindings")
struct KeyBindingsTests {
    @Test("each documented key has its command; others have none")
    func commands() {
        let step = KeyBindings.seekStep
        let expected: [(Key, PlayerCommand)] = [
            (.character(" "), .playPause),
            (.arrow(.right, shift: false), .seek(by: step, exact: false)),
            (.arrow(.left, shift: false), .seek(by: .zero - step, exact: false)),
            (.arrow(.right, shift: true), .seek(by: step, exact: true)),
            (.arrow(.left, shift: true), .seek(by: .zero - step, exact: true)),
            (.arrow(.up, shift: false), .faster), (.arrow(.down, shift: true), .slower),
            (.character("f"), .fullscreen), (.character("a"), .scalingMode), (.character("l"), .repeatMode),
            (.character("m"), .mute), (.character("9"), .volume(by: -0.1)), (.character("-"), .volume(by: -0.1)),
            (.character("0"), .volume(by: 0.1)), (.character("+"), .volume(by: 0.1)),
            (.character("n"), .next), (.character("p"), .previous), (.character("t"), .audioTrack),
            (.character("?"), .help), (.character("q"), .quit), (.escape, .quit),
        ]
        for (key, command) in expected {
            #expect(KeyBindings.command(for: key) == command, "\(key)")
        }
        for key: Key in [.character("x"), .enter, .control("c"), .other([0x1B, 0x78]), .tab] {
            #expect(KeyBindings.command(for: key) == nil, "\(key)")
        }
        #expect(step == .seconds(5))
    }

    @Test("rates step through the ladder and stop at its ends; an off-ladder rate goes to its neighbour")
    func rates() {
        #expect(KeyBindings.rate(after: 1, faster: true) == 1.5)
        #expect(KeyBindings.rate(after: 1, faster: false) == 0.5)
        #expect(KeyBindings.rate(after: 8, faster: true) == nil)
        #expect(KeyBindings.rate(after: 0.25, faster: false) == nil)
        #expect(KeyBindings.rate(after: 3, faster: true) == 4)
        #expect(KeyBindings.rate(after: 3, faster: false) == 2)
        #expect(KeyBindings.rate(after: -2, faster: true) == 0.25)
    }

    @Test("scaling and repeat modes go round; repeat-all only with a queue")
    func modes() {
        var mode = ScalingMode.aspectFit
        var seen: [ScalingMode] = []
        for _ in 0..<4 {
            mode = KeyBindings.scalingMode(after: mode)
            seen.append(mode)
        }
        #expect(seen == [.aspectFill, .fill, .none, .aspectFit])
        #expect(KeyBindings.repeatMode(after: .none, hasQueue: false) == .one)
        #expect(KeyBindings.repeatMode(after: .one, hasQueue: false) == .none)
        #expect(KeyBindings.repeatMode(after: .one, hasQueue: true) == .all)
        #expect(KeyBindings.repeatMode(after: .all, hasQueue: true) == .none)
    }

    @Test("audio tracks go round from the one playing; none without two")
    func audioTracks() {
        let tracks = [0, 1, 2].map { MediaTrack(kind: .audio, index: $0 + 3) }
        #expect(KeyBindings.audioTrack(after: tracks[0], in: tracks) == tracks[1])
        #expect(KeyBindings.audioTrack(after: tracks[2], in: tracks) == tracks[0])
        #expect(KeyBindings.audioTrack(after: nil, in: tracks) == tracks[0])
        let subtitles = [MediaTrack(kind: .subtitle, index: 0), MediaTrack(kind: .subtitle, index: 1)]
        #expect(KeyBindings.subtitleTrack(after: nil, in: subtitles) == subtitles[0])
        #expect(KeyBindings.subtitleTrack(after: subtitles[0], in: subtitles) == subtitles[1])
        #expect(KeyBindings.subtitleTrack(after: subtitles[1], in: subtitles) == nil, "none after the last")
        #expect(KeyBindings.command(for: .character("s")) == .subtitleTrack)
        #expect(KeyBindings.audioTrack(after: tracks[0], in: [tracks[0]]) == nil)
    }

    @Test("a window's keys (X keysym names, unshifted) read as the terminal's")
    func windowKeys() {
        let expected: [(String, Bool, Key?)] = [
            ("space", false, .character(" ")), ("Left", false, .arrow(.left, shift: false)),
            ("Right", true, .arrow(.right, shift: true)), ("Up", false, .arrow(.up, shift: false)),
            ("Down", false, .arrow(.down, shift: false)), ("Escape", false, .escape), ("Return", false, .enter),
            ("q", false, .character("q")), ("q", true, .character("Q")), ("9", false, .character("9")),
            ("slash", true, .character("?")), ("question", false, .character("?")), ("minus", false, .character("-")),
            ("equal", true, .character("+")), ("KP_Add", false, .character("+")), ("F1", false, nil),
            ("BackSpace", false, nil),
        ]
        for (name, shift, key) in expected {
            #expect(KeyBindings.key(windowKey: name, shift: shift) == key, "\(name) shift \(shift)")
        }
    }

    @Test("the help names every key, in lines that fit 80 columns")
    func help() {
        #expect(KeyBindings.help.split(separator: "\n").allSatisfy { $0.count < 80 })
        for word in ["space", "left/right", "shift", "up/down", "f ", "a ", "l ", "m ", "9/0", "n/p", "t ", "q "] {
            #expect(KeyBindings.help.contains(word), "\(word)")
        }
    }
}
