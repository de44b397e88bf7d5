@testable import CorsanoKit
import Foundation
import Synchronization
import Testing

/// The bridge's connection reads through the one line splitter: the same lines as `LineReader`
/// for every chunk size (CRLF, an unterminated last line delivered, over-long lines reported and
/// skipped), and a served session answers an over-long line with an error and reads on.
@Suite struct LineConnectionTests {
    /// Everything a connection hands on until it closes.
    static func inbound(_ bytes: [UInt8], chunk: Int, maxLine: Int) async -> [LineConnection.Inbound] {
        let connection = LineConnection(reading: bytes, chunk: chunk, maxLine: maxLine, writeFD: -1)
        let seen = Mutex<[LineConnection.Inbound]>([])
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            connection.start(onInbound: { item in seen.withLock { $0.append(item) } }, onClose: { done.resume() })
        }
        connection.close()
        return seen.withLock { $0 }
    }

    @Test(arguments: LineReaderTests.cases.indices)
    func everyChunkSizeGivesLineReadersLines(_ index: Int) async {
        let (input, lines) = LineReaderTests.cases[index]
        let expected = lines.map { seen -> LineConnection.Inbound in
            switch seen {
            case .line(_, let text): return .line(text)
            case .tooLong(let number, let count): return .tooLong(line: number, byteCount: count)
            }
        }
        for chunk in 1...max(1, input.utf8.count) {
            #expect(await Self.inbound(Array(input.utf8), chunk: chunk, maxLine: 16) == expected, "chunk \(chunk)")
        }
    }

    /// The served simulator over the same reader: CRLF, a too-long line answered -32600, and a
    /// last request without a newline still answered.
    @Test func aServedSessionAnswersEveryLineInEveryChunkSize() async throws {
        let hello = #"{"jsonrpc":"2.0","id":1,"method":"getPlan","params":{}}"#
        let junk = String(repeating: "x", count: 150)
        let last = #"{"jsonrpc":"2.0","id":2,"method":"identify","params":{}}"#
        let input = Array((hello + "\r\n" + junk + "\n" + last).utf8)
        let expected = [
            #"{"jsonrpc":"2.0","id":1,"result":{"plan":"monitoring"}}"#,
            #"{"jsonrpc":"2.0","id":2,"result":{"serial":"SIM-287-0001","model":"287-2","firmware":"7.4","simulated":true}}"#,
            #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"line 2 of 150 bytes exceeds the 100-byte limit"}}"#,
        ]
        for chunk in [1, 2, 3, 5, 8, 13, 21, 34, 55, 56, 57, 58, 89, 144, 233, input.count] {
            var fds: [Int32] = [-1, -1]
            #expect(pipe(&fds) == 0)
            let connection = LineConnection(reading: input, chunk: chunk, maxLine: 100, writeFD: fds[1])
            await BridgeServer(scenario: Scenario(), seed: 1).serve(connection)
            // The connection owns the write end: its (idempotent) close() closes it once. Closing
            // fds[1] here as well was a double close that could hit a descriptor another test had
            // just been given (a flake seen in full-suite runs).
            connection.close()
            let output = FileHandle(fileDescriptor: fds[0], closeOnDealloc: true).readDataToEndOfFile()
            let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
            #expect(lines.sorted() == expected.sorted(), "chunk \(chunk)")
        }
    }
}
