import CorsanoKit
import Foundation
import Synchronization
import Testing
import TestSupport

/// `--cuff FILE|-`: reading lines and `{"error":...}` lines, fed in every chunk size.
@Suite struct LineCuffSourceTests {
    static let input = """
        {"systolic":128,"diastolic":82,"pulse":66,"measuredAt":"2026-11-29T10:00:55Z","isManualEntry":false}

        {"systolic":"x","diastolic":82}
        {"systolic":124,"diastolic":80,"measuredAt":"2026-11-29T10:02:55Z"}
        {"error":"cuffDisconnected"}
        {"systolic":120,"diastolic":80,"pulse":60}
        """ + "\n"
    static let request = CuffRequest(attempt: 1, index: 1, requestedAt: Instant(secondsSinceEpoch: 0))

    static func drain(_ source: LineCuffSource, _ count: Int) async throws -> [CuffItem] {
        var out: [CuffItem] = []
        for _ in 0..<count { out.append(try await source.next(for: request)) }
        return out
    }

    @Test(arguments: [1, 2, 3, 7, 64, 4096])
    func readsEveryItemInOrderThenNoReading(chunk: Int) async throws {
        let source = LineCuffSource(bytes: MemoryByteSource(Array(Self.input.utf8), chunk: chunk), name: "cuff.jsonl",
                                    timeout: nil)
        let items = try await Self.drain(source, 6)
        #expect(items[0] == .reading(CuffReading(systolic: 128, diastolic: 82, pulse: 66,
                                                 measuredAt: RFC3339.parseInstant("2026-11-29T10:00:55Z"))))
        #expect(items[1] == .invalid(line: #"{"systolic":"x","diastolic":82}"#,
                                     problem: #"cuff.jsonl:3: field "systolic": not an integer"#))
        #expect(items[2] == .reading(CuffReading(systolic: 124, diastolic: 80, pulse: nil,
                                                 measuredAt: RFC3339.parseInstant("2026-11-29T10:02:55Z"))))
        #expect(items[3] == .failed(.cuffDisconnected))
        #expect(items[4] == .reading(CuffReading(systolic: 120, diastolic: 80, pulse: 60)))
        #expect(items[5] == .failed(.noReading))
        #expect(try await source.next(for: Self.request) == .failed(.noReading))
    }

    @Test func readerWaitsOnAFullChannelAndNothingIsLost() async throws {
        let text = (1...50).map { #"{"systolic":\#(100 + $0),"diastolic":70,"pulse":60}"# }.joined(separator: "\n")
        let source = LineCuffSource(bytes: MemoryByteSource(Array(text.utf8), chunk: 5), name: "-", timeout: nil, capacity: 2)
        let items = try await Self.drain(source, 51)
        #expect(items.prefix(50).map { if case .reading(let r) = $0 { r.systolic } else { 0 } } == Array(101...150))
        #expect(items.last == .failed(.noReading))
        // A source abandoned with its reader blocked on a full channel is released without a trap.
        let abandoned = LineCuffSource(bytes: MemoryByteSource(Array(text.utf8)), name: "-", timeout: nil, capacity: 1)
        _ = try await abandoned.next(for: Self.request)
    }

    @Test func unknownErrorTextIsKeptAndEmptyInputIsNoReading() async throws {
        let failing = LineCuffSource(bytes: MemoryByteSource(Array(#"{"error":"cuff overheated"}"#.utf8)), name: "-", timeout: nil)
        #expect(try await failing.next(for: Self.request) == .failed(.unknown("cuff overheated")))
        let empty = LineCuffSource(bytes: MemoryByteSource([]), name: "-", timeout: nil)
        #expect(try await empty.next(for: Self.request) == .failed(.noReading))
    }

    @Test func silentPipeTimesOutAsNoReading() async throws {
        let pipe = Pipe()
        let source = LineCuffSource(bytes: FileDescriptorSource(fd: pipe.fileHandleForReading.fileDescriptor),
                                    name: "-", timeout: .milliseconds(50))
        let began = ContinuousClock.now
        #expect(try await source.next(for: Self.request) == .failed(.noReading))
        #expect(ContinuousClock.now - began >= .milliseconds(50))
        // The timeout is per request: the same request has used its time up.
        #expect(try await source.next(for: Self.request) == .failed(.noReading))
        withExtendedLifetime(pipe) {}
    }

    /// A pipe's read end that counts the reads begun on it, so a test can wait until the source's
    /// reader is blocked on the silent pipe (the request is waiting) instead of sleeping.
    final class WatchedPipe: ByteSource, @unchecked Sendable {
        let pipe = Pipe()
        let readsBegun = Mutex(0)

        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            readsBegun.withLock { $0 += 1 }
            var source = FileDescriptorSource(fd: pipe.fileHandleForReading.fileDescriptor)
            return try source.read(into: buffer)
        }

        /// Waits (at most 20 s) until `count` reads have begun; false when they did not.
        func waitUntilReading(count: Int = 1) async throws -> Bool {
            try await Wait.until { self.readsBegun.withLock { $0 } >= count }
        }
    }

    @Test func waitOnSilentPipeEndsWhenTheTaskIsCancelled() async throws {
        let pipe = WatchedPipe()
        let source = LineCuffSource(bytes: pipe, name: "-", timeout: nil)
        let task = Task { try await source.next(for: Self.request) }
        #expect(try await pipe.waitUntilReading(), "the reader never started")
        task.cancel()
        await #expect(throws: CancellationError.self) { try try await task.value }
        withExtendedLifetime(pipe) {}
    }

    @Test func lineArrivingLaterOnAPipeIsDelivered() async throws {
        let pipe = WatchedPipe()
        let source = LineCuffSource(bytes: pipe, name: "-", timeout: .seconds(10))
        let task = Task { try await source.next(for: Self.request) }
        #expect(try await pipe.waitUntilReading(), "the reader never started")
        pipe.pipe.fileHandleForWriting.write(Data(#"{"systolic":121,"diastolic":79,"pulse":64}"#.utf8 + [0x0A]))
        #expect(try try await task.value == .reading(CuffReading(systolic: 121, diastolic: 79, pulse: 64)))
    }
}

@Suite struct ManualCuffEntryTests {
    static let now = Instant(secondsSinceEpoch: 1_795_000_000)

    @Test(arguments: ["120/80 72", " 120 / 80  72 ", "120/80\t72\r"])
    func typedReadingIsAManualEntryWithEnteredAtAndNoMeasuredAt(text: String) throws {
        let reading = try ManualCuffEntry.parse(text, enteredAt: Self.now)
        #expect(reading == CuffReading(systolic: 120, diastolic: 80, pulse: 72, measuredAt: nil, isManualEntry: true,
                                       provenance: [ProvenanceField(name: "enteredAt", rawJSON: #""2026-11-18T11:06:40Z""#)]))
    }

    @Test func badTextNamesTheProblem() {
        #expect(throws: ManualCuffEntry.Problem.notAReading("120 80 72")) { try ManualCuffEntry.parse("120 80 72", enteredAt: Self.now) }
        #expect(throws: ManualCuffEntry.Problem.notAReading("120/80")) { try ManualCuffEntry.parse("120/80", enteredAt: Self.now) }
        #expect(throws: ManualCuffEntry.Problem.implausible(ValidationIssue(field: "pulse", message: "999 bpm outside 20-250"))) {
            try ManualCuffEntry.parse("120/80 999", enteredAt: Self.now)
        }
        #expect(throws: ManualCuffEntry.Problem.implausible(
            ValidationIssue(field: "systolic", message: "80 mmHg not above diastolic 120 mmHg"))) {
            try ManualCuffEntry.parse("80/120 70", enteredAt: Self.now)
        }
        #expect(throws: ManualCuffEntry.Problem.notAReading("99999999999999999999/80 70")) {
            try ManualCuffEntry.parse("99999999999999999999/80 70", enteredAt: Self.now)
        }
    }
}
