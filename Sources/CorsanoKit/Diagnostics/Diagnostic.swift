/// How much a lab needs a diagnostic (docs/design.md "Diagnostics"; the levels of swift-log's
/// `Logger.Level`, three of them): the command layer prints a level when `-v` asks for it.
public enum DiagnosticLevel: Int, Comparable, Sendable, CaseIterable {
    /// Said on every run unless `--quiet`: what a run repaired, assumed or waits on (a plan
    /// restored from the journal, a hold at a step, a calibration that expired).
    case notice = 0
    /// `-v`: what corsano decided and why (the layout and zone an ingest chose, the store opened,
    /// the bracelet reached, a plan switched or restored, a reading dropped).
    case info = 1
    /// `-vv`: every bridge request and answer and every store statement, each with its duration.
    case debug = 2

    public static func < (a: DiagnosticLevel, b: DiagnosticLevel) -> Bool { a.rawValue < b.rawValue }
}

/// What part of corsano a diagnostic is about; printed before its message at `-v`.
public enum DiagnosticCategory: String, Sendable, CaseIterable {
    case bracelet, bridge, store, plan, ingest, filter, flow, simulator
}

/// One thing the core says: its level, its part and one line of English (never a password,
/// never a profile's contents: docs/design.md "Diagnostics").
public struct Diagnostic: Equatable, Sendable {
    public var level: DiagnosticLevel
    public var category: DiagnosticCategory
    public var message: String

    /// Creates a diagnostic.
    public init(_ level: DiagnosticLevel, _ category: DiagnosticCategory, _ message: String) {
        self.level = level
        self.category = category
        self.message = message
    }
}

/// The core's one way to say something that is not a result or an error: an injected, leveled
/// sink (the shape of swift-log's `LogHandler` and swift-format's `DiagnosticsEngine`: a level, a
/// category, a message, one handler). The command layer renders it on stderr through
/// `CommandContext.diagnose`; the default, `.none`, says nothing (tests and library use).
///
/// A message is built only when its level is wanted (`wants`), so `-vv`'s per-statement lines
/// cost nothing on a run without it.
public struct Diagnostics: Sendable {
    /// The most detailed level the handler takes; nil when it takes none.
    public let level: DiagnosticLevel?
    private let handler: @Sendable (Diagnostic) -> Void

    /// A sink taking every diagnostic up to `level` (nil: none) to `handler`, from any thread.
    public init(level: DiagnosticLevel?, _ handler: @escaping @Sendable (Diagnostic) -> Void) {
        self.level = level
        self.handler = handler
    }

    /// Says nothing.
    public static let none = Diagnostics(level: nil) { _ in }

    /// True when a diagnostic of `level` is printed (build costly messages only then).
    public func wants(_ level: DiagnosticLevel) -> Bool { self.level.map { level <= $0 } ?? false }

    /// Says `message` at `level` about `category`, when that level is wanted.
    public func callAsFunction(_ level: DiagnosticLevel, _ category: DiagnosticCategory, _ message: @autoclosure () -> String) {
        guard wants(level) else { return }
        handler(Diagnostic(level, category, message()))
    }

    /// A notice (every run unless `--quiet`).
    public func notice(_ category: DiagnosticCategory, _ message: @autoclosure () -> String) {
        self(.notice, category, message())
    }

    /// A decision and its reason (`-v`).
    public func info(_ category: DiagnosticCategory, _ message: @autoclosure () -> String) {
        self(.info, category, message())
    }

    /// One exchange with a bridge or a store (`-vv`).
    public func debug(_ category: DiagnosticCategory, _ message: @autoclosure () -> String) {
        self(.debug, category, message())
    }

    /// Milliseconds of `duration` for a `-vv` line, e.g. `0.42 ms`, `12.3 ms`, `1520 ms`.
    public static func milliseconds(_ duration: Duration) -> String {
        let (s, atto) = duration.components
        let ms = Double(s) * 1000 + Double(atto) / 1e15
        return milliseconds(ms)
    }

    /// `ms` milliseconds for a `-vv` line: `0.042 ms`, `3.17 ms`, `12.3 ms`, `1520 ms`.
    public static func milliseconds(_ ms: Double) -> String {
        let text: String
        if ms < 1 {
            text = String(Double((ms * 1000).rounded()) / 1000)
        } else if ms < 10 {
            text = String(Double((ms * 100).rounded()) / 100)
        } else if ms < 100 {
            text = String(Double((ms * 10).rounded()) / 10)
        } else {
            text = String(Int(ms.rounded()))
        }
        return text + " ms"
    }
}
