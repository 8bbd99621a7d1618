import Foundation
import MediaEngine
import Testing

/// `VideoSinkOptions`: typed values from a sink's string options, and the errors for bad ones,
/// each `invalidArgument` naming the sink, the key and the value.
@Suite("Video sink options")
struct VideoSinkOptionsTests {
    private func make(_ values: [String: String]) -> VideoSinkOptions {
        VideoSinkOptions(values, sink: "test")
    }

    /// The error `read` throws, which must be invalidArgument with every part of `named` in its message.
    private func refusal<T>(
        _ named: [String], sourceLocation: SourceLocation = #_sourceLocation,
        _ read: () throws(MediaError) -> T
    ) {
        do {
            let value = try read()
            Issue.record("accepted: \(value)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == .invalidArgument, "\(error)", sourceLocation: sourceLocation)
            for part in named {
                #expect(
                    error.message.contains(part), "'\(part)' not in: \(error.message)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("absent keys read as nil; present ones as their types")
    func values() throws {
        let options = make([
            "n": "-42", "x": "2.5", "b": "Yes", "s": "a b,c", "p": "/tmp/out.png", "f": "RGBA", "e": "1e3",
        ])
        #expect(try options.int("missing") == nil)
        #expect(try options.double("missing", in: 0...1) == nil)
        #expect(try options.bool("missing") == nil)
        #expect(try options.string("missing") == nil)
        #expect(try options.path("missing") == nil)
        #expect(try options.choice("missing", of: PixelFormat.self) == nil)
        #expect(try options.int("n") == -42)
        #expect(try options.int("n", in: -100...0) == -42)
        #expect(try options.double("x", in: 0...10) == 2.5)
        #expect(try options.double("e", in: 0...1000) == 1000)
        #expect(try options.bool("b") == true)
        #expect(try options.string("s") == "a b,c")
        #expect(try options.path("p") == URL(fileURLWithPath: "/tmp/out.png"))
        #expect(try options.choice("f", of: PixelFormat.self) == .rgba)
        #expect(try options.choice("f", among: ["rgba": 4, "i420": 1]) == 4)
        #expect(try options.requiredInt("n") == -42)
        #expect(try options.requiredString("s") == "a b,c")
        #expect(options.contains("n") && !options.contains("missing"))
        for (text, value) in [("true", true), ("ON", true), ("1", true), ("false", false), ("no", false), ("0", false)]
        {
            #expect(try self.make(["b": text]).bool("b") == value, "\(text)")
        }
    }

    @Test("unknown keys are refused by name, first in alphabetical order, with the keys the sink takes")
    func unknownKeys() throws {
        let options = make(["width": "1", "zoom": "2", "colour": "red"])
        refusal(["test sink", "'colour'", "height, width"]) { () throws(MediaError) in
            try options.rejectUnknownKeys(allowed: ["width", "height"])
        }
        try options.rejectUnknownKeys(allowed: ["width", "zoom", "colour", "other"])
        try VideoSinkOptions([:], sink: "test").rejectUnknownKeys(allowed: [])
        refusal(["'a'", "takes none"]) { () throws(MediaError) in
            try VideoSinkOptions(["a": "1"], sink: "test").rejectUnknownKeys(allowed: [])
        }
    }

    @Test("bad whole numbers: words, fractions, spaces, signs alone, other digits, past Int, out of range")
    func badInts() throws {
        for bad in ["ten", "1.5", "1e3", " 5", "5 ", "0x10", "+", "-", "١٢", "99999999999999999999", "5,6"] {
            refusal(["n=\(bad)", "test sink", "not a whole number"]) { () throws(MediaError) in
                try make(["n": bad]).int("n")
            }
        }
        for bad in ["0", "-1", "4097", String(Int.max), String(Int.min)] {
            refusal(["n=\(bad)", "from 1 to 4096"]) { () throws(MediaError) in
                try make(["n": bad]).int("n", in: 1...4096)
            }
        }
        #expect(try make(["n": "4096"]).int("n", in: 1...4096) == 4096)
        #expect(try make(["n": "1"]).int("n", in: 1...4096) == 1)
    }

    @Test("doubles must be numbers, finite and in range: nan, inf and 1e300 are refused")
    func badDoubles() throws {
        for bad in ["nan", "NaN", "-nan", "inf", "-inf", "infinity", "1e400", "-1e400"] {
            refusal(["x=\(bad)"]) { () throws(MediaError) in
                try make(["x": bad]).double("x", in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
            }
        }
        for bad in ["1e300", "-0.5", "10.000001", "-1e300"] {
            refusal(["x=\(bad)", "from 0.0 to 10.0"]) { () throws(MediaError) in
                try make(["x": bad]).double("x", in: 0...10)
            }
        }
        for bad in ["two", "1,5", " 1", "1.2.3", "--1"] {
            refusal(["x=\(bad)", "not a number"]) { () throws(MediaError) in
                try make(["x": bad]).double("x", in: 0...10)
            }
        }
    }

    @Test("an empty value is refused by every accessor, never read as nil, zero, false or the current folder")
    func emptyValues() throws {
        let options = make(["k": ""])
        #expect(options.contains("k"))
        refusal(["k=", "empty"]) { () throws(MediaError) in try options.string("k") }
        refusal(["k=", "empty"]) { () throws(MediaError) in try options.requiredString("k") }
        refusal(["k=", "empty"]) { () throws(MediaError) in try options.int("k") }
        refusal(["k=", "empty"]) { () throws(MediaError) in try options.double("k", in: 0...1) }
        refusal(["k=", "empty"]) { () throws(MediaError) in try options.bool("k") }
        refusal(["k=", "empty"]) { () throws(MediaError) in try options.path("k") }
        refusal(["k=", "empty"]) { () throws(MediaError) in try options.choice("k", of: PixelFormat.self) }
    }

    @Test("missing required options are named; paths with control characters and unknown choices are refused")
    func requiredPathsAndChoices() throws {
        let options = make([
            "p": "/tmp/a\nb", "q": "/tmp/\u{0}x", "e": "/tmp/\u{1B}[2J", "f": "yuv9", "b": "maybe",
        ])
        refusal(["the test sink needs host="]) { () throws(MediaError) in try options.requiredString("host") }
        refusal(["the test sink needs port="]) { () throws(MediaError) in try options.requiredInt("port") }
        refusal(["the test sink needs file="]) { () throws(MediaError) in try options.requiredPath("file") }
        for key in ["p", "q", "e"] {
            refusal(["\(key)=", "control character"]) { () throws(MediaError) in try options.path(key) }
        }
        refusal(["f=yuv9", "bgra, i420, nv12, rgba"]) { () throws(MediaError) in
            try options.choice("f", of: PixelFormat.self)
        }
        refusal(["b=maybe", "true or false"]) { () throws(MediaError) in try options.bool("b") }
    }

    @Test("messages escape control characters and cut long values")
    func messages() throws {
        let options = make(["e": "\u{1B}[31mred", "long": String(repeating: "9", count: 5000)])
        refusal(["e=\\u{1B}[31mred"]) { () throws(MediaError) in try options.int("e") }
        do {
            _ = try options.int("long")
        } catch {
            #expect(!error.message.contains("\u{1B}"))
            #expect(error.message.count < 200, "\(error.message.count) characters")
        }
        #expect(options.invalidValue("e", "is wrong").message == "option e=\\u{1B}[31mred of the test sink is wrong")
        #expect(options.missingOption("host") == MediaError(.invalidArgument, "the test sink needs host="))
    }

    @Test("parsed from a specification: the sink's name; a key given twice is refused")
    func duplicates() throws {
        let options = try VideoSinkOptions(parsing: "images:folder=/tmp/a,times=1,2.5")
        #expect(options.sink == "images")
        #expect(options.values == ["folder": "/tmp/a", "times": "1,2.5"])
        for bad in ["x:a=1,a=2", "x:a=1,b=2,a=1", "x:a=,a="] {
            refusal(["given twice"]) { () throws(MediaError) in try VideoSinkOptions(parsing: bad) }
        }
    }

    @Test("the built-in sinks refuse keys they do not take and bad values, naming them")
    func builtInSinks() throws {
        let registry = VideoSinkRegistry(environment: [:])
        let folder = FileManager.default.temporaryDirectory.path
        let refused: [(String, [String: String], String)] = [
            ("null", ["sink": "true"], "no option 'sink'"),
            ("null", ["sync": "maybe"], "sync=maybe"),
            ("frames", ["fromat": "rgba"], "no option 'fromat'"),
            ("frames", ["format": "yuv9"], "format=yuv9"),
            ("frames", ["width": "0", "height": "10"], "width=0"),
            ("frames", ["width": "10", "height": "2147483648"], "height=2147483648"),
            ("frames", ["width": "100"], "width= and height= together"),
            ("window", ["display": ""], "display="),
            ("window", ["screen": "1"], "no option 'screen'"),
            ("images", [:], "needs folder="),
            ("images", ["folder": folder, "quality": "101"], "quality=101"),
            ("images", ["folder": folder, "format": "gif"], "format=gif"),
            ("images", ["folder": folder, "every": "2", "times": "1"], "not both"),
            ("images", ["folder": folder, "every": "1", "evrey": "2"], "no option 'evrey'"),
        ]
        for (name, values, named) in refused {
            refusal([named]) { () throws(MediaError) in try registry.makeSink(named: name, options: values) }
        }
        let images = try #require(
            try registry.makeSink(
                named: "images", options: ["folder": folder, "format": "JPG", "quality": "50", "every": "5"])
                as? ImageFileSink)
        #expect(images.format == .jpeg(quality: 50) && images.selection == .everyNthFrame(5))
        let frames = try #require(
            try registry.makeSink(named: "frames", options: ["format": "nv12", "width": "64", "height": "48"])
                as? FrameSink)
        #expect(frames.format == .nv12 && frames.size == VideoSize(width: 64, height: 48))
    }
}
