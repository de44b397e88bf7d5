import CorsanoKit

/// The errors a person at a flow's text output sees at start (bracelet refused or unreachable),
/// in the run's language. JSON runs keep `ErrorTranslator`'s English, which scripts may match;
/// the exit status is `ErrorTranslator`'s either way.
enum LocalizedDiagnostics {
    /// The localizer when `parsed` is a command that prints human text in this run; else nil.
    static func localizer(for parsed: ParsedCommand, _ ctx: CommandContext) -> Localizer? {
        guard parsed.spec.option("text") != nil,
              (try? OutputMode.choose(parsed, stdoutIsTerminal: ctx.stdoutIsTerminal)) == .text else { return nil }
        return EventSinks.localizer(parsed, ctx)
    }

    /// A localized message for `error`, or nil when it has none (then the English one is used).
    static func message(for error: any Error, _ l: Localizer) -> String? {
        switch error {
        case BraceletGateError.wrongModel(_, let found, _): return l[.errorWrongModel, found]
        case BraceletGateError.firmwareTooOld(_, let found, _): return l[.errorFirmwareTooOld, found]
        case BraceletError.unavailable(let why): return l[.errorBraceletUnavailable, why]
        default: return nil
        }
    }
}
