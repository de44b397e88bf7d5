import CorsanoKit
import Foundation

/// The profile a command line gives: `--from FILE` (JSON, `-` = stdin) with flags over it, each
/// field validated under `ProfileRules` against the caller's today.
///
/// A bad value from a flag is a usage error naming the flag (exit 64); a bad or missing one from
/// the file is bad data naming the file, line and field (exit 65). Source: issue 6.
enum ProfileInput {
    /// The flag of each profile field (`skinTone` → `--skin-tone`).
    /// (`CommandTableTests` checks that every field has its key.)
    static let flags = ProfileRules.fields.compactMap { field in OptionKey(rawValue: ProfileRules.flagName(field)).map { (field, $0) } }

    /// The validated profile from the file option `file` (`profile push --from`, `wearing-opt
    /// --profile`) with the command's field flags over it. - Throws: `UsageError` (flags, 64),
    /// `InputError` (file missing, 66), `ProfileFileError` (file content, 65).
    static func profile(_ args: ParsedCommand, today: CalendarDate, file option: OptionKey = .from) throws -> UserProfile {
        var fromFlags = ProfileDraft()
        for (field, flag) in flags { if let v = args.string(flag) { fromFlags.set(field, v) } }
        guard let path = args.string(option) else {
            return try validated(fromFlags, today: today, file: nil)
        }
        let bytes = try read(path)
        let name = path == "-" ? "<stdin>" : path
        let fromFile: ProfileDraft
        do {
            fromFile = try ProfileDraft.parse(json: bytes)
        } catch let error as ProfileError {
            throw ProfileFileError(path: name, line: error.field.flatMap { ProfileDraft.line(of: $0, in: bytes) },
                                   message: error.message(naming: error.field.map { "field '\($0)'" } ?? ""))
        }
        let flagged = Set(flags.filter { args.spec.option($0.1) != nil }.map(\.0))
        return try validated(fromFile.merging(fromFlags), today: today, file: (name, bytes, fromFlags), flagged: flagged)
    }

    /// Validates `draft`, blaming the flag when the bad field came from one, else the file;
    /// every missing field is named at once. `missing` says where fields could come from
    /// besides flags (when there is no file).
    static func validated(_ draft: ProfileDraft, today: CalendarDate,
                          file: (path: String, bytes: [UInt8], flags: ProfileDraft)?,
                          flagged: Set<String> = Set(ProfileRules.fields),
                          missing hint: String = "or give the profile with --from FILE") throws -> UserProfile {
        // A bad value first (it has a flag or a line to name), then every missing field at once.
        let problems = draft.problems(today: today)
        if let bad = problems.first(where: { if case .missing = $0 { false } else { true } }) {
            let field = bad.field ?? ""
            guard let file, file.flags.values[field] == nil else {
                throw UsageError.conflict(bad.message(naming: "--" + ProfileRules.flagName(field)))
            }
            throw ProfileFileError(path: file.path, line: ProfileDraft.line(of: field, in: file.bytes),
                                   message: bad.message(naming: "field '\(field)'"))
        }
        let missing = draft.missingFields
        if !missing.isEmpty {
            let flags = missing.map { "--" + ProfileRules.flagName($0) }.joined(separator: ", ")
            guard let file else { throw UsageError.missing("missing \(flags) (\(hint))") }
            // The command's flags that could give them too (wearing-opt has three of the eight).
            let alternatives = missing.filter(flagged.contains).map { "--" + ProfileRules.flagName($0) }
            throw ProfileFileError(path: file.path, line: nil,
                                   message: "missing field\(missing.count == 1 ? "" : "s") " + missing.joined(separator: ", ")
                                       + (alternatives.isEmpty ? "" : " (in the file or as " + alternatives.joined(separator: ", ") + ")"))
        }
        do {
            return try draft.validated(today: today)
        } catch {
            throw UsageError.conflict(error.message(naming: error.field ?? "profile"))  // not reached: no problems left
        }
    }

    /// The bytes of `path` (`-` = stdin). - Throws: `InputError.cannotOpen` (exit 66).
    static func read(_ path: String) throws -> [UInt8] {
        let file = try InputFile.open(path)
        defer { file.close() }
        let handle = FileHandle(fileDescriptor: file.fd, closeOnDealloc: false)
        do {
            return Array(try handle.readToEnd() ?? Data())
        } catch {
            throw InputError.cannotOpen(path: path, reason: "\(error.localizedDescription)")
        }
    }
}

/// A `--from` profile file with bad content (exit 65): names the file, the line when known, the field.
struct ProfileFileError: DiagnosticError, Equatable {
    let path: String
    let line: Int?
    /// What is wrong, naming the field.
    let problem: String

    init(path: String, line: Int?, message: String) {
        (self.path, self.line, problem) = (path, line, message)
    }

    /// `FILE:LINE: field 'weight': bad value '1000': expected ...`.
    var message: String { path + (line.map { ":\($0)" } ?? "") + ": " + problem }
}
