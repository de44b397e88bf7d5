import CorsanoKit
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why the audit key file cannot be used (exit 74).
enum AuditKeyError: DiagnosticError, Equatable {
    case unreadable(path: String, reason: String)

    var message: String {
        switch self {
        case .unreadable(let path, let reason): return "audit key \(path): \(reason)"
        }
    }
}

/// The store's audit chain has records and none carries an HMAC (exit 74): corsano keys every
/// record it writes, so its MACs were stripped or it was written without a key; keying it now
/// would seal whatever it holds.
struct AuditChainUnkeyed: DiagnosticError, Equatable {
    var location: String
    var records: Int64

    var message: String {
        "state store \(location): its audit chain has \(records) records and none carries an HMAC (stripped, or written without a key); "
            + "nothing appended: check it with corsano history --verify --hashes-only and against a head kept elsewhere (--expect)"
    }
}

/// The audit chain's HMAC key file (docs/design.md "Audit chain"): `--audit-key FILE`, else
/// `$XDG_CONFIG_HOME/corsano/audit.key` (falling back to `~/.config/corsano/audit.key`). It
/// lives outside the store so that whoever can edit the store cannot recompute the chain; mode
/// 0600. A key is created only when the store's chain has no key yet; every gateway of a shared
/// store uses the same key (copied by the lab).
enum AuditKeyFile {
    /// The key file for this run.
    static func path(_ args: ParsedCommand, environment: [String: String]) -> String {
        if let path = args.string(.auditKey) { return path }
        if let xdg = environment[EnvironmentVariable.xdgConfigHome.rawValue], xdg.hasPrefix("/") { return xdg + "/corsano/audit.key" }
        return (environment[EnvironmentVariable.home.rawValue] ?? NSHomeDirectory()) + "/.config/corsano/audit.key"
    }

    /// The key at `path`; nil when no file is there. - Throws: `AuditKeyError` when it cannot be
    /// read, is empty, or group or others may read it (a key others can read protects nothing).
    static func read(path: String) throws -> AuditKey? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw AuditKeyError.unreadable(path: path, reason: String(cString: strerror(errno)))
        }
        if info.st_mode & 0o077 != 0 {
            throw AuditKeyError.unreadable(path: path, reason: "group or others may read it (mode \(String(info.st_mode & 0o777, radix: 8))); "
                                           + "chmod 600 \(path)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw AuditKeyError.unreadable(path: path, reason: "cannot be read")
        }
        let bytes = Array(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        guard bytes.count >= 16 else { throw AuditKeyError.unreadable(path: path, reason: "holds fewer than 16 bytes") }
        return AuditKey(bytes: bytes)
    }

    /// The key a command that appends to `store`'s audit log uses: the file's; when there is none
    /// and the store's chain has no key yet, a new one (32 random bytes as hex, mode 0600,
    /// noted on stderr); for an in-memory store, a key of the run's own, no file. Checked against
    /// the store's chain here, before the command touches a bracelet or writes anything
    /// (docs/design.md "Audit chain"): the store's key id, a stripped tail, and a chain of records
    /// none of which carries an HMAC (corsano keys every record it writes, so such a chain was
    /// stripped whole or written by something else; keying it now would pass it on as sound).
    /// - Throws: `AuditKeyMismatch` (74) when the store is keyed with another key or the file is
    ///   missing; `AuditChainStripped`, `AuditChainUnkeyed` (74); `AuditKeyError`; `StoreError`.
    static func forAppending(_ args: ParsedCommand, _ ctx: CommandContext, store: any StateStore) throws -> AuditKey {
        // An in-memory store (--no-state) keeps no audit log past the run: no key file is read or
        // made for it (a --no-state run on a fresh account leaves nothing in ~/.config).
        if store.location == ":memory:" { return AuditKey(bytes: Array(randomHex().utf8)) }
        let path = path(args, environment: ctx.environment)
        if let key = try read(path: path) {
            try store.auditKeyCheck(key)
            if let head = try store.auditChainHead(), head.mac == nil {
                throw AuditChainUnkeyed(location: store.location, records: head.seq)
            }
            return key
        }
        if let storeKeyID = try store.auditKeyID() {
            throw AuditKeyMismatch(storeKeyID: storeKeyID, offeredKeyID: nil, location: store.location + " (no key at \(path))")
        }
        if let head = try store.auditChainHead() { throw AuditChainUnkeyed(location: store.location, records: head.seq) }
        let hex = randomHex()
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty { try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        // Written whole to a temporary file, then linked into place: a process of this gateway that
        // starts at the same moment never reads a half-written key, and only one key wins.
        let temporary = path + ".\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw AuditKeyError.unreadable(path: path, reason: "cannot be created: " + String(cString: strerror(errno))) }
        let text = Array((hex + "\n").utf8)
        let written = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        defer { unlink(temporary) }
        guard written == text.count else { throw AuditKeyError.unreadable(path: path, reason: "cannot be written") }
        if link(temporary, path) != 0 {
            // Another process of this gateway made it meanwhile: use that one.
            if errno == EEXIST, let key = try read(path: path) { return key }
            throw AuditKeyError.unreadable(path: path, reason: "cannot be created: " + String(cString: strerror(errno)))
        }
        let key = AuditKey(bytes: Array(hex.utf8))
        ctx.note("audit key created at \(path) (id \(key.id)); copy it to every gateway that shares this store")
        return key
    }

    /// 32 random bytes as 64 hex digits: a new key's text.
    private static func randomHex() -> String {
        var random = SystemRandomNumberGenerator()
        return SHA256.hexString((0..<32).map { _ in UInt8.random(in: 0...255, using: &random) })
    }

    /// The key `history --verify` checks with: the file's, never created; nil when none.
    static func forVerifying(_ args: ParsedCommand, _ ctx: CommandContext) throws -> AuditKey? {
        try read(path: path(args, environment: ctx.environment))
    }

    /// The key a command that prints the audit log checks what it prints with (`report`, `history`):
    /// the file's when it is `store`'s key; a key of another store, or a key file that cannot be
    /// used (unreadable, readable by others), is not used (stderr says so, and what is printed says
    /// "hashes only"), nor is one made: reading the log never fails on the key. - Throws: `StoreError`.
    static func forReading(_ args: ParsedCommand, _ ctx: CommandContext, store: any StateStore, command: String) throws -> AuditKey? {
        let key: AuditKey?
        do { key = try forVerifying(args, ctx) } catch let error as AuditKeyError {
            ctx.note("\(command): \(error.message): hashes only, HMAC not checked")
            return nil
        }
        guard let key else { return nil }
        if let storeKeyID = try store.auditKeyID(), storeKeyID != key.id {
            ctx.note("\(command): the audit key at \(path(args, environment: ctx.environment)) (\(key.id)) is not this store's (\(storeKeyID)): "
                     + "hashes only, HMAC not checked")
            return nil
        }
        return key
    }
}
