import Foundation
import MediaEngine
import MediaTestSupport
import NetworkVideoSink
import Testing

/// Registration, options and hostile values: refused with typed errors, or handled safely.
@Suite("Network sink options")
struct OptionsTests {
    /// A registry with the network sinks only.
    static func registry() throws -> VideoSinkRegistry {
        let registry = VideoSinkRegistry(builtIns: false)
        try NetworkVideoSink.register(in: registry)
        return registry
    }

    @Test("register adds rtp, srt and hls, external, and refuses a registry that has one of the names")
    func registration() throws {
        let registry = try Self.registry()
        #expect(registry.all.map(\.name) == ["hls", "rtp", "srt"])
        #expect(registry.all.allSatisfy { $0.capabilities == .external && !$0.summary.isEmpty })
        #expect { try NetworkVideoSink.register(in: registry) } throws: {
            ($0 as? MediaError)?.code == .duplicateSink
        }
        // A name taken by another plugin: none of the three is added.
        let other = VideoSinkRegistry(builtIns: false)
        try other.register("rtp", summary: "someone else's") { _ in NullVideoSink() }
        #expect { try NetworkVideoSink.register(in: other) } throws: { ($0 as? MediaError)?.code == .duplicateSink }
        #expect(other.all.map(\.name) == ["rtp"])
        #expect { try NetworkVideoSink(name: "rtsp", options: [:]) } throws: {
            ($0 as? MediaError)?.code == .unknownSink
        }
    }

    @Test(
        "each sink names the elements of its output, and the registry checks them without making it",
        arguments: ["rtp:host=127.0.0.1,port=5004,sdp=FOLDER/s.sdp", "srt:port=7001", "hls:folder=FOLDER"])
    func requiredElements(specification: String) throws {
        let folder = try TestMedia.scratchDirectory()
        // Cleanup only: a folder left behind in the temporary directory fails nothing.
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = specification.replacingOccurrences(of: "FOLDER", with: folder.path)
        let parsed = try VideoSinkSpecification(parsing: text)
        if parsed.name != "srt" || SRTTests.srtInstalled {
            _ = try Self.registry().makeSink(specification: text)
            // Made, not built: no SDP file, no playlist.
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        }
        let sink = try NetworkVideoSink(name: parsed.name, options: parsed.options)
        guard case .element(let description, _) = try sink.makeOutput() else {
            Issue.record("\(text): not an element output")
            return
        }
        let required = sink.requiredElements
        #expect(description.factoryNames.allSatisfy(required.contains), "\(description.factoryNames) vs \(required)")
        #expect(required.first == (text.hasPrefix("hls") ? "tee" : "videoconvert") && required.contains("x264enc"))
    }

    /// Specifications each sink must refuse with invalidArgument, with why. `FOLDER` stands for
    /// an existing folder.
    static let refused: [(String, String)] = [
        ("rtp:port=5004", "no host"),
        ("rtp:host=127.0.0.1", "no port"),
        ("rtp:host=127.0.0.1,port=0", "port 0"),
        ("rtp:host=127.0.0.1,port=65536", "port over 65535"),
        ("rtp:host=127.0.0.1,port=50o4", "port not a number"),
        ("rtp:host=127.0.0.1,port= 5004", "port with a space"),
        ("rtp:host=a b,port=5004", "host with a space"),
        ("rtp:host=127.0.0.1\" ! filesink location=FOLDER/pwned \",port=5004", "host that is a pipeline"),
        ("rtp:host=evil!host,port=5004", "host with a !"),
        ("rtp:host=256.1.1.1,port=5004", "octet over 255"),
        ("rtp:host=010.1.1.1,port=5004", "octet with a leading zero"),
        ("rtp:host=1.2.3,port=5004", "all-digit last label"),
        ("rtp:host=-a.example,port=5004", "label starting with -"),
        ("rtp:host=a..example,port=5004", "empty label"),
        ("rtp:host=fe80::1%eth0,port=5004", "IPv6 zone index"),
        ("rtp:host=1::2::3,port=5004", "two ::"),
        ("rtp:host=127.0.0.1:80,port=5004", "a port in the host"),
        ("rtp:host=127.0.0.1,port=5004,pt=95", "static payload type"),
        ("rtp:host=127.0.0.1,port=5004,pt=128", "payload type over 127"),
        ("rtp:host=127.0.0.1,port=5004,bitrate=0", "bitrate 0"),
        ("rtp:host=127.0.0.1,port=5004,bitrate=fast", "bitrate not a number"),
        ("rtp:host=127.0.0.1,port=5004,keyframe-interval=0", "keyframe interval 0"),
        ("rtp:host=127.0.0.1,port=5004,preset=ludicrous", "unknown preset"),
        ("rtp:host=127.0.0.1,port=5004,ttl=4", "unknown key"),
        ("rtp:host=127.0.0.1,port=5004,sdp=", "empty SDP path"),
        ("srt:port=7001,mode=rendezvous", "unsupported mode"),
        ("srt:mode=caller,port=7001", "caller without a host"),
        ("srt:port=7001,latency=-1", "negative latency"),
        ("srt:port=7001,latency=60001", "latency over 60 s"),
        ("srt:host=a b,port=7001", "listener address with a space"),
        ("srt:uri=http://127.0.0.1:7001", "not an srt URI"),
        ("srt:uri=srt://127.0.0.1", "URI without a port"),
        ("srt:uri=srt://127.0.0.1:7001?passphrase=secret", "URI query other than mode and latency"),
        ("srt:uri=srt://127.0.0.1:7001?mode=caller,mode=caller", "uri= with mode="),
        ("srt:uri=srt://user@127.0.0.1:7001", "URI with a user"),
        ("srt:uri=srt://a%20b:7001", "URI host with an escaped space"),
        ("hls:target-duration=2", "no folder"),
        ("hls:folder=FOLDER,target-duration=0", "target duration 0"),
        ("hls:folder=FOLDER,target-duration=61", "target duration over 60"),
        ("hls:folder=FOLDER,playlist-length=-1", "negative playlist length"),
        ("hls:folder=FOLDER,playlist-length=5,max-files=2", "deleting listed segments"),
        ("hls:folder=FOLDER,playlist=../escape.m3u8", "playlist outside the folder"),
        ("hls:folder=FOLDER,playlist=a b.m3u8", "playlist name with a space"),
        ("hls:folder=FOLDER,sync=maybe", "sync not a boolean"),
        ("hls:folder=FOLDER,location=x", "unknown key"),
        ("hls:folder=FOLDER\nx", "control character in the folder"),
    ]

    @Test("bad options and hostile values are invalidArgument, and nothing is written", arguments: refused)
    func refusedOptions(specification: String, why: String) throws {
        let folder = try TestMedia.scratchDirectory()
        // Cleanup only: a folder left behind in the temporary directory fails nothing.
        defer { try? FileManager.default.removeItem(at: folder) }
        let registry = try Self.registry()
        let text = specification.replacingOccurrences(of: "FOLDER", with: folder.path)
        do {
            _ = try registry.makeSink(specification: text)
            Issue.record("\(why): '\(text)' was accepted")
        } catch {
            #expect(error.code == .invalidArgument, "\(why): \(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "\(why)")
    }

    @Test(
        "a missing folder for the SDP file or the segments is fileNotFound, a read-only one permissionDenied, a full one diskFull"
    )
    func folders() async throws {
        let registry = try Self.registry()
        let missing = "/nonexistent-\(UUID().uuidString)"
        #expect { try registry.makeSink(specification: "rtp:host=127.0.0.1,port=5004,sdp=\(missing)/s.sdp") } throws: {
            ($0 as? MediaError)?.code == .fileNotFound
        }
        #expect { try registry.makeSink(specification: "hls:folder=\(missing)") } throws: {
            ($0 as? MediaError)?.code == .fileNotFound
        }
        // Root writes through permission bits: only a read-only file system refuses it.
        let folder = try TestMedia.scratchDirectory()
        // Cleanup only: a folder left behind in the temporary directory fails nothing.
        defer { try? FileManager.default.removeItem(at: folder) }
        guard await ScratchMount.tmpfs(at: folder, readOnly: true) else {
            Issue.record("cannot mount a read-only tmpfs here (not root, or a container that refuses)")
            return
        }
        #expect { try registry.makeSink(specification: "hls:folder=\(folder.path)") } throws: {
            ($0 as? MediaError)?.code == .permissionDenied
        }
        #expect {
            try registry.makeSink(specification: "rtp:host=127.0.0.1,port=5004,sdp=\(folder.path)/s.sdp")
        } throws: {
            ($0 as? MediaError)?.code == .permissionDenied
        }
        await ScratchMount.unmount(folder)
        // A full disk: the SDP file is not written, and says why. Only writing finds that out, and
        // the registry writes nothing: the output, when a player makes it, does.
        guard await ScratchMount.tmpfs(at: folder, full: true) else {
            Issue.record("cannot mount a tmpfs here")
            return
        }
        let sink = try registry.makeSink(specification: "rtp:host=127.0.0.1,port=5004,sdp=\(folder.path)/s.sdp")
        #expect { try sink.makeOutput() } throws: { ($0 as? MediaError)?.code == .diskFull }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("s.sdp").path))
        await ScratchMount.unmount(folder)
    }

    @Test(
        "hosts: addresses and names that are accepted",
        arguments: [
            ("127.0.0.1", NetworkHost.Kind.ipv4, "127.0.0.1"), ("0.0.0.0", .ipv4, "0.0.0.0"),
            ("255.255.255.255", .ipv4, "255.255.255.255"), ("::1", .ipv6, "[::1]"), ("[::1]", .ipv6, "[::1]"),
            ("::", .ipv6, "[::]"), ("2001:db8::7", .ipv6, "[2001:db8::7]"),
            ("::ffff:192.0.2.1", .ipv6, "[::ffff:192.0.2.1]"), ("1:2:3:4:5:6:7:8", .ipv6, "[1:2:3:4:5:6:7:8]"),
            ("localhost", .name, "localhost"), ("receiver.local", .name, "receiver.local"),
            ("a-b.example.com", .name, "a-b.example.com"), ("tv1", .name, "tv1"),
        ])
    func acceptedHosts(text: String, kind: NetworkHost.Kind, uriHost: String) throws {
        let host = try NetworkHost(text)
        #expect(host.kind == kind)
        #expect(host.uriHost == uriHost)
    }

    @Test("the SDP for an IPv6 receiver says IP6; an SRT URI puts the address in brackets")
    func ipv6() throws {
        let sdp = try RTPDestination(host: "::1", port: 5004, payloadType: 100).sessionDescription(bitrate: 800)
        #expect(sdp.contains("c=IN IP6 ::1\r\n"))
        #expect(sdp.contains("m=video 5004 RTP/AVP 100\r\n"))
        #expect(sdp.contains("b=AS:800\r\n"))
        #expect(sdp.contains("a=rtpmap:100 H264/90000\r\n"))
        #expect(try SRTDestination(mode: .caller, host: "::1", port: 7001).uri() == "srt://[::1]:7001?mode=caller")
        #expect(try SRTDestination(uri: "srt://:7001?mode=listener").uri() == "srt://0.0.0.0:7001?mode=listener")
        let parsed = try SRTDestination(uri: "srt://[2001:db8::7]:9000?latency=300")
        #expect(parsed.mode == .caller && parsed.port == 9000 && parsed.latency == .milliseconds(300))
        #expect(try parsed.uri() == "srt://[2001:db8::7]:9000?mode=caller")
    }
}
