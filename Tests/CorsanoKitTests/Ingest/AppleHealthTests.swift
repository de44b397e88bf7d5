import CorsanoKit
import Foundation
import FoundationXML
import Testing

/// Issue 30: Apple Health export.xml, read by our own scanner (cross-checked against Foundation's
/// XMLParser here, tests only), blood-pressure correlations once each, the pulse join.
@Suite struct AppleHealthTests {
    static let device = "<<HKDevice: 0x283c1c0a0>, name:BP7450, manufacturer:OMRON HEALTHCARE, model:BP7450, localIdentifier:BP7450-0042>"
    static let typed = #"{"systolic":131,"diastolic":84,"pulse":72,"measuredAt":"2025-06-08T17:14:00Z","isManualEntry":true,"sourceName":"Health"}"#
    static let omron = #"{"systolic":127,"diastolic":81,"pulse":66,"measuredAt":"2026-11-20T12:30:00Z","isManualEntry":false,"sourceName":"OMRON connect","device":"\#(device)"}"#
    static let beurer = #"{"systolic":118,"diastolic":76,"measuredAt":"2026-11-21T13:01:00Z","isManualEntry":false,"sourceName":"Beurer HealthCoach"}"#

    /// Ingests `bytes` fed `chunk` bytes a read, with random access (a regular file) or without (stdin).
    static func run(_ bytes: [UInt8], chunk: Int = .max, format: IngestFormat? = nil, regularFile: Bool = true)
        throws -> (RecordingSink, CuffIngester) {
        let sink = RecordingSink()
        let ingester = CuffIngester(normalizer: IngestNormalizer(basis: NaiveTimeBasis(anchor: nil, zone: IngestRun.utc)), sink: sink)
        try ingester.ingest(MemoryByteSource(bytes, chunk: chunk), name: "export.xml", format: format,
                            file: regularFile ? MemoryRandomAccess(bytes) : nil)
        return (sink, ingester)
    }

    @Test func fixtureCorrelationsOnceEachWithOffsetsSourcesAndThePulseJoin() throws {
        let bytes = try Fixtures.bytes("applehealth/export.xml")
        #expect(IngestFormat.detect(document: bytes.prefix(4096)) == .applehealth)
        for chunk in [1, 3, 64, 4096, .max] {
            for format in [nil, IngestFormat.applehealth] {
                let (sink, ingester) = try Self.run(bytes, chunk: chunk, format: format)
                // The top-level copies of the six correlation records are not readings; the watch's
                // heart rate at the OMRON instant is another source's and is not its pulse.
                #expect(sink.lines == [Self.typed, Self.omron, Self.beurer], "chunk \(chunk)")
                #expect(sink.rejects.isEmpty)
                #expect(ingester.counts.summary
                        == "read 19, written 3, skipped 16 (copies of correlation records: 6, not blood pressure: 10), dropped 0, rejected 0, manual 1")
                #expect(sink.notes == ["export.xml:1: pulse from a heart-rate record of the same source at the same instant: 2 of 3 readings"])
            }
        }
    }

    @Test func fromAPipeThereIsNoPulseJoinAndTheRunSaysSo() throws {
        let bytes = try Fixtures.bytes("applehealth/export.xml")
        let (sink, _) = try Self.run(bytes, chunk: 100, regularFile: false)
        #expect(sink.lines == [Self.typed.replacing(#""pulse":72,"#, with: ""), Self.omron.replacing(#""pulse":66,"#, with: ""), Self.beurer])
        #expect(sink.notes.count == 1 && sink.notes[0].hasPrefix("export.xml:1: pulse not joined for 3 readings (read from a pipe"))
    }

    @Test func heartRatesOfOneInstantThatDisagreeGiveNoPulse() throws {
        var text = String(decoding: try Fixtures.bytes("applehealth/export.xml"), as: UTF8.self)
        let second = #" <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="OMRON connect" unit="count/min" startDate="2026-11-20 07:30:00 -0500" endDate="2026-11-20 07:30:00 -0500" value="70"/>"#
        text = text.replacing(" <ActivitySummary", with: second + "\n <ActivitySummary")
        let (sink, _) = try Self.run(Array(text.utf8))
        #expect(sink.lines[1] == Self.omron.replacing(#""pulse":66,"#, with: ""))
        #expect(sink.notes.last?.hasSuffix("1 of 3 readings; 1 left without: heart-rate records of that instant disagree") == true)
    }

    @Test func aCorrelationWithoutItsDiastolicIsRejectedWithItsLine() throws {
        let doc = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Qardio" startDate="2026-11-21 08:00:00 +0000" endDate="2026-11-21 08:00:00 +0000">
              <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Qardio" unit="mmHg" startDate="2026-11-21 08:00:00 +0000" endDate="2026-11-21 08:00:00 +0000" value="121"/>
             </Correlation>
             <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Qardio" startDate="2026-11-21 25:00:00 +0000" endDate="2026-11-21 08:00:00 +0000">
              <Record type="HKQuantityTypeIdentifierBloodPressureSystolic" sourceName="Qardio" unit="mmHg" startDate="x" endDate="x" value="121"/>
              <Record type="HKQuantityTypeIdentifierBloodPressureDiastolic" sourceName="Qardio" unit="mmHg" startDate="x" endDate="x" value="81"/>
             </Correlation>
            </HealthData>
            """
        let (sink, ingester) = try Self.run(Array(doc.utf8))
        #expect(sink.lines.isEmpty)
        #expect(sink.rejects.map(\.message) == ["export.xml:3: diastolic: the correlation has no diastolic record",
                                                "export.xml:6: startDate: '2026-11-21 25:00:00 +0000' is not YYYY-MM-DD HH:MM:SS ±HHMM"])
        #expect(ingester.counts.rejected == 2)
    }

    @Test(arguments: [
        ("<HealthData><Record type=\"a&nbsp;\"/></HealthData>", 1, "entity &nbsp; is not one of XML's five (the export declares none)"),
        ("<HealthData>\n<![CDATA[x]]></HealthData>", 2, "a CDATA section (not in an export's structure)"),
        ("<HealthData>\n\n hello</HealthData>", 3, "text content 'h' (an export holds only elements and attributes)"),
        ("<HealthData>\n <Record>\n</HealthData>", 3, "end tag </HealthData> does not close <Record>"),
        ("<HealthData>\n <Record type=\"x\">", 2, "the document ends inside <Record> (a truncated export?)"),
        ("<!DOCTYPE HealthData [\n<!ENTITY a \"b\">\n]>\n<HealthData/>", 2, "an entity declaration (entities other than XML's five are not read)"),
        ("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<HealthData/>", 1, "declared encoding 'utf-16' (only UTF-8 exports are read)"),
        ("<HealthData a='1' a='2'/>", 1, "attribute a given twice"),
        ("<Export/>", 1, "root element <Export>, not <HealthData>: not an Apple Health export"),
        ("<HealthData>\r\n<Record\r\ntype=\"x\" a=\"<\"/></HealthData>", 2, "'<' inside an attribute value"),
    ])
    func constructsItDoesNotHandleAreRefusedWithTheirLine(_ doc: String, _ line: Int, _ reason: String) {
        #expect(throws: IngestError.malformed(source: "export.xml", line: line, detail: reason)) {
            try Self.run(Array(doc.utf8), chunk: 2, format: .applehealth)
        }
    }

    /// Found by the fuzz target: a comment whose end is searched across a refill (the buffer
    /// compacted) was searched from a stale offset and ran past its `-->`.
    @Test func aCommentSpanningRefillsEndsAtItsOwnEnd() throws {
        let doc = Array(("<HealthData>\n<!-- " + String(repeating: "note ", count: 2000) + "-->\n<!ELEMENT x>\n<!-- -->\n</HealthData>\n").utf8)
        for chunk in [1, 3, 700, .max] {
            #expect(throws: HealthXMLError(line: 3, reason: "unexpected markup after '<!'"), "chunk \(chunk)") {
                _ = try AppleHealthReader.readBloodPressure(MemoryByteSource(doc, chunk: chunk), bufferSize: 4096) { _ in }
            }
        }
    }

    @Test func stampsCarryTheirOffset() {
        #expect(AppleHealthStamp.instant("2023-07-23 09:24:00 -0400") == RFC3339.parseInstant("2023-07-23T13:24:00Z"))
        #expect(AppleHealthStamp.instant("2023-07-23 09:24:00 +0530") == RFC3339.parseInstant("2023-07-23T03:54:00Z"))
        for bad in ["2023-07-23 09:24:00", "2023-07-23T09:24:00 -0400", "2023-02-29 09:24:00 +0000", "2023-07-23 09:24:60 +0000",
                    "2023-07-23 09:24:00 +1900", "2023-07-23 09:24:00 -04:00"] {
            #expect(AppleHealthStamp.instant(bad) == nil, "\(bad)")
        }
    }

    // MARK: Cross-check against Foundation's XMLParser

    /// Start and end events as text: `+Name a=v b=w` (attributes sorted: XMLParser hands a
    /// dictionary), `-Name`.
    static func scannerEvents(_ bytes: [UInt8], chunk: Int) throws -> [String] {
        var scanner = HealthXMLScanner(source: MemoryByteSource(bytes, chunk: chunk))
        defer { scanner.deallocate() }
        var out: [String] = []
        var names: [String] = []
        while let event = try scanner.next() {
            switch event {
            case .start(let selfClosing):
                let name = String(decoding: scanner.name, as: UTF8.self)
                let attrs = (0..<scanner.attributeCount).map { (scanner.attributeName($0), scanner.value($0)) }
                    .sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }
                out.append((["+" + name] + attrs).joined(separator: " "))
                if selfClosing { out.append("-" + name) } else { names.append(name) }
            case .end:
                out.append("-" + names.removeLast())
            }
        }
        return out
    }

    final class Recorder: NSObject, XMLParserDelegate {
        var out: [String] = []
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String]) {
            out.append((["+" + name] + attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " "))
        }
        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            out.append("-" + name)
        }
    }

    /// XMLParser's events for `bytes`. swift-corelibs-foundation's XMLParser crashes in its
    /// DTD declaration callbacks (a NULL C string), so it is given the document without its
    /// DOCTYPE (the scanner reads the whole; a DOCTYPE yields no events).
    static func foundationEvents(_ bytes: [UInt8]) -> [String]? {
        var bytes = bytes
        if let start = bytes.firstRange(of: Array("<!DOCTYPE".utf8))?.lowerBound,
           let end = bytes[start...].firstRange(of: Array("]>".utf8))?.upperBound {
            bytes.removeSubrange(start..<end)
        }
        let parser = XMLParser(data: Data(bytes))
        let recorder = Recorder()
        parser.delegate = recorder
        return parser.parse() ? recorder.out : nil
    }

    /// Documents with the constructs an export may hold: the real fixture, then entities and
    /// character references, single quotes, whitespace around `=` and inside tags, CR LF and
    /// tabs inside values, comments and processing instructions, non-ASCII values.
    static let crossCheckDocuments: [String] = [
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<!-- c -->\r\n<HealthData locale='de_DE'>\r\n <A x = \"1\"\ty='&lt;&amp;&gt;&quot;&apos;'/>\r\n"
            + " <B v=\"&#65;&#x42;&#x1F600;\" w=\"a\r\nb\tc\nd\"><C/><?pi data?><!-- x - y --></B>\n <D s=\"Sam’s Watch\" e=\"\"></D  >\n</HealthData>\n",
        "\u{FEFF}<HealthData><Record type=\"HKQuantityTypeIdentifierHeartRate\" value=\"72\"><MetadataEntry key=\"k\" value=\"'\"/></Record></HealthData>",
    ]

    @Test func scannerAgreesWithFoundationsXMLParser() throws {
        let documents = [try Fixtures.bytes("applehealth/export.xml")] + Self.crossCheckDocuments.map { Array($0.utf8) }
        for (i, doc) in documents.enumerated() {
            let expected = try #require(Self.foundationEvents(doc), "document \(i)")
            for chunk in [1, 2, 5, 64, .max] {
                #expect(try Self.scannerEvents(doc, chunk: chunk) == expected, "document \(i), chunk \(chunk)")
            }
        }
    }

    /// Random documents from the export's pieces, well-formed or not: wherever the scanner reads
    /// one, XMLParser gives the same events. (Where the scanner refuses, XMLParser is no judge:
    /// on Linux it recovers from a mismatched end tag or an unknown entity and reports success.)
    @Test func randomDocumentsTheScannerReadsAgreeWithXMLParser() throws {
        var rng = SplitMix64(seed: 30)
        let pieces = ["<A>", "</A>", "<B/>", "<C x=\"1\">", "</C>", " ", "\n", "<D y='&amp;'/>", "<E z=\"&#10;\"/>",
                      "<!-- c -->", "<F a=\"1\" b = '2'\n/>", "&amp;", "<G h=\"&bad;\"/>", "x", "<H\ti=\"<\"/>", "</B>"]
        var agreed = 0
        for _ in 0..<400 {
            var body = ""
            for _ in 0..<Int.random(in: 0...8, using: &rng) { body += pieces[Int.random(in: 0..<pieces.count, using: &rng)] }
            let doc = Array(("<HealthData>" + body + "</HealthData>").utf8)
            let expected = Self.foundationEvents(doc)
            let ours = try? Self.scannerEvents(doc, chunk: 3)
            if let ours {
                #expect(ours == expected, "\(String(decoding: doc, as: UTF8.self))")
                agreed += 1
            }
        }
        #expect(agreed > 50)
    }
}
