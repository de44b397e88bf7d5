import CorsanoKit
import Foundation

/// The profile a command line gives: `--from FILE` (JSON, `-` = stdin) with flags over it, each
/// field validated under `ProfileRules` against the caller's today.
///
/// A bad value from a flag is a usage error naming the flag (exit 64); a bad or missing one from
/// the file is bad data naming the file, line and field (exit 65). Source: issue 6.
enum ProfileInput {
    /// The flag of each profile field (`skinTone` → `--skin-tone`).
    static let flags = ProfileRules.fields.map { ($0, ProfileRules.flagName($0)) }

    /// The validated profile. - Throws: `UsageError` (flags, 64), `InputError` (file missing, 66),
    /// `ProfileFileError` (file content, 65).
    static func profile(_ args: ParsedCommand, today: CalendarDate) throws -> UserProfile {
        var fromFlags = ProfileDraft()
        for (field, flag) in flags { if let v = args.string(flag) { fromFlags.set(field, v) } }
        guard let path = args.string("from") else {
            return try validated(fromFlags, today: today, file: nil)
        }
        let bytes = try read(path)
        let fromFile: ProfileDraft
        do {
            fromFile = try ProfileDraft.parse(json: bytes)
        } catch let error as ProfileError {
            throw ProfileFileError(path: path, line: error.field.flatMap { ProfileDraft.line(of: $0, in: bytes) },
                                   message: error.message(naming: error.field.map { "field '\($0)'" } ?? ""))
        }
        return try validated(fromFile.merging(fromFlags), today: today, file: (path, bytes, fromFlags))
    }

    /// Validates `draft`, blaming the flag when the bad field came from one, else the file.
    static func validated(_ draft: ProfileDraft, today: CalendarDate,
                          file: (path: String, bytes: [UInt8], flags: ProfileDraft)?) throws -> UserProfile {
        do {
            return try draft.validated(today: today)
        } catch {  // typed: always a ProfileError
            let field = error.field ?? ""
            guard let file, file.flags.values[field] == nil else {
                let flag = "--" + ProfileRules.flagName(field)
                if case .missing = error {
                    throw UsageError.missing("\(flag) is required (or give the profile with --from FILE)")
                }
                throw UsageError.conflict(error.message(naming: flag))
            }
            var message = error.message(naming: "field '\(field)'")
            if case .missing = error { message += " (in the file or as --\(ProfileRules.flagName(field)))" }
            throw ProfileFileError(path: file.path, line: ProfileDraft.line(of: field, in: file.bytes), message: message)
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
