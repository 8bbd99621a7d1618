import Foundation
import MediaEngine
import Testing

@testable import PlaybackSync

/// The group's wire format: every message round trips, the format is the documented one, and
/// what it does not understand is refused with a typed error, the next line read as usual.
@Suite("Playback group messages")
struct PlaybackGroupMessageTests {
    static let command = PlaybackGroupCommand(
        .pause, timeline: PlaybackTimeline(position: .milliseconds(1500), time: .seconds(9812), rate: 0))

    static let every: [PlaybackGroupMessage] = [
        .hello(member: "a1b2"),
        .state(PlaybackGroupState(sequence: 7, latency: .milliseconds(20), command: command)),
        .state(PlaybackGroupState(sequence: 0, latency: .zero, command: nil)),
        .request(member: "a1b2", command),
        .command(
            sequence: 8,
            PlaybackGroupCommand(
                .seek, timeline: PlaybackTimeline(position: .seconds(3), time: .seconds(9813), rate: 1.5),
                seekOption: .nearestKeyFrame)),
        .command(
            sequence: 9,
            PlaybackGroupCommand(.stop, timeline: PlaybackTimeline(position: .zero, time: .seconds(9814), rate: 0))),
        .report(member: "c3d4", .tooSlow(framesDropped: 12, within: .seconds(2))),
        .report(member: "c3d4", .timeSourceLost),
        .report(member: "c3d4", .timeSourceRestored),
    ]

    @Test("every message comes back as it was sent, through the wire format and through Codable")
    func roundTrips() throws {
        for message in Self.every {
            #expect(try PlaybackGroupMessage(decoding: message.encoded()) == message, "\(message)")
            let data = try JSONEncoder().encode(message)
            #expect(try JSONDecoder().decode(PlaybackGroupMessage.self, from: data) == message, "\(message)")
        }
    }

    @Test("the wire format is the documented one: sorted keys, version 1, times in nanoseconds")
    func format() {
        #expect(
            String(decoding: PlaybackGroupMessage.hello(member: "a1b2").encoded(), as: UTF8.self)
                == #"{"member":"a1b2","type":"hello","v":1}"#)
        #expect(
            String(decoding: PlaybackGroupMessage.command(sequence: 7, Self.command).encoded(), as: UTF8.self)
                == #"{"command":{"action":"pause","position":1500000000,"rate":0,"seek":"exact","time":9812000000000},"sequence":7,"type":"command","v":1}"#
        )
    }

    @Test(
        "what it does not understand is refused, typed",
        arguments: [
            ("hello", MediaError.Code.invalidGroupMessage),
            ("[1, 2]", .invalidGroupMessage),
            (#"{"type":"hello","member":"x"}"#, .invalidGroupMessage),
            (#"{"v":"1","type":"hello","member":"x"}"#, .invalidGroupMessage),
            (#"{"v":1,"type":"hello"}"#, .invalidGroupMessage),
            (
                #"{"v":1,"type":"command","sequence":1,"command":{"action":"play","position":0,"time":0}}"#,
                .invalidGroupMessage
            ),
            (
                #"{"v":1,"type":"command","sequence":1,"command":{"action":"play","position":-5,"time":0,"rate":1,"seek":"exact"}}"#,
                .invalidGroupMessage
            ),
            (#"{"v":1,"type":"state","sequence":1,"latency":-1}"#, .invalidGroupMessage),
            (#"{"v":2,"type":"hello","member":"x"}"#, .unsupportedGroupMessage),
            (#"{"v":1,"type":"dance"}"#, .unsupportedGroupMessage),
            (
                #"{"v":1,"type":"request","member":"x","command":{"action":"jump","position":0,"time":0,"rate":1,"seek":"exact"}}"#,
                .unsupportedGroupMessage
            ),
            (#"{"v":1,"type":"report","member":"x","report":"sleepy"}"#, .unsupportedGroupMessage),
            (
                #"{"v":1,"type":"command","sequence":1,"command":{"action":"play","position":0,"time":0,"rate":1,"seek":"nearby"}}"#,
                .invalidGroupMessage
            ),
        ])
    func refused(text: String, code: MediaError.Code) {
        #expect {
            try PlaybackGroupMessage(decoding: Array(text.utf8))
        } throws: { error in
            (error as? MediaError)?.code == code
        }
    }

    @Test("a message over the size limit is refused whole")
    func tooLong() {
        let big = [UInt8](repeating: UInt8(ascii: " "), count: PlaybackGroupMessage.maximumSize + 1)
        #expect { try PlaybackGroupMessage(decoding: big) } throws: {
            ($0 as? MediaError)?.code == .invalidGroupMessage
        }
    }

    @Test("the default transport's lines: split as they come, a refused line does not stop the next")
    func lines() throws {
        var reader = LineReader()
        let hello = PlaybackGroupMessage.hello(member: "a").encoded()
        let bytes = hello + Array("\nnot json\n".utf8) + hello + [UInt8(ascii: "\n")]
        var results: [Result<PlaybackGroupMessage, MediaError>] = []
        // In pieces of 5 bytes, as a socket may deliver them.
        var index = 0
        while index < bytes.count {
            results += reader.feed(bytes[index..<min(index + 5, bytes.count)])
            index += 5
        }
        #expect(results.count == 3)
        #expect(try results[0].get() == .hello(member: "a"))
        #expect(throws: MediaError.self) { try results[1].get() }
        #expect(try results[2].get() == .hello(member: "a"))
        // A line longer than the limit is one refusal, and the line after it reads.
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: PlaybackGroupMessage.maximumSize * 2)
        let after = reader.feed(long + [UInt8(ascii: "\n")] + hello + [UInt8(ascii: "\n")])
        #expect(after.count == 2)
        #expect((try? after[0].get()) == nil)
        #expect(try after[1].get() == .hello(member: "a"))
    }
}
