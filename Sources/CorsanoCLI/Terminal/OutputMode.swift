import CorsanoKit

/// How a flow command writes its events: JSON lines or localized text (docs/design.md "Events": text when stdout
/// is a terminal; `--json` / `--text` force either).
enum OutputMode: Equatable {
    case json
    case text

    /// The mode for this command line (`--json` and `--text` together: refused by the table).
    static func choose(_ args: ParsedCommand, stdoutIsTerminal: Bool) throws -> OutputMode {
        switch (args.flag(.json), args.flag(.text)) {
        case (true, _): return .json
        case (false, true): return .text
        case (false, false): return stdoutIsTerminal ? .text : .json
        }
    }
}

/// Builds the stdout event sink and the localizer of a flow command from its flags and context.
enum EventSinks {
    /// JSON lines or localized text on `ctx.stdout`, per `OutputMode.choose`.
    /// - Throws: `UsageError.conflict` for `--json --text`.
    static func stdout(_ args: ParsedCommand, _ ctx: CommandContext) throws -> any EventSink {
        switch try OutputMode.choose(args, stdoutIsTerminal: ctx.stdoutIsTerminal) {
        case .json:
            return JSONEventSink(writer: ctx.stdout)
        case .text:
            return TextEventSink(writer: ctx.stdout, localizer: localizer(args, ctx),
                                 color: wantsColor(isTerminal: ctx.stdoutIsTerminal, environment: ctx.environment),
                                 liveProgress: ctx.stdoutIsTerminal && ctx[.term] != "dumb",
                                 terminal: ctx.terminal(for: ctx.stdout))
        }
    }

    /// How prompts are laid out: in the run's language and direction, for the terminal they go to
    /// (stdout with text output, stderr when stdout carries JSON lines).
    static func promptLayout(_ args: ParsedCommand, _ ctx: CommandContext, mode: OutputMode) -> TextLayout {
        TextLayout(terminal: ctx.terminal(for: mode == .text ? ctx.stdout : ctx.stderr), color: false,
                   rightToLeft: localizer(args, ctx).locale.isRightToLeft)
    }

    /// The localizer for `--lang`, else LC_ALL / LC_MESSAGES / LANG (prompts use it too).
    static func localizer(_ args: ParsedCommand, _ ctx: CommandContext) -> Localizer {
        Localizer(locale: LocaleResolver.resolve(lang: args.string(.lang), environment: ctx.environment))
    }

    /// Colour only on a terminal, never when `NO_COLOR` is set to a non-empty value
    /// (no-color.org), never for `TERM=dumb` or an unset `TERM`.
    static func wantsColor(isTerminal: Bool, environment: [String: String]) -> Bool {
        guard isTerminal, environment[EnvironmentVariable.noColor.rawValue].map({ $0.isEmpty }) ?? true else { return false }
        guard let term = environment[EnvironmentVariable.term.rawValue], !term.isEmpty, term != "dumb" else { return false }
        return true
    }
}
