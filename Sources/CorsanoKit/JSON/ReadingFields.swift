#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fields of a reading line as they are found, shared by the fast and the full parser so both
/// apply the same rules; `result()` checks the required ones.
struct ReadingFields {
    /// The fields with a meaning of their own; any other name is provenance.
    enum Known: Int, CaseIterable {
        case systolic, diastolic, pulse, meanArterialPressure, measuredAt, deviceTime, receivedAt
        case isManualEntry, error

        var name: String { staticName.description }

        /// The known field spelled by `bytes` (an unescaped key), if any. Decided by length and
        /// first letter, then one compare: this runs for every key of every line.
        @inline(__always)
        static func match(_ bytes: UnsafeBufferPointer<UInt8>) -> Known? {
            guard let first = bytes.first else { return nil }
            let candidate: Known
            switch (bytes.count, first) {
            case (8, UInt8(ascii: "s")): candidate = .systolic
            case (9, UInt8(ascii: "d")): candidate = .diastolic
            case (5, UInt8(ascii: "p")): candidate = .pulse
            case (20, UInt8(ascii: "m")): candidate = .meanArterialPressure
            case (10, UInt8(ascii: "m")): candidate = .measuredAt
            case (10, UInt8(ascii: "d")): candidate = .deviceTime
            case (10, UInt8(ascii: "r")): candidate = .receivedAt
            case (13, UInt8(ascii: "i")): candidate = .isManualEntry
            case (5, UInt8(ascii: "e")): candidate = .error
            default: return nil
            }
            let name = candidate.staticName
            return memcmpEqual(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount), bytes)
                ? candidate : nil
        }

        private var staticName: StaticString {
            switch self {
            case .systolic: return "systolic"
            case .diastolic: return "diastolic"
            case .pulse: return "pulse"
            case .meanArterialPressure: return "meanArterialPressure"
            case .measuredAt: return "measuredAt"
            case .deviceTime: return "deviceTime"
            case .receivedAt: return "receivedAt"
            case .isManualEntry: return "isManualEntry"
            case .error: return "error"
            }
        }
    }

    /// A scalar value as either parser sees it.
    enum Value {
        case integer(Int)
        /// A number that is not an integer (`1.5`).
        case fraction
        /// An integer-valued number outside Int.
        case hugeInteger
        case string(UnsafeBufferPointer<UInt8>)
        case bool(Bool)
        case null
        /// An array or object.
        case composite
    }

    var systolic: Int?, diastolic: Int?, pulse: Int?, meanArterialPressure: Int?
    var measuredAt: Instant?, deviceTime: NaiveDateTime?, receivedAt: String?
    var isManualEntry = false
    var error: String?
    var provenance: [ProvenanceField] = []

    /// Records `value` for `field`. - Throws: `ReadingLineError.invalidField` when unusable.
    mutating func set(_ field: Known, _ value: Value) throws(ReadingLineError) {
        if case .null = value { return }  // null = absent, as when the field is left out
        func invalid(_ why: String) -> ReadingLineError { .invalidField(field.name, why) }
        switch field {
        case .systolic: systolic = try Self.integer(value, invalid)
        case .diastolic: diastolic = try Self.integer(value, invalid)
        case .pulse: pulse = try Self.integer(value, invalid)
        case .meanArterialPressure: meanArterialPressure = try Self.integer(value, invalid)
        case .measuredAt:
            guard case .string(let s) = value, let instant = RFC3339.parseInstant(s) else { throw invalid(ReadingLineError.notRFC3339) }
            measuredAt = instant
        case .deviceTime:
            guard case .string(let s) = value, let (naive, end) = RFC3339.parseNaivePrefix(s), end == s.count
            else { throw invalid(ReadingLineError.notNaive) }
            deviceTime = naive
        case .receivedAt:
            guard case .string(let s) = value else { throw invalid(ReadingLineError.notAString) }
            receivedAt = String(decoding: s, as: UTF8.self)
        case .isManualEntry:
            guard case .bool(let b) = value else { throw invalid(ReadingLineError.notABool) }
            isManualEntry = b
        case .error:
            guard case .string(let s) = value else { throw invalid(ReadingLineError.notAString) }
            error = String(decoding: s, as: UTF8.self)
        }
    }

    private static func integer(_ value: Value, _ invalid: (String) -> ReadingLineError) throws(ReadingLineError) -> Int {
        switch value {
        case .integer(let i): return i
        case .hugeInteger: throw invalid(ReadingLineError.outOfRange)
        default: throw invalid(ReadingLineError.notAnInteger)
        }
    }

    /// The line's meaning. - Throws: `ReadingLineError.missingField` for systolic or diastolic.
    @inline(__always)
    func result() throws(ReadingLineError) -> ReadingLine {
        if let error {
            switch error {
            case "noReading": return .cuffFailure(.noReading)
            case "cuffDisconnected": return .cuffFailure(.cuffDisconnected)
            default: return .cuffFailure(.unknown(error))
            }
        }
        guard let systolic else { throw .missingField("systolic") }
        guard let diastolic else { throw .missingField("diastolic") }
        return .reading(CuffReading(
            systolic: systolic, diastolic: diastolic, pulse: pulse, meanArterialPressure: meanArterialPressure,
            measuredAt: measuredAt, deviceTime: deviceTime, receivedAt: receivedAt,
            isManualEntry: isManualEntry, provenance: provenance))
    }
}

@inline(__always) func memcmpEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    guard let pa = a.baseAddress, let pb = b.baseAddress else { return true }
    let n = a.count
    // Field names and literals are short: word compares (the last word overlapping) beat a
    // call into libc and a byte loop.
    let (ra, rb) = (UnsafeRawPointer(pa), UnsafeRawPointer(pb))
    if n >= 8 && n <= 24 {
        var i = 0
        while i + 8 < n {
            if ra.loadUnaligned(fromByteOffset: i, as: UInt64.self) != rb.loadUnaligned(fromByteOffset: i, as: UInt64.self) {
                return false
            }
            i += 8
        }
        return ra.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self) == rb.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
    }
    if n >= 4 && n < 8 {
        return ra.loadUnaligned(as: UInt32.self) == rb.loadUnaligned(as: UInt32.self)
            && ra.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self) == rb.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
    }
    if n < 4 {
        for i in 0..<n where pa[i] != pb[i] { return false }
        return true
    }
    return memcmp(pa, pb, n) == 0
}
