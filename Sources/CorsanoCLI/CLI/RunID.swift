/// The `run` of a flow's events and audit log: one id per process run (docs/design.md "Events"; not
/// "session", which the SDK uses for one calibration attempt). 64 random bits as 16 hex digits.
enum RunID {
    static func make() -> String {
        let hex = String(UInt64.random(in: .min ... .max), radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
