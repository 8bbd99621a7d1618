import Foundation
import MediaEngineXML
import Testing

/// `XMLTree` (libxml2 through CMediaEngineXML) on well-formed documents and on hostile ones: each
/// either reads correctly or is refused with a typed `XMLTreeError`, and nothing is printed.
@Suite("XML tree")
struct XMLTreeTests {
    private static let limits = XMLTree.Limits(maximumBytes: 64 << 10, maximumDepth: 16, maximumNodes: 1000)

    private static func parse(_ text: String, limits: XMLTree.Limits = limits) throws(XMLTreeError) -> XMLTreeElement {
        try XMLTree.parse(Data(text.utf8), limits: limits)
    }

    private static func refusal(_ bytes: Data, limits: XMLTree.Limits = limits) -> XMLTreeError? {
        #expect(throws: XMLTreeError.self) { try XMLTree.parse(bytes, limits: limits) }
    }

    private static func refusal(_ text: String, limits: XMLTree.Limits = limits) -> XMLTreeError? {
        refusal(Data(text.utf8), limits: limits)
    }

    @Test("elements by local name, attributes as written, text and CDATA in order, references replaced")
    func wellFormed() throws {
        let root = try Self.parse(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <v:VAST xmlns:v="http://www.iab.com/VAST" xmlns:x="urn:x" version="4.1" x:extra=" a&amp;b ">
              <v:Ad id="1">one &lt;two&gt; &#x263A; <![CDATA[ <three> ]]>four</v:Ad>
              <Empty/>
            </v:VAST>
            """)
        #expect(root.name == "VAST")
        #expect(root.attributes == ["version": "4.1", "x:extra": " a&b "])
        #expect(root.attribute("x:extra") == "a&b")
        #expect(root.attribute("missing") == nil)
        #expect(root.children.map(\.name) == ["Ad", "Empty"])
        let ad = try #require(root.child(named: "Ad"))
        #expect(ad.attributes == ["id": "1"])
        #expect(ad.text == "one <two> \u{263A}  <three> four")
        #expect(root.child(named: "Empty") == XMLTreeElement(name: "Empty"))
        #expect(root.children(named: "Ad").count == 1)
    }

    @Test("processing instructions (with and without data) and comments are skipped, not a crash")
    func processingInstructions() throws {
        let root = try Self.parse("<?pi?><a><?pi?><!-- c --><b>x<?pi data?>y</b><?other a='1'?></a><?pi?>")
        #expect(root == XMLTreeElement(name: "a", children: [XMLTreeElement(name: "b", text: "xy")]))
    }

    @Test(
        "a DOCTYPE is refused before any of it is read: DTD, external DTD, external entity, billion laughs",
        arguments: [
            "<!DOCTYPE a><a/>",
            "<!DOCTYPE a SYSTEM \"http://127.0.0.1:9/a.dtd\"><a/>",
            "<!DOCTYPE a PUBLIC \"-//A//DTD A//EN\" \"file:///etc/passwd\"><a/>",
            "<!DOCTYPE a [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><a>&e;</a>",
            "<!DOCTYPE a [<!ENTITY % p SYSTEM \"file:///etc/passwd\"> %p;]><a/>",
            "<!DOCTYPE a [<!ELEMENT a (#PCDATA)><!ATTLIST a b CDATA \"default\">]><a/>",
            billionLaughs,
        ])
    func documentType(_ text: String) throws {
        let clock = ContinuousClock()
        let start = clock.now
        let error = try #require(Self.refusal(text))
        #expect(error.reason == .documentType)
        #expect(error.description.contains("declares a DTD"), "\(error)")
        #expect(error.line >= 1 && error.column > 1)
        #expect(!error.description.contains("root:"))
        // Nothing expanded: a billion laughs would take seconds and gigabytes.
        #expect(clock.now - start < .seconds(1))
    }

    private static let billionLaughs = """
        <?xml version="1.0"?>
        <!DOCTYPE lolz [
         <!ENTITY lol "lol">
         <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
         <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
         <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
         <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
         <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
         <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
         <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
         <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
         <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
        ]>
        <lolz>&lol9;</lolz>
        """

    @Test("an entity reference other than XML's five and character references is malformed (no DTD declares it)")
    func undeclaredEntity() throws {
        let error = try #require(Self.refusal("<a>&e;</a>"))
        #expect(error.reason == .malformed)
        #expect(error.description.contains("Entity 'e' not defined"), "\(error)")
        #expect(error.line == 1)
    }

    @Test("deeper than the bound is refused while parsing; at the bound it reads")
    func depth() throws {
        func nested(_ depth: Int) -> String {
            String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        }
        var element = try Self.parse(nested(16))
        var depth = 1
        while let child = element.children.first {
            element = child
            depth += 1
        }
        #expect(depth == 16)
        let error = try #require(Self.refusal(nested(17)))
        #expect(error.reason == .tooDeep)
        #expect(error.description.contains("deeper than the 16 levels allowed"), "\(error)")
        // Past libxml2's own 256 (its error is a generic one): still the engine's typed refusal.
        let deepest = XMLTree.Limits(maximumBytes: 1 << 20, maximumDepth: 1000, maximumNodes: 100_000)
        #expect(Self.refusal(nested(10_000), limits: deepest)?.reason == .tooDeep)
    }

    @Test("larger than the bound is refused unread; at the bound it reads")
    func size() throws {
        let small = XMLTree.Limits(maximumBytes: 100, maximumDepth: 16, maximumNodes: 1000)
        let fits = "<a>" + String(repeating: "x", count: 93) + "</a>"
        #expect(fits.utf8.count == 100)
        #expect(try Self.parse(fits, limits: small).text.count == 93)
        let error = try #require(Self.refusal(fits + " ", limits: small))
        #expect(error.reason == .tooLarge)
        #expect(error.description == "the document is larger than the 100 bytes allowed")
        #expect(throws: XMLTreeError(.tooLarge, detail: "100")) { try XMLTree.parse(fits + " ", limits: small) }
    }

    @Test("more elements and attributes than the bound are refused while parsing")
    func nodes() throws {
        let few = XMLTree.Limits(maximumBytes: 1 << 20, maximumDepth: 16, maximumNodes: 10)
        #expect(
            try Self.parse("<a b='1' c='2'>" + String(repeating: "<d/>", count: 7) + "</a>", limits: few)
                .children.count == 7)
        #expect(
            Self.refusal("<a b='1' c='2'>" + String(repeating: "<d/>", count: 8) + "</a>", limits: few)?
                .reason == .tooManyNodes)
        #expect(
            Self.refusal("<a" + (0..<11).map { " a\($0)='x'" }.joined() + "/>", limits: few)?.reason == .tooManyNodes)
    }

    @Test("no bytes, or only white space, is empty", arguments: ["", "  \n\t "])
    func empty(_ text: String) throws {
        let error = try #require(Self.refusal(text))
        #expect(error.reason == .empty)
        #expect(error.description.hasSuffix("the document is empty"))
    }

    @Test(
        "not well-formed XML is malformed, with where and libxml2's reason",
        arguments: [
            "not xml", "<a>", "<a></b>", "<a/>trailing", "<a/><b/>", "<a b='1' b='2'/>", "<a>\u{0}</a>",
            "<?xml version=\"1.0\" encoding=\"no-such-encoding\"?><a/>", "<a x:y='1' z:y='2'/>x",
        ])
    func malformed(_ text: String) throws {
        let error = try #require(Self.refusal(text))
        #expect(error.reason == .malformed, "\(error)")
        #expect(error.line >= 1 && !error.detail.isEmpty, "\(error)")
    }

    @Test("names and text that are not UTF-8: malformed without a declaration, read in the encoding one names")
    func encodings() throws {
        // FoundationXML trapped on this name (`Linea\xCFr`): libxml2 reports the byte, and reads on.
        let notUTF8 = Data("<VAST><v:Linea".utf8) + Data([0xCF]) + Data("r xmlns:v='urn:v'/></VAST>".utf8)
        let error = try #require(Self.refusal(notUTF8))
        #expect(error.reason == .malformed)
        #expect(error.detail.contains("not proper UTF-8"), "\(error)")

        let latin1 =
            Data("<?xml version='1.0' encoding='ISO-8859-1'?><Linea".utf8) + Data([0xCF])
            + Data("r a='".utf8) + Data([0xE9]) + Data("'>caf".utf8) + Data([0xE9]) + Data("</Linea".utf8)
            + Data([0xCF]) + Data("r>".utf8)
        let root = try XMLTree.parse(latin1, limits: Self.limits)
        #expect(root == XMLTreeElement(name: "Linea\u{CF}r", attributes: ["a": "\u{E9}"], text: "caf\u{E9}"))

        let windows1252 =
            Data("<?xml version='1.0' encoding='windows-1252'?><a>".utf8) + Data([0x80]) + Data("</a>".utf8)
        #expect(try XMLTree.parse(windows1252, limits: Self.limits).text == "\u{20AC}")
        let utf16 = try #require("<a b='\u{263A}'>\u{1F600}</a>".data(using: .utf16))  // with a byte order mark
        #expect(try XMLTree.parse(utf16, limits: Self.limits).text == "\u{1F600}")

        // A string is UTF-8 whatever its declaration says.
        let declared = "<?xml version='1.0' encoding='ISO-8859-1'?><a>caf\u{E9}</a>"
        #expect(try XMLTree.parse(declared, limits: Self.limits).text == "caf\u{E9}")
        let utf16Declared = "<?xml version='1.0' encoding='UTF-16'?><a>\u{263A}</a>"
        #expect(try XMLTree.parse(utf16Declared, limits: Self.limits).text == "\u{263A}")
    }

    @Test("libxml2 prints nothing on standard error for bad documents")
    func silent() throws {
        let documents = [
            "<a></b>", "<a>&e;</a>", "<?xml version=\"1.0\" encoding=\"no-such-encoding\"?><a/>",
            "<!DOCTYPE a [<!ENTITY e 'x'>]><a>&e;</a>", "<a xmlns:x='urn:x'><y:b/></a>", "<a b='1' b='2'/>",
        ]
        let output = try Self.standardError {
            for document in documents { _ = try? Self.parse(document) }
            _ = try? XMLTree.parse(Data("<a>".utf8) + Data([0xFF, 0xFE]) + Data("</a>".utf8), limits: Self.limits)
        }
        // The test runner's own lines may be there (other tests run at the same time, and their
        // arguments are printed: a document with "no-such-encoding" is one): none of libxml2's,
        // whose every message names its domain and level ("Entity: line 1: parser error :
        // Opening and ending tag mismatch: a line 1 and b", "namespace error :", "warning :").
        for word in ["parser error", "namespace error", "error :", "warning :"] {
            #expect(!output.contains(word), "\(output)")
        }
    }

    @Test("parses from many threads at once, each its own document")
    func concurrent() async throws {
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let good = (try? Self.parse("<a i='\(index)'><b>\(index)</b></a>"))?.child(named: "b")?.text
                    let bad = Self.refusal("<!DOCTYPE a [<!ENTITY e 'x'>]><a i='\(index)'>&e;</a>")?.reason
                    return good == "\(index)" && bad == .documentType
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 64 && results.allSatisfy { $0 })
    }

    /// What the process wrote to standard error (descriptor 2) while `body` ran.
    private static func standardError(_ body: () throws -> Void) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("xml-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forWritingTo: file)
        let saved = dup(2)
        fflush(nil)
        dup2(handle.fileDescriptor, 2)
        defer {
            fflush(nil)
            dup2(saved, 2)
            close(saved)
            try? handle.close()
        }
        try body()
        fflush(nil)
        return String(decoding: try Data(contentsOf: file), as: UTF8.self)
    }
}
