/// The lines of one BLE capture in order (`cuff ingest --from ble`): each `BLECaptureLine`
/// decoded, 0x2B36 record segments put together across lines, nRF Connect log text passed over.
///
/// State is per input: the record being assembled, whether the input is an nRF Connect log
/// (then a line that is neither log text nor a capture line, right after log text that carried
/// no value, continues that entry: nRF Connect writes a service list or a parsed value over
/// several lines; a line that reads as hex is always read, never passed over), and
/// which other characteristics were already named (each is named once, every line counted).
public struct BLECaptureReader: Sendable {
    /// What one line is.
    public enum Outcome: Equatable, Sendable {
        /// A record for the ingester (a reading, a counted skip, none), or why the line is not one.
        case record(Result<IngestRecord, IngestIssue>)
        /// A counted skip with a message the first time (naming the characteristic).
        case skipped(SkipReason, message: String?)
    }

    private var assembler = BloodPressureRecordAssembler()
    private var recordLine: Int?
    private var inLog = false
    private var afterValue = false
    private var named: Set<String> = []

    /// Creates a reader at the start of an input.
    public init() {}

    /// The outcomes of line `number` (usually one; two when it also dropped an unfinished record).
    public mutating func read(_ line: some Collection<UInt8>, number: Int) -> [Outcome] {
        let parsed: BLECaptureLine
        do {
            parsed = try BLECaptureLine.parse(line)
        } catch {
            if inLog, !afterValue { return [.record(.success(.none))] }
            return [.record(.failure(IngestIssue(error.reason)))]
        }
        var receivedAt: String?
        switch parsed {
        case .blank:
            return [.record(.success(.none))]
        case .logText:
            inLog = true
            afterValue = false
            return [.record(.success(.none))]
        case .measurement(_, let at), .untagged(_, let at), .enhancedMeasurement(_, let at), .recordSegment(_, let at):
            receivedAt = at
        case .intermediateCuffPressure, .otherCharacteristic:
            break
        }
        afterValue = inLog
        do {
            switch parsed {
            case .measurement(let payload, _):
                return [.record(.success(.reading(try BLEValueReader.reading(payload, enhanced: false, receivedAt: receivedAt))))]
            case .untagged(let payload, _):
                let enhanced = BLEPayloadLayout.of(payload) == .enhancedMeasurement
                return [.record(.success(.reading(try BLEValueReader.reading(payload, enhanced: enhanced, receivedAt: receivedAt))))]
            case .enhancedMeasurement(let payload, _):
                return [.record(.success(.reading(try BLEValueReader.reading(payload, enhanced: true, receivedAt: receivedAt))))]
            case .intermediateCuffPressure:
                return [.record(.success(.skipped(.intermediateCuffPressure)))]
            case .otherCharacteristic(let uuid):
                return [other(uuid)]
            case .recordSegment(let payload, _):
                return segment(payload, number: number, receivedAt: receivedAt)
            case .blank, .logText:
                return [.record(.success(.none))]
            }
        } catch {
            return [.record(.failure(Self.issue(error)))]
        }
    }

    /// Why the input ended inside a record, with the line of its first segment; nil when it did not.
    public mutating func finish() -> (line: Int, issue: IngestIssue)? {
        guard assembler.isPending, let line = recordLine else { return nil }
        assembler.reset()
        return (line, IngestIssue("segment: the input ended before the last segment of this record (0x2B36)"))
    }

    private mutating func segment(_ payload: [UInt8], number: Int, receivedAt: String?) -> [Outcome] {
        var out: [Outcome] = []
        let record: BloodPressureRecord?
        do {
            record = try assembler.add(payload)
        } catch {
            if let dropped = assembler.takeDropped() { out.append(.record(.failure(IngestIssue(dropped)))) }
            return out + [.record(.failure(IngestIssue(error.reason)))]
        }
        if let dropped = assembler.takeDropped() { out.append(.record(.failure(IngestIssue(dropped)))) }
        if payload.first.map({ $0 & 0x01 != 0 }) == true { recordLine = number }
        guard let record else { return out + [.record(.success(.none))] }
        do {
            switch try BLEValueReader.outcome(of: record, receivedAt: receivedAt) {
            case .reading(let reading): return out + [.record(.success(.reading(reading)))]
            case .intermediateCuffPressure: return out + [.record(.success(.skipped(.intermediateCuffPressure)))]
            case .otherCharacteristic(let uuid): return out + [other(uuid)]
            }
        } catch {
            return out + [.record(.failure(Self.issue(error)))]
        }
    }

    private mutating func other(_ uuid: String) -> Outcome {
        let first = named.insert(uuid).inserted
        return .skipped(.otherCharacteristic, message: first ? "values of \(uuid) skipped: not a blood pressure characteristic" : nil)
    }

    static func issue(_ error: any Error) -> IngestIssue {
        switch error {
        case let e as BLEDecodeError: return IngestIssue(e.reason)
        case let e as IngestIssue: return e
        case let e as BLECaptureLine.ParseError: return IngestIssue(e.reason)
        default: return IngestIssue("\(error)")
        }
    }
}
