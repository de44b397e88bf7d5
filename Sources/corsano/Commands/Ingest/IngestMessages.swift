import CorsanoKit

#if canImport(Glibc)
import Glibc
#endif

/// Messages and exit statuses of `cuff ingest`'s errors (used by `ErrorTranslator`).
enum IngestMessages {
    static func translate(_ error: IngestError) -> (message: String?, status: ExitStatus) {
        switch error {
        case .unknownFormat(let source, let line):
            return ("\(source): cannot tell the input format from its first line '\(line)' (not a JSON object, a BLE capture line, or a CSV header with systolic and diastolic columns); use --from jsonl|ble|csv", .usage)
        case .unreadable(let source, let code):
            return ("\(source): \(String(cString: strerror(code)))", .noInput)
        }
    }
}

/// Help text drawn from the core's rules, so `--help` states the ranges actually applied.
enum IngestHelp {
    static var ranges: String {
        let v = ReadingValidator.standard
        func span(_ r: ClosedRange<Int>) -> String { "\(r.lowerBound)-\(r.upperBound)" }
        return "systolic \(span(v.systolic)) mmHg, diastolic \(span(v.diastolic)) mmHg, pulse \(span(v.pulse)) bpm (optional)"
    }
}
