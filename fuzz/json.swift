// libFuzzer target: one reading line through `ReadingLineParser` (fast path and Foundation
// fallback). Must never trap; a parsed reading written back out must parse to the same reading;
// `replay-filter`'s essentials scan must agree with the parser wherever it answers, and answer
// wherever the fast path read a reading.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let parsed = ReadingLineParser.parse(bytes)
    let typed = UnsafeBufferPointer(start: data, count: size)
    if let essentials = FastReadingScanner.essentials(typed) {
        guard case .success(.reading(let reading)) = parsed, ReadingEssentials(reading) == essentials else {
            preconditionFailure("essentials \(essentials) but the parser says \(parsed)")
        }
    } else if case .reading? = FastReadingScanner.parse(typed) {
        preconditionFailure("the fast path read a reading the essentials scan did not")
    }
    guard case .success(.reading(let reading)) = parsed else { return 0 }
    _ = ReadingValidator.standard.validate(reading)
    // Every integer the parser accepts must come back the same, 2^53 and beyond included (the
    // Foundation path once wrapped 2^63..<2^64 negative; fixed in ReadingLineParser).
    var out: [UInt8] = []
    reading.appendJSONLine(to: &out)
    let again = out.withUnsafeBytes { ReadingLineParser.parse($0) }
    guard case .success(.reading(let back)) = again else {
        preconditionFailure("written reading does not parse: \(String(decoding: out, as: UTF8.self))")
    }
    precondition(back.systolic == reading.systolic && back.diastolic == reading.diastolic
                 && back.pulse == reading.pulse && back.meanArterialPressure == reading.meanArterialPressure
                 && back.measuredAt == reading.measuredAt
                 && back.deviceTime == reading.deviceTime && back.receivedAt == reading.receivedAt
                 && back.isManualEntry == reading.isManualEntry,
                 "round trip differs: \(String(decoding: out, as: UTF8.self))")
    return 0
}
