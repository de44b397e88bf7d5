import CorsanoKit

#if canImport(Glibc)
import Glibc
#endif

/// Help text drawn from the core's rules, so `--help` states the ranges actually applied.
enum IngestHelp {
    static var ranges: String {
        let v = ReadingValidator.standard
        func span(_ r: ClosedRange<Int>) -> String { "\(r.lowerBound)-\(r.upperBound)" }
        return "systolic \(span(v.systolic)) mmHg, diastolic \(span(v.diastolic)) mmHg, pulse \(span(v.pulse)) bpm (optional)"
    }
}
