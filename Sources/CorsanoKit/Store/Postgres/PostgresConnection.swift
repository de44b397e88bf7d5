import CPostgres
import Foundation

/// One libpq connection: connect, run statements with text parameters, map failures to
/// `StoreError` naming the server — never its password.
///
/// libpq reads the PG* environment (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGSERVICE, PGSSLMODE, …)
/// for whatever the URI leaves out. Not thread-safe: `PostgresStore` serializes its use.
final class PostgresConnection {
    let conn: OpaquePointer
    /// The server as messages name it: `postgresql://USER@HOST:PORT/DB` from the connection's
    /// effective parameters, never with a password.
    let location: String
    /// Passwords that must not appear in any message (from the URI, the environment, .pgpass).
    private let secrets: [String]

    /// Connects to `uri` (a libpq URI or key=value string). `applicationName` shows in
    /// pg_stat_activity.
    /// - Throws: `StoreError.cannotOpen` naming the server (the URI without its password).
    init(uri: String, applicationName: String = "corsano") throws {
        var secrets = PostgresURI.passwords(in: uri)
        let keys = ["dbname", "application_name"]
        let values = [uri, applicationName]
        // expand_dbname = 1: the URI in dbname is expanded; application_name applies unless it sets one.
        let conn = keys.withCStrings { k in values.withCStrings { v in PQconnectdbParams(k, v, 1) } }
        guard let conn else { throw StoreError.cannotOpen(path: PostgresURI.redacted(uri), message: "out of memory") }
        if let pass = PQpass(conn).map({ String(cString: $0) }), !pass.isEmpty { secrets.append(pass) }
        self.conn = conn
        self.secrets = secrets
        location = PostgresConnection.effectiveLocation(conn) ?? PostgresURI.redacted(uri)
        guard PQstatus(conn) == CONNECTION_OK else {
            let message = scrub(PostgresConnection.text(PQerrorMessage(conn)))
            // deinit finishes the connection
            throw StoreError.cannotOpen(path: location, message: message)
        }
        // Notices (NOTICE: relation exists, …) are not ours to print.
        PQsetNoticeProcessor(conn, { _, _ in }, nil)
    }

    deinit { PQfinish(conn) }

    /// `postgresql://USER@HOST:PORT/DB` from what libpq connected (or tried to connect) with.
    private static func effectiveLocation(_ conn: OpaquePointer) -> String? {
        guard let host = PQhost(conn).map({ String(cString: $0) }), !host.isEmpty else { return nil }
        let user = PQuser(conn).map { String(cString: $0) } ?? ""
        let port = PQport(conn).map { String(cString: $0) } ?? ""
        let db = PQdb(conn).map { String(cString: $0) } ?? ""
        return "postgresql://" + (user.isEmpty ? "" : PostgresURI.encode(user) + "@") + PostgresURI.encode(host)
            + (port.isEmpty ? "" : ":" + port) + "/" + PostgresURI.encode(db)
    }

    /// libpq's message as one line, password-free.
    func scrub(_ message: String) -> String {
        var text = message
        for secret in secrets where !secret.isEmpty {
            text = text.replacingOccurrences(of: secret, with: "***")
            text = text.replacingOccurrences(of: PostgresURI.encode(secret), with: "***")
        }
        return text
    }

    static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        let raw = pointer.map { String(cString: $0) } ?? ""
        return raw.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .joined(separator: ": ")
    }

    /// Runs `sql` with text parameters (`$1`…; nil = NULL) and returns its rows.
    /// - Throws: `PostgresFailure` (its SQLSTATE decides retries), see `storeError`.
    func query(_ sql: String, _ parameters: [String?] = []) throws(PostgresFailure) -> PostgresResult {
        let result: OpaquePointer? = parameters.withOptionalCStrings { values in
            PQexecParams(conn, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        return try check(result)
    }

    /// Sends `sql` with text parameters without waiting; `receive()` reads its result (so two
    /// connections can work at once). - Throws: `PostgresFailure` when it cannot be sent.
    func send(_ sql: String, _ parameters: [String?]) throws {
        let sent = parameters.withOptionalCStrings { values in
            PQsendQueryParams(conn, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        guard sent == 1 else {
            throw PostgresFailure(sqlState: nil, message: scrub(Self.text(PQerrorMessage(conn))), connectionLost: PQstatus(conn) != CONNECTION_OK)
        }
    }

    /// The result of the statement `send` sent (waiting for it). - Throws: `PostgresFailure`.
    func receive() throws -> PostgresResult {
        var last: OpaquePointer?
        while let result = PQgetResult(conn) {
            if let last { PQclear(last) }
            last = result
        }
        return try check(last)
    }

    /// Runs one or more statements without parameters. - Throws: `PostgresFailure`.
    func execute(_ sql: String) throws(PostgresFailure) {
        _ = try check(PQexec(conn, sql))
    }

    private func check(_ result: OpaquePointer?) throws(PostgresFailure) -> PostgresResult {
        guard let result else {
            throw PostgresFailure(sqlState: nil, message: scrub(Self.text(PQerrorMessage(conn))), connectionLost: PQstatus(conn) != CONNECTION_OK)
        }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            return PostgresResult(result)
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = scrub(Self.text(PQresultErrorMessage(result)))
            PQclear(result)
            throw PostgresFailure(sqlState: state, message: message.isEmpty ? scrub(Self.text(PQerrorMessage(conn))) : message,
                                  connectionLost: PQstatus(conn) != CONNECTION_OK)
        }
    }

    /// A failure as the store reports it: a lost connection says so.
    func storeError(_ failure: PostgresFailure) -> StoreError {
        if failure.connectionLost { return .failed(path: location, message: "connection lost: " + failure.message) }
        return .failed(path: location, message: failure.message)
    }
}

/// A failed statement: its SQLSTATE (40P01 deadlock, 40001 serialization: retried), libpq's
/// message (password-free) and whether the connection is gone.
struct PostgresFailure: Error {
    var sqlState: String?
    var message: String
    var connectionLost: Bool

    /// A transaction the server aborted to break a deadlock or a serialization conflict: safe to redo.
    var isRetryable: Bool { sqlState == "40P01" || sqlState == "40001" }

    /// A unique index refused a row (23505): for a plain insert of claims, a key already held.
    var isUniqueViolation: Bool { sqlState == "23505" }
}

/// The rows of a statement, read as text.
final class PostgresResult {
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }
    deinit { PQclear(handle) }

    var rowCount: Int { Int(PQntuples(handle)) }
    /// Rows changed by an INSERT, UPDATE or DELETE.
    var changes: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    /// The value at `row`, `column`; nil for NULL.
    func text(_ row: Int, _ column: Int) -> String? {
        guard PQgetisnull(handle, Int32(row), Int32(column)) == 0 else { return nil }
        return String(cString: PQgetvalue(handle, Int32(row), Int32(column)))
    }

    func int(_ row: Int, _ column: Int) -> Int64? { text(row, column).flatMap { Int64($0) } }
    func double(_ row: Int, _ column: Int) -> Double? { text(row, column).flatMap { Double($0) } }
    func bool(_ row: Int, _ column: Int) -> Bool? { text(row, column).map { $0 == "t" } }
}

extension Array where Element == String {
    /// Calls `body` with a C array of the strings (valid only inside `body`).
    func withCStrings<R>(_ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        var copies = map { strdup($0) }
        defer { copies.forEach { free($0) } }
        copies.append(nil)
        return body(copies.map { $0.map { UnsafePointer($0) } })
    }
}

extension Array where Element == String? {
    /// Calls `body` with a C array of the strings, NULL for nil (valid only inside `body`).
    func withOptionalCStrings<R>(_ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let copies = map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        return body(copies.map { $0.map { UnsafePointer($0) } })
    }
}
