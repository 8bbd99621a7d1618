import MediaEngine
import TerminalVideoSink
import Testing

/// The sink made from a registry's string options, and its registration.
@Suite("Terminal video sink: options and registration")
struct OptionsTests {
    /// A registry with the built-ins and the terminal sink.
    private func registry() throws -> VideoSinkRegistry {
        let registry = VideoSinkRegistry(environment: [:])
        try TerminalVideoSink.register(in: registry)
        return registry
    }

    @Test("registers as 'terminal' with no capabilities, once")
    func registration() throws {
        let registry = try registry()
        let entry = try #require(registry.entry(named: "terminal"))
        #expect(entry.capabilities == [])
        #expect(registry.all.map(\.name) == ["frames", "images", "null", "terminal", "window"])
        #expect(throws: MediaError(.duplicateSink, "a video sink named 'terminal' is already registered")) {
            try TerminalVideoSink.register(in: registry)
        }
    }

    @Test("reads fd=, width=, height= and sigint=")
    func goodOptions() throws {
        let sink = try #require(
            try registry().makeSink(specification: "terminal:fd=2,width=100,height=30,sigint=false")
                as? TerminalVideoSink)
        #expect(sink.fileDescriptor == 2)
        #expect(sink.columns == 100)
        #expect(sink.rows == 30)
        #expect(sink.exitsOnInterrupt == false)
        #expect(sink.capabilities == [])
        let defaults = try #require(try registry().makeSink(named: "terminal") as? TerminalVideoSink)
        #expect(defaults.fileDescriptor == 1)
        #expect(defaults.columns == nil && defaults.rows == nil)
        #expect(defaults.exitsOnInterrupt)
    }

    @Test(
        "refuses an unknown key or a bad value with invalidArgument, naming it",
        arguments: [
            ("terminal:colour=yes", "no option 'colour'"),
            ("terminal:width=0", "width=0"),
            ("terminal:width=-3", "width=-3"),
            ("terminal:width=4097", "width=4097"),
            ("terminal:height=tall", "height=tall"),
            ("terminal:height=", "height="),
            ("terminal:fd=stdout", "fd=stdout"),
            ("terminal:fd=-1", "fd=-1"),
            ("terminal:fd=999999", "fd=999999"),
            ("terminal:sigint=maybe", "sigint=maybe"),
        ])
    func badOptions(specification: String, named: String) throws {
        let registry = try registry()
        let error = try #require(throws: MediaError.self) { try registry.makeSink(specification: specification) }
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains(named), "\(error.message)")
    }

    @Test("a size out of range made in code fails when the player builds the output, as invalidArgument")
    func badSizeInCode() {
        for sink in [TerminalVideoSink(columns: 0), TerminalVideoSink(rows: 5000)] {
            let error = #expect(throws: MediaError.self) { try sink.makeOutput() }
            #expect(error?.code == .invalidArgument)
        }
        let closed = TerminalVideoSink(fileDescriptor: 999_999)
        let error = #expect(throws: MediaError.self) { try closed.makeOutput() }
        #expect(error?.code == .invalidArgument)
    }
}
