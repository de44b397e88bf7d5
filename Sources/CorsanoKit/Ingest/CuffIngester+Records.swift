/// One line of a jsonl input to a record (BLE lines: `BLECaptureReader`).
extension CuffIngester {
    /// A reading line (the filter's `ReadingLineParser`); blank lines are no record, a cuff
    /// failure line (`{"error":"noReading"}`) is passed on.
    static func jsonRecord(_ bytes: UnsafeRawBufferPointer) -> Result<IngestRecord, IngestIssue> {
        if bytes.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) { return .success(.none) }
        switch ReadingLineParser.parse(bytes) {
        case .success(.reading(let reading)): return .success(.reading(reading))
        case .success(.cuffFailure(let failure)): return .success(.cuffFailure(failure))
        case .failure(let error): return .failure(IngestIssue(error.description, field: error.field))
        }
    }
}
