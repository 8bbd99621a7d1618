import Foundation
import MediaTestSupport
import Testing

/// `mediawall` as its README runs it: a leader and a follower showing its tile, each on a
/// terminal of its own, on loopback.
@Suite("mediawall")
struct MediawallSmokeTests {
    @Test(
        "a leader and a follower with a tile: both draw the movie, the leader hears the follower join, quit ends both")
    func leadAndFollow() async throws {
        let movie = try await TestMedia.url(for: TestMedia.longBars).path
        let leader = try PseudoTerminalProgram(
            BuildProducts.executable("mediawall"), ["--lead", movie, "--tile", "0,0/1,2", "--bezel", "8,0"],
            columns: 60, rows: 20)
        // A picture on the terminal: half blocks in 24-bit colour (`ESC[38;2;R;G;Bm`).
        let drawn: @Sendable ([UInt8]) -> Bool = { String(decoding: $0, as: UTF8.self).contains("\u{1B}[38;2;") }
        try await leader.waitForOutput("the leader's picture", drawn)
        // What it said so far: "mediawall: leading the group on port N as ID".
        let said = leader.errorText
        let port = try #require(
            said.split(separator: "\n").first { $0.contains("leading the group on port") }?
                .split(separator: " ").dropFirst(6).first.flatMap { Int($0) }, "\(said)")
        let follower = try PseudoTerminalProgram(
            BuildProducts.executable("mediawall"),
            ["--follow", "127.0.0.1:\(port)", movie, "--tile", "0,1/1,2", "--bezel", "8,0"], columns: 60, rows: 20)
        try await follower.waitForOutput("the follower's picture", drawn)
        follower.type("quit\n")
        #expect(try await follower.waitForExit() == 0)
        let followed = follower.errorText
        #expect(followed.contains("following the group on port \(port)"), "\(followed)")
        leader.type("quit\n")
        #expect(try await leader.waitForExit() == 0)
        let led = said + leader.errorText
        #expect(led.contains(" joined"), "the leader heard the follower say hello: \(led)")
        #expect(led.contains("bye"), "\(led)")
    }
}
