import CorsanoKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How an option's value names an input file, for the runner's inputs phase (issue 23;
/// docs/design.md "Exit status": 64, then 66, then 74, then 69).
enum InputRole: Sendable, Equatable {
    /// The value is a file to read; `-` is stdin.
    case file
    /// The value is a simulator scenario (JSON).
    case scenario
    /// `--cuff`: a file of reading lines (`-` stdin), `ble:MAC` (no file), `sim:` (no file) or
    /// `sim:SCENARIO.json` (a scenario).
    case cuffSource
    /// `--bracelet`: `sim:SCENARIO.json` names a scenario; every other URI names no file.
    case braceletURI

    /// The file `value` names and the error that reports it unreadable; nil when it names none.
    func input(in value: String) -> (path: String, scenario: Bool)? {
        let sim = BPInitOptions.simulatedScheme
        switch self {
        case .file: return value == "-" ? nil : (value, false)
        case .scenario: return (value, true)
        case .cuffSource:
            if value.hasPrefix(CuffLinkOptions.scheme) { return nil }
            if value.hasPrefix(sim) { return value.count == sim.count ? nil : (String(value.dropFirst(sim.count)), true) }
            return value == "-" ? nil : (value, false)
        case .braceletURI:
            guard case .simulator(let scenario?)? = try? BraceletAddress(value) else { return nil }
            return (scenario, true)
        }
    }
}

/// The runner's inputs phase: after the parser's validate phase (64), before a handler opens a
/// store (74) or reaches a bracelet (69), every input the line names exists and is readable, as
/// a regular file, a FIFO or a character device (66, naming it). Checked with `stat` and
/// `access`, never `open`: opening a FIFO for reading would wait for its writer.
enum InputCheck {
    /// Checks the inputs of `parsed`: its operands when the command reads files, and every
    /// option the table marks as an input (`OptionSpec.input`), given or from the environment.
    /// - Throws: `InputError.cannotOpen` (or `ScenarioError.unreadable` for a scenario), exit 66.
    static func check(_ parsed: ParsedCommand) throws {
        if parsed.spec.operandKind == .path {
            for operand in parsed.operands where operand != "-" { try check(operand, scenario: false) }
        }
        for option in parsed.spec.options {
            guard let role = option.input else { continue }
            let values = option.repeatable ? parsed.strings(option.key) : parsed.string(option.key).map { [$0] } ?? []
            for value in values {
                if let input = role.input(in: value) { try check(input.path, scenario: input.scenario) }
            }
        }
    }

    /// `path` is a readable regular file, FIFO or character device. - Throws: as `check(_:)`.
    static func check(_ path: String, scenario: Bool) throws {
        var info = stat()
        var reason: String?
        if stat(path, &info) != 0 {
            reason = String(cString: strerror(errno))
        } else {
            switch info.st_mode & S_IFMT {
            case S_IFREG, S_IFIFO, S_IFCHR:
                if access(path, R_OK) != 0 { reason = String(cString: strerror(errno)) }
            case S_IFDIR: reason = String(cString: strerror(EISDIR))
            default: reason = "not a regular file, FIFO or character device"
            }
        }
        guard let reason else { return }
        if scenario { throw ScenarioError.unreadable(path: path) }
        throw InputError.cannotOpen(path: path, reason: reason)
    }
}
