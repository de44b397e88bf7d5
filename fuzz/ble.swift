// libFuzzer target: the input as a BLE capture (each line through one `BLECaptureReader`: plain
// lines, nRF Connect log lines, 0x2B34, 0x2B36 segments reassembled across lines), the first line
// alone through `BLECaptureLine.parse`, and the same bytes as a raw 0x2A35 and 0x2B34 payload and
// as 0x2B36 segments. Must never trap; a decoded reading's byte encoding must equal `jsonLine()`.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBLE(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var reader = BLECaptureReader()
    for (i, line) in bytes.split(separator: 10, omittingEmptySubsequences: false).enumerated() {
        for case .record(.success(.reading(let reading))) in reader.read(line, number: i + 1) { check(reading) }
    }
    _ = reader.finish()
    if case .measurement(let payload, let receivedAt)? = try? BLECaptureLine.parse(bytes) {
        check(payload, receivedAt: receivedAt)
    }
    check(bytes, receivedAt: nil)
    _ = BLEPayloadLayout.of(bytes)
    if let m = try? BloodPressureMeasurement.decodeEnhanced(bytes), let r = try? BLEReadingConverter.reading(from: m, receivedAt: nil) {
        check(r)
    }
    // The bytes as segments of at most 1 + (first byte % 20) bytes.
    var assembler = BloodPressureRecordAssembler()
    let step = 1 + Int(bytes.first ?? 0) % 20
    for start in stride(from: 0, to: bytes.count, by: step) {
        if let record = try? assembler.add(Array(bytes[start..<min(bytes.count, start + step)])),
           case .reading(let r)? = try? BLEValueReader.outcome(of: record, receivedAt: nil) {
            check(r)
        }
        _ = assembler.takeDropped()
    }
    return 0
}

private func check(_ payload: [UInt8], receivedAt: String?) {
    guard let measurement = try? BloodPressureMeasurement.decode(payload),
          let reading = try? BLEReadingConverter.reading(from: measurement, receivedAt: receivedAt) else { return }
    check(reading)
}

private func check(_ reading: CuffReading) {
    var reading = reading
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
