import CorsanoKit
import Foundation

/// Where `--format fhir` puts resources: NDJSON on stdout (default, one resource per line, each
/// written once), bulk NDJSON files with a Bulk Data manifest (`--output-dir DIR`), or one
/// transaction Bundle on stdout (`--bundle`).
final class FHIROutput {
    enum Destination: Equatable {
        case ndjson
        case bulk(directory: String)
        case bundle
    }

    let destination: Destination
    let exporter: FHIRExporter
    private var collection = FHIRCollection()
    /// NDJSON on stdout streams: only identities are kept to write shared Devices once.
    private var written: Set<FHIRIdentity> = []
    /// Lines handed to stdout so far (resources as NDJSON, or the one Bundle).
    private(set) var stdoutLines = 0

    /// Reads `--output-dir`, `--bundle`, `--subject` and `--subject-identifier`.
    /// - Throws: `UsageError` for a malformed subject or both destinations at once.
    init(_ args: ParsedCommand) throws {
        // --output-dir and --bundle, --subject and --subject-identifier: excluded by the table.
        destination = args.string(.outputDir).map { .bulk(directory: $0) } ?? (args.flag(.bundle) ? .bundle : .ndjson)
        exporter = FHIRExporter(subject: try Self.subject(args), style: destination == .bundle ? .bundleURN : .logicalID)
        if case .bulk(let directory) = destination { try Self.prepare(directory: directory) }
    }

    /// `--subject Patient/ID` or `--subject-identifier SYSTEM|VALUE` (the table lets at most one
    /// through); nil when neither. Checked in the validate phase too. - Throws: `UsageError.badValue`.
    static func subject(_ args: ParsedCommand) throws -> FHIRSubject? {
        if let text = args.string(.subject) {
            guard let parsed = FHIRSubject.parseReference(text) else {
                throw UsageError.badValue(option: "subject", value: text, expected: "Patient/ID with ID of 1-64 letters, digits, '-' or '.'")
            }
            return parsed
        }
        if let text = args.string(.subjectIdentifier) {
            guard let parsed = FHIRSubject.parseIdentifier(text) else {
                throw UsageError.badValue(option: "subject-identifier", value: text, expected: "SYSTEM|VALUE, both non-empty")
            }
            return parsed
        }
        return nil
    }

    /// Hands on `resources`: written at once as NDJSON lines, else kept for `finish`.
    func add(_ resources: [FHIRResource], to stdout: OutputWriter) {
        for resource in resources {
            if destination == .ndjson {
                if written.insert(resource.identity).inserted {
                    stdout.line(resource.json.serialized)
                    stdoutLines += 1
                }
            } else {
                collection.add(resource)
            }
        }
    }

    /// Writes the bundle, or the bulk files and `manifest.json`; nothing more for NDJSON.
    /// `request` names the command in the manifest; `now` is its transactionTime.
    /// - Throws: `OutputFileError` when a bulk file cannot be written (exit 74).
    func finish(stdout: OutputWriter, request: String, now: Instant) throws {
        switch destination {
        case .ndjson: return
        case .bundle:
            stdout.line(collection.transactionBundle.serialized)
            stdoutLines += 1
        case .bulk(let directory):
            let base = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
            // A file of an earlier export into the same DIR that this one has no resources for
            // would sit beside the manifest unlisted: it is removed after the new files are in
            // place, and only if it is a regular file (checked first, so a refusal writes nothing).
            let stale = FHIRCollection.exportedTypes.filter { !collection.resourceTypes.contains($0) }
                .map { base.appendingPathComponent("\($0).ndjson").path }
            for path in stale { try OutputFile.requireRegularOrAbsent(path) }
            for type in collection.resourceTypes {
                let file = try OutputFile.createWhole(base.appendingPathComponent("\(type).ndjson").path)
                for resource in collection.resources where resource.resourceType == type { file.writer.line(resource.json.serialized) }
                try OutputFile.commit(file)
            }
            let manifest = collection.bulkManifest(transactionTime: now, request: request) {
                base.appendingPathComponent("\($0).ndjson").absoluteString
            }
            for path in stale { try OutputFile.removeRegular(path) }
            let file = try OutputFile.createWhole(base.appendingPathComponent("manifest.json").path)
            file.writer.line(manifest.serialized)
            try OutputFile.commit(file)
        }
    }

    /// Creates `directory` when missing; refuses a path that exists and is not a directory.
    private static func prepare(directory: String) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw OutputFileError.cannotCreate(path: directory, reason: "exists and is not a directory")
            }
            return
        }
        do throws(PrivateFileError) {
            try PrivateFiles.makeDirectory(directory)
        } catch {
            throw OutputFileError.cannotCreate(path: error.path, reason: error.reason)
        }
    }
}
