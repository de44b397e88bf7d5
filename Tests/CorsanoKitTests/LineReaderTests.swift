import CorsanoKit
import Testing

@Suite struct LineReaderTests {
    /// What a reader produced, copied out (line bytes are only valid until the next call).
    enum Seen: Equatable {
        case line(Int, String)
        case tooLong(Int, Int)
    }

    static func collect(_ input: String, chunk: Int, readChunk: Int = 7, maxLine: Int = 16) throws -> [Seen] {
        let reader = LineReader(source: MemoryByteSource(Array(input.utf8), chunk: chunk),
                                chunkSize: readChunk, maxLineLength: maxLine)
        var out: [Seen] = []
        while let item = try reader.next() {
            switch item {
            case .line(let n, let bytes): out.append(.line(n, String(decoding: bytes, as: UTF8.self)))
            case .tooLong(let n, let count): out.append(.tooLong(n, count))
            }
        }
        return out
    }

    static let cases: [(String, [Seen])] = [
        ("", []),
        ("\n", [.line(1, "")]),
        ("a\nbc\n", [.line(1, "a"), .line(2, "bc")]),
        ("a\r\nbc\r\nlast", [.line(1, "a"), .line(2, "bc"), .line(3, "last")]),
        ("one\n\nthree", [.line(1, "one"), .line(2, ""), .line(3, "three")]),
        ("exactly-16-bytes\nx\n", [.line(1, "exactly-16-bytes"), .line(2, "x")]),
        ("exactly-16-bytes\r\nx", [.line(1, "exactly-16-bytes"), .line(2, "x")]),
        ("seventeen-bytes!!\nok\n", [.tooLong(1, 17), .line(2, "ok")]),
        ("a\n" + String(repeating: "z", count: 100) + "\nb\n", [.line(1, "a"), .tooLong(2, 100), .line(3, "b")]),
        ("a\n" + String(repeating: "z", count: 40), [.line(1, "a"), .tooLong(2, 40)]),
        (String(repeating: "y", count: 33) + "\n" + String(repeating: "w", count: 20) + "\nend",
         [.tooLong(1, 33), .tooLong(2, 20), .line(3, "end")]),
    ]

    @Test(arguments: cases.indices)
    func everyChunkSizeGivesTheSameLines(_ index: Int) throws {
        let (input, expected) = Self.cases[index]
        for chunk in 1...max(1, input.utf8.count) {
            for readChunk in [1, 3, 7, 64] {
                #expect(try Self.collect(input, chunk: chunk, readChunk: readChunk) == expected,
                        "chunk \(chunk), read \(readChunk)")
            }
        }
    }

    @Test func willReadRunsBeforeEachReadAndBufferedLinesNeedNone() throws {
        let reader = LineReader(source: MemoryByteSource(Array("a\nb\nc".utf8)), chunkSize: 64, maxLineLength: 16)
        var reads = 0
        reader.willRead = { reads += 1 }
        #expect(reader.bufferedLineAvailable == false)
        guard case .line(1, _) = try reader.next() else { Issue.record("no line 1"); return }
        #expect(reads == 1)
        #expect(reader.bufferedLineAvailable)
        guard case .line(2, _) = try reader.next() else { Issue.record("no line 2"); return }
        #expect(reads == 1)
        // "c" has no newline yet: reaching it needs another read (which finds the end).
        #expect(reader.bufferedLineAvailable == false)
        guard case .line(3, let bytes) = try reader.next() else { Issue.record("no line 3"); return }
        #expect(Array(bytes) == Array("c".utf8))
        #expect(reads == 2)
        #expect(try reader.next().map { _ in "item" } == nil)
    }

    @Test func willReadErrorsPropagate() {
        struct Stop: Error {}
        let reader = LineReader(source: MemoryByteSource(Array("a\n".utf8)))
        reader.willRead = { throw Stop() }
        #expect(throws: Stop.self) { try reader.next() }
    }
}
