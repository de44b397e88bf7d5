// libFuzzer target: one BLE capture line (`[TIME<TAB>][UUID ]HEX`), and the same bytes as a raw
// 0x2A35 payload. Must never trap; a decoded reading's byte encoding must equal `jsonLine()`.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBLE(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if case .measurement(let payload, let receivedAt)? = try? BLECaptureLine.parse(bytes) {
        check(payload, receivedAt: receivedAt)
    }
    check(bytes, receivedAt: nil)
    return 0
}

private func check(_ payload: [UInt8], receivedAt: String?) {
    guard let measurement = try? BloodPressureMeasurement.decode(payload),
          var reading = try? BLEReadingConverter.reading(from: measurement, receivedAt: receivedAt) else { return }
    _ = ReadingValidator.standard.validate(reading)
    _ = ReadingValidator.standard.reportedMAPIssue(reading)
    if let stamp = reading.deviceTime {
        let anchor = ClockAnchor(device: stamp, phone: Instant(secondsSinceEpoch: 1_795_953_600))
        reading.measuredAt = anchor.realTime(of: RFC3339.parseNaive("2025-01-01T00:00:00")!)
    }
    var out: [UInt8] = []
    reading.appendJSONLine(to: &out, includeDerivedMAP: true)
    precondition(String(decoding: out, as: UTF8.self) == reading.jsonLine(includeDerivedMAP: true), "byte encoder differs")
}
