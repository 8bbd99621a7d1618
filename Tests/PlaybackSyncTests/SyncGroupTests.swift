import Foundation
import MediaEngine
import MediaTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Playback groups end to end: each member an `engine-sync-member` process, the leader's clock
/// published and followed over real UDP on loopback, the commands over real TCP, the frames
/// real (their numbers read from the pictures). One scenario at a time: several members decode
/// at once, and the spreads measured here are of frames' times (the figures against the goals
/// are `engine-bench --only sync`'s, in a release build on a quiet machine).
@Suite("Playback groups, in processes", .serialized)
struct SyncGroupTests {
    /// A frame's time at 30 fps.
    static let frameInterval = Duration.microseconds(33_333)

    /// A leader and `followers` followers of it, each ready (its movie prepared).
    static func group(
        followers: Int, frames: Bool = true, leaderArguments: [String] = [], followerArguments: [String] = []
    ) async throws -> (leader: SyncMemberProcess, followers: [SyncMemberProcess], movie: String, port: Int) {
        let movie = try await TestMedia.url(for: TestMedia.numberedLong).path
        let leader = try SyncMemberProcess(
            "leader", ["lead", "--port", "0", movie] + (frames ? ["--frames"] : []) + leaderArguments)
        let joined = try await leader.waitForEvent("joined")
        let port = try #require(joined.port)
        var members: [SyncMemberProcess] = []
        for index in 0..<followers {
            members.append(
                try follower("follower \(index + 1)", port: port, movie: movie, frames: frames, followerArguments))
        }
        try await leader.waitForEvent("ready")
        for member in members { try await member.waitForEvent("ready") }
        return (leader, members, movie, port)
    }

    static func follower(
        _ name: String, port: Int, movie: String, frames: Bool = true, _ arguments: [String] = []
    ) throws -> SyncMemberProcess {
        try SyncMemberProcess(
            name,
            ["follow", "--host", "127.0.0.1", "--port", "\(port)", movie] + (frames ? ["--frames"] : []) + arguments)
    }

    /// Stops every member; each must exit cleanly.
    static func stop(_ members: [SyncMemberProcess]) async {
        for member in members {
            let exit = await member.stop()
            #expect(exit.code == 0, "\(member.name) ended with \(exit.code): \(member.standardError.suffix(500))")
        }
    }

    /// Waits until every member has landed `count` seeks, and returns each one's last.
    static func landed(_ members: [SyncMemberProcess], count: Int) async throws -> [SyncMemberRecord] {
        var last: [SyncMemberRecord] = []
        for member in members { last.append(try await member.waitForEvent("seeked", count: count)) }
        return last
    }

    @Test("every member shows each frame at the same group time; pauses and an exact seek land all on one frame")
    func inStep() async throws {
        let (leader, followers, _, _) = try await Self.group(followers: 2)
        let members = [leader] + followers
        leader.send("play")
        // Every member's first seek is the play's (from 0, at the command's time).
        _ = try await Self.landed(members, count: 1)
        try await leader.waitFor("2.5 s of the movie", within: .seconds(15)) { records in
            records.contains { ($0.frame ?? 0) >= 2_500_000_000 && $0.playing == true }
        }
        // Three pauses, each followed by a short play, and an exact seek while paused.
        var seeks = 1
        for round in 0..<3 {
            leader.send("pause")
            seeks += 1
            let paused = try await Self.landed(members, count: seeks)
            #expect(paused.allSatisfy { $0.paused == true }, "round \(round): \(paused.map(\.paused))")
            #expect(Set(paused.map(\.position)).count == 1, "round \(round): \(paused.map(\.position))")
            let numbers = paused.map(\.number)
            #expect(Set(numbers).count == 1 && numbers[0] != -1, "round \(round): the pictures show \(numbers)")
            if round == 1 {
                leader.send("seek 6.2 exact")
                seeks += 1
                let sought = try await Self.landed(members, count: seeks)
                #expect(Set(sought.map(\.position)).count == 1, "\(sought.map(\.position))")
                #expect(Set(sought.map(\.number)).count == 1 && sought[0].number != -1, "\(sought.map(\.number))")
                #expect(sought[0].position == 6_200_000_000)
            }
            leader.send("play")
            seeks += 1
            _ = try await Self.landed(members, count: seeks)
            try await Task.sleep(for: .milliseconds(600))
        }
        await Self.stop(members)
        let frames = SyncFrames(members.map(\.records))
        #expect(frames.frames.count >= 60, "only \(frames.frames.count) frames rendered by every member")
        // Every member set the same timeline: GStreamer scheduled each frame at the same group time.
        #expect(frames.frames.allSatisfy { $0.scheduledSpread == .zero })
        // And the sinks got them then: the clocks agree, the threads woke on time.
        let median = frames.percentile(0.5)
        let p95 = frames.percentile(0.95)
        #expect(median <= .milliseconds(3), "median spread \(median)")
        #expect(p95 <= .milliseconds(10), "95th percentile spread \(p95)")
    }

    @Test("a member that joins while the group plays is in step within a second; bad messages are refused typed")
    func lateJoinAndRefusals() async throws {
        let (leader, followers, movie, port) = try await Self.group(followers: 1)
        leader.send("play")
        try await leader.waitFor("1 s of the movie", within: .seconds(15)) { records in
            records.contains { ($0.frame ?? 0) >= 1_000_000_000 && $0.playing == true }
        }
        let late = try Self.follower("late follower", port: port, movie: movie)
        let joined = try await late.waitForEvent("joined")
        try await late.waitFor("2 s of frames after joining", within: .seconds(15)) { records in
            records.contains { ($0.clock ?? 0) > (joined.clock ?? 0) + 2_000_000_000 && $0.playing == true }
        }
        // The first frame from which the late member shows every frame within a frame of the leader.
        let pairs = SyncFrames([leader.records, late.records]).frames
        let inStep = pairs.indices.first { start in
            pairs[start...].prefix(15).allSatisfy { $0.spread <= Self.frameInterval } && pairs.count - start >= 15
        }
        let first = try #require(inStep.map { pairs[$0] }, "the late member never got in step")
        let after = first.times[1] - .nanoseconds(try #require(joined.clock))
        #expect(after <= .milliseconds(1500), "in step \(after) after joining (in the debug build, under load)")

        // Bytes that are not a message, and messages of another version or kind: refused, typed.
        let socket = try Self.connect(port: port)
        let lines = [
            "hello", #"{"v":2,"type":"hello","member":"x"}"#, #"{"v":1,"type":"dance"}"#,
            #"{"v":1,"type":"hello"}"#,
        ]
        _ = lines.joined(separator: "\n").appending("\n").withCString { write(socket, $0, strlen($0)) }
        try await leader.waitFor("four refusals") { $0.filter { $0.event == "refused" }.count >= 4 }
        close(socket)
        let codes = leader.events("refused").map(\.code)
        #expect(
            codes == [
                "invalidGroupMessage", "unsupportedGroupMessage", "unsupportedGroupMessage", "invalidGroupMessage",
            ])
        // The group goes on: a pause lands every member on one frame.
        let members = [leader] + followers + [late]
        let before = members.map { $0.events("seeked").count }
        leader.send("pause")
        var paused: [SyncMemberRecord] = []
        for (member, count) in zip(members, before) {
            paused.append(try await member.waitForEvent("seeked", count: count + 1))
        }
        #expect(Set(paused.map(\.number)).count == 1, "\(paused.map(\.number))")
        await Self.stop(members)
    }

    @Test("a member whose time source stops answering says so and plays on; back, it says so and is in step")
    func timeSourceLostAndBack() async throws {
        let (leader, followers, _, _) = try await Self.group(
            followers: 1, followerArguments: ["--loss", "1200", "--poll", "250"])
        let follower = followers[0]
        leader.send("play")
        _ = try await Self.landed([leader, follower], count: 1)
        leader.send("silence")
        let lost = try await follower.waitForEvent("timeSourceLost", within: .seconds(6))
        try await leader.waitFor("the leader hearing of it") {
            $0.contains { $0.event == "report" && $0.report == "timeSourceLost" }
        }
        // It plays on meanwhile: a second of frames after the loss.
        try await follower.waitFor("frames after the loss", within: .seconds(5)) { records in
            records.filter { ($0.clock ?? 0) > (lost.clock ?? 0) && $0.playing == true }.count >= 25
        }
        leader.send("answer")
        let back = try await follower.waitForEvent("timeSourceRestored", within: .seconds(6))
        try await follower.waitFor("a second of frames after", within: .seconds(5)) { records in
            records.filter { ($0.clock ?? 0) > (back.clock ?? 0) + 1_000_000_000 }.count >= 10
        }
        await Self.stop([leader, follower])
        let after = SyncFrames([leader.records, follower.records], from: .nanoseconds(back.clock ?? 0))
        #expect(after.frames.count >= 20)
        #expect(after.percentile(0.95) <= .milliseconds(10), "\(after.percentile(0.95)) after the source came back")
    }

    @Test("a member too slow for the group reports it, and the leader hears of it")
    func tooSlow() async throws {
        let (leader, followers, _, _) = try await Self.group(
            followers: 1, frames: false, followerArguments: ["--slow", "70"])
        leader.send("play")
        let report = try await followers[0].waitForEvent("tooSlow", within: .seconds(8))
        #expect((report.dropped ?? 0) >= 6)
        try await leader.waitFor("the report") {
            $0.contains { $0.event == "report" && $0.report?.hasPrefix("tooSlow") == true }
        }
        await Self.stop([leader] + followers)
    }

    @Test("a second time source on a port in use, and a follower with no time source, fail typed")
    func failures() async throws {
        let movie = try await TestMedia.url(for: TestMedia.numberedLong).path
        let leader = try SyncMemberProcess("leader", ["lead", "--port", "0", movie])
        let port = try #require(try await leader.waitForEvent("joined").port)
        let second = try SyncMemberProcess("second leader", ["lead", "--port", "\(port)", movie])
        let failed = try await second.waitForEvent("failed")
        #expect(failed.code == "addressInUse")
        _ = await second.stop()
        // Nothing answers on a free port: the clock never syncs.
        let free = try LoopbackPorts.freeUDP(1)[0]
        let orphan = try SyncMemberProcess(
            "orphan", ["follow", "--host", "127.0.0.1", "--port", "\(free)", "--sync-timeout", "1000", movie])
        #expect(try await orphan.waitForEvent("failed").code == "timeSourceUnreachable")
        _ = await orphan.stop()
        await Self.stop([leader])
    }

    /// A TCP connection to the leader's port, as a member that speaks no group would make.
    static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { throw TestMediaError(message: "no connection to port \(port): errno \(errno)") }
        return fd
    }
}
