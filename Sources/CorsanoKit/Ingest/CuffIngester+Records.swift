/// One line of a jsonl or BLE input to a record.
extension CuffIngester {
    /// A BLE capture line: blank/comment, a 0x2A36 skip, or a decoded 0x2A35 reading.
    static func bleRecord(_ bytes: UnsafeRawBufferPointer) -> Result<IngestRecord, IngestIssue> {
        do {
            switch try BLECaptureLine.parse(bytes) {
            case .blank: return .success(.none)
            case .intermediateCuffPressure: return .success(.skipped(.intermediateCuffPressure))
            case .measurement(let payload, let receivedAt):
                let measurement = try BloodPressureMeasurement.decode(payload)
                return .success(.reading(try BLEReadingConverter.reading(from: measurement, receivedAt: receivedAt)))
            }
        } catch let e as BLECaptureLine.ParseError {
            return .failure(IngestIssue(e.reason))
        } catch let e as BLEDecodeError {
            return .failure(IngestIssue(e.reason))
        } catch let e as IngestIssue {
            return .failure(e)
        } catch {
            return .failure(IngestIssue("\(error)"))
        }
    }

    /// A reading line (the filter's `ReadingLineParser`); blank lines are no record, a cuff
    /// failure line (`{"error":"noReading"}`) is passed on.
    static func jsonRecord(_ bytes: UnsafeRawBufferPointer) -> Result<IngestRecord, IngestIssue> {
        if bytes.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) { return .success(.none) }
        switch ReadingLineParser.parse(bytes) {
        case .success(.reading(let reading)): return .success(.reading(reading))
        case .success(.cuffFailure(let failure)): return .success(.cuffFailure(failure))
        case .failure(let error): return .failure(IngestIssue(error.description))
        }
    }
}
