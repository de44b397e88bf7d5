import CorsanoKit

/// The language of a command's error message: a person at a flow's text output reads the
/// errors that have a translation (bracelet refused or unreachable: `DiagnosticError.message(in:)`)
/// in the run's language. JSON runs keep the English, which scripts may match; the exit status
/// is `ErrorTranslator`'s either way.
enum LocalizedDiagnostics {
    /// The localizer when `parsed` is a command that prints human text in this run; else nil.
    static func localizer(for parsed: ParsedCommand, _ ctx: CommandContext) -> Localizer? {
        guard parsed.spec.option(.text) != nil,
              (try? OutputMode.choose(parsed, stdoutIsTerminal: ctx.stdoutIsTerminal)) == .text else { return nil }
        return EventSinks.localizer(parsed, ctx)
    }
}
