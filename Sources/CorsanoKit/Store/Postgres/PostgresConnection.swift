import CPostgres
import Foundation
import Synchronization

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
    /// Cancels the statement running on this connection, from any thread.
    let canceller: PostgresCanceller
    /// Hears every statement with its duration (`.debug`): its text, never its parameters.
    let diagnostics: Diagnostics
    /// The statement `send` or `beginCopy` started and when, said when `receive` has its answer.
    private var sent: (sql: String, at: ContinuousClock.Instant)?

    /// Connects to `uri` (a libpq URI or key=value string). `applicationName` shows in
    /// pg_stat_activity.
    /// - Throws: `StoreError.cannotOpen` naming the server (the URI without its password).
    init(uri: String, applicationName: String = "corsano", bounds: PostgresWaitBounds = PostgresWaitBounds(),
         diagnostics: Diagnostics = .none) throws {
        self.diagnostics = diagnostics
        var secrets = PostgresURI.passwords(in: uri)
        // The bounds go first: libpq keeps the last value of a repeated keyword, so what the URI
        // (expanded from dbname) sets wins; a PGCONNECT_TIMEOUT in libpq's defaults too.
        let bounded = bounds.connectionParameters(environmentSetsConnectTimeout: Self.defaultsSetConnectTimeout())
        let keys = bounded.map(\.0) + ["dbname", "application_name"]
        let values = bounded.map(\.1) + [uri, applicationName]
        // expand_dbname = 1: the URI in dbname is expanded; application_name applies unless it sets one.
        let conn = keys.withCStrings { k in values.withCStrings { v in PQconnectdbParams(k, v, 1) } }
        guard let conn else { throw StoreError.cannotOpen(path: PostgresURI.redacted(uri), message: "out of memory") }
        if let pass = PQpass(conn).map({ String(cString: $0) }), !pass.isEmpty { secrets.append(pass) }
        self.conn = conn
        self.secrets = secrets
        canceller = PostgresCanceller(conn)
        location = PostgresConnection.effectiveLocation(conn) ?? PostgresURI.redacted(uri)
        guard PQstatus(conn) == CONNECTION_OK else {
            var message = scrub(PostgresConnection.text(PQerrorMessage(conn)))
            if message.contains("timeout expired") {
                let limit = PQconninfo(conn).flatMap { Self.option("connect_timeout", in: $0) } ?? "?"
                message = "the connection waited longer than connect_timeout (\(limit) s; set connect_timeout= in the URI "
                    + "or PGCONNECT_TIMEOUT): " + message
            }
            // deinit finishes the connection
            throw StoreError.cannotOpen(path: location, message: message)
        }
        // Notices (NOTICE: relation exists, …) are not ours to print.
        PQsetNoticeProcessor(conn, { _, _ in }, nil)
    }

    /// The lock_timeout and statement_timeout the last transaction's BEGIN put in force, as the
    /// server shows them (for messages; `PostgresWaitBounds.beginSQL`).
    var settings = PostgresWaitBounds.Session(lockTimeout: "?", statementTimeout: "?")

    /// True when a connection attempt's `message` says the server is busy or restarting — too
    /// many connections (SQLSTATE 53300), starting up or shutting down (57P03), refusing
    /// connections or its socket gone while it restarts, a pooler's client limit — so waiting may
    /// let it through (`--store-wait`); false for what waiting will not fix (a wrong password, no
    /// such database, a server that never answers within connect_timeout). libpq gives no SQLSTATE for a failed connection, so its messages and the
    /// server's (in English) decide. Source: PostgreSQL "Appendix A. Error Codes", libpq
    /// "Connection Status Functions".
    static func isTransientConnectFailure(_ message: String) -> Bool {
        let transient = ["too many clients", "remaining connection slots are reserved", "the database system is starting up",
                         "the database system is shutting down", "the database system is in recovery mode",
                         "not yet accepting connections", "Connection refused", "No such file or directory",
                         "server closed the connection unexpectedly", "no more connections allowed",
                         "pgbouncer cannot connect to server", "server login has been failing"]
        return transient.contains { message.localizedCaseInsensitiveContains($0) }
    }

    /// Whether libpq's defaults (the PG* environment, which libpq reads) set connect_timeout.
    private static func defaultsSetConnectTimeout() -> Bool {
        guard let defaults = PQconndefaults() else { return false }
        defer { PQconninfoFree(defaults) }
        return option("connect_timeout", in: defaults).map { !$0.isEmpty } ?? false
    }

    /// The value of `keyword` in a libpq option array (PQconninfo, PQconndefaults); frees nothing.
    private static func option(_ keyword: String, in options: UnsafeMutablePointer<PQconninfoOption>) -> String? {
        var option = options
        while let key = option.pointee.keyword {
            if String(cString: key) == keyword { return option.pointee.val.map { String(cString: $0) } }
            option += 1
        }
        return nil
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
        try query(sql, parameters: parameters.map(PostgresParameter.text))
    }

    /// Runs `sql` with `parameters` (`$1`…) and returns its rows as text.
    /// - Throws: `PostgresFailure` (its SQLSTATE decides retries), see `storeError`.
    func query(_ sql: String, parameters: [PostgresParameter]) throws(PostgresFailure) -> PostgresResult {
        let start = ContinuousClock.now
        let result: OpaquePointer? = PostgresParameter.withLibpqArrays(parameters) { count, types, values, lengths, formats in
            PQexecParams(conn, sql, count, types, values, lengths, formats, 0)
        }
        return try said(sql, since: start) { () throws(PostgresFailure) in try check(result) }
    }

    /// `body`'s result for statement `sql`, started at `start`, said at `.debug` with its duration
    /// (and a failure with its SQLSTATE): the text only, scrubbed of the connection's passwords.
    private func said(_ sql: String, since start: ContinuousClock.Instant,
                      _ body: () throws(PostgresFailure) -> PostgresResult) throws(PostgresFailure) -> PostgresResult {
        guard diagnostics.wants(.debug) else { return try body() }
        do {
            let result = try body()
            StatementText.say(diagnostics, scrub(sql), Diagnostics.milliseconds(start.duration(to: .now)))
            return result
        } catch {
            StatementText.say(diagnostics, scrub(sql), Diagnostics.milliseconds(start.duration(to: .now))
                              + " failed (SQLSTATE \(error.sqlState ?? "none"))")
            throw error
        }
    }

    /// Sends `sql` with `parameters` without waiting; `receive()` reads its result (so two
    /// connections can work at once). - Throws: `PostgresFailure` when it cannot be sent.
    func send(_ sql: String, parameters: [PostgresParameter]) throws(PostgresFailure) {
        sent = (sql, ContinuousClock.now)
        let sent = PostgresParameter.withLibpqArrays(parameters) { count, types, values, lengths, formats in
            PQsendQueryParams(conn, sql, count, types, values, lengths, formats, 0)
        }
        guard sent == 1 else {
            throw PostgresFailure(sqlState: nil, message: scrub(Self.text(PQerrorMessage(conn))), connectionLost: PQstatus(conn) != CONNECTION_OK)
        }
    }

    /// The result of the statement `send` sent (waiting for it). - Throws: `PostgresFailure`.
    func receive() throws(PostgresFailure) -> PostgresResult {
        var last: OpaquePointer?
        while let result = PQgetResult(conn) {
            if let last { PQclear(last) }
            last = result
        }
        guard let (sql, start) = sent else { return try check(last) }
        sent = nil
        return try said(sql, since: start) { () throws(PostgresFailure) in try check(last) }
    }

    /// The results of statements sent on `connections` (one each, by `send` or `sendCopyEnd`),
    /// reading every connection's answer as it arrives: a backend then never waits to write its
    /// answer, its transaction open, while this process waits on another backend's lock — a cycle
    /// through a client, which the server's deadlock detector cannot see.
    static func receiveAll(_ connections: [PostgresConnection]) -> [Result<PostgresResult, PostgresFailure>] {
        var busy = Array(connections.indices)
        while true {
            // PQconsumeInput fails only with the connection: `receive` then reports it.
            busy.removeAll { PQconsumeInput(connections[$0].conn) == 0 || PQisBusy(connections[$0].conn) == 0 }
            guard !busy.isEmpty else { break }
            var fds = busy.map { pollfd(fd: PQsocket(connections[$0].conn), events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), -1)
        }
        return connections.map { connection in Result { () throws(PostgresFailure) in try connection.receive() } }
    }

    /// Runs `body` with the statements it runs on `connections` open to a stop's cancel
    /// (`PostgresCanceller`); nothing sent after it returns is cancelled.
    static func whileCancellable<T>(_ connections: ArraySlice<PostgresConnection>, _ body: () throws -> T) rethrows -> T {
        guard let first = connections.first else { return try body() }
        return try first.canceller.whileCancellable { try whileCancellable(connections.dropFirst(), body) }
    }

    /// Starts `COPY … FROM STDIN`: the connection then takes `putCopyData` until `endCopy`.
    /// - Throws: `PostgresFailure` when the server refuses the statement.
    func beginCopy(_ sql: String) throws(PostgresFailure) {
        sent = (sql, ContinuousClock.now)  // said with the copy's end, when `receive` has its answer
        guard let result = PQexec(conn, sql) else { _ = try check(nil); return }
        guard PQresultStatus(result) == PGRES_COPY_IN else { _ = try check(result); return }
        PQclear(result)
    }

    /// Sends `bytes` of the running COPY (blocking until the socket takes them).
    /// - Throws: `PostgresFailure` when the connection failed.
    func putCopyData(_ bytes: UnsafeRawBufferPointer) throws(PostgresFailure) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let sent = PQputCopyData(conn, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count))
        guard sent == 1 else {
            throw PostgresFailure(sqlState: nil, message: scrub(Self.text(PQerrorMessage(conn))), connectionLost: PQstatus(conn) != CONNECTION_OK)
        }
    }

    /// Ends the running COPY (`abort`: with that error, so nothing of it is kept) and returns its
    /// result (`changes` = rows copied). - Throws: `PostgresFailure`, the server's (a unique
    /// violation, …) or the connection's.
    func endCopy(abort: String? = nil) throws(PostgresFailure) -> PostgresResult {
        try sendCopyEnd(abort: abort)
        return try receive()
    }

    /// Ends the running COPY without waiting for its result (`receive` reads it).
    /// - Throws: `PostgresFailure` when the connection failed.
    func sendCopyEnd(abort: String? = nil) throws(PostgresFailure) {
        guard PQputCopyEnd(conn, abort) == 1 else {
            throw PostgresFailure(sqlState: nil, message: scrub(Self.text(PQerrorMessage(conn))), connectionLost: PQstatus(conn) != CONNECTION_OK)
        }
    }

    /// Runs one or more statements without parameters. - Throws: `PostgresFailure`.
    func execute(_ sql: String) throws(PostgresFailure) {
        _ = try simpleQuery(sql)
    }

    /// Runs one or more statements without parameters in one round trip and returns the last
    /// one's rows. - Throws: `PostgresFailure`.
    func simpleQuery(_ sql: String) throws(PostgresFailure) -> PostgresResult {
        let start = ContinuousClock.now
        let result = PQexec(conn, sql)
        return try said(sql, since: start) { () throws(PostgresFailure) in try check(result) }
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

    /// A failure as the store reports it: a lost connection says so, and a wait that ran into
    /// one of the session's time bounds names `what` waited and the bound.
    func storeError(_ failure: PostgresFailure, what: String = "a statement") -> StoreError {
        if failure.connectionLost { return .failed(path: location, message: "connection lost: " + failure.message) }
        if failure.sqlState == "55P03" {
            return .failed(path: location, message: "\(what) waited longer than lock_timeout (\(settings.lockTimeout)) for a lock "
                         + "another session holds; set a longer one with ALTER ROLE … SET lock_timeout (or options=-c "
                         + "lock_timeout=… in the URI without a pooler), or end that session: " + failure.message)
        }
        if failure.sqlState == "57014", failure.message.contains("statement timeout") {
            return .failed(path: location, message: "\(what) ran longer than statement_timeout (\(settings.statementTimeout)); "
                         + "set a longer one with ALTER ROLE … SET statement_timeout (or options=-c statement_timeout=… in "
                         + "the URI without a pooler): " + failure.message)
        }
        return .failed(path: location, message: failure.message)
    }
}

/// libpq's cancel handle of one connection (PQgetCancel): asks the server to cancel the statement
/// running there, which then fails with 57014 (query_canceled). Usable from any thread, even
/// after the connection closed (libpq "Canceling Queries in Progress").
///
/// Only a statement run `whileCancellable` is cancelled: the server cancels whatever runs when
/// the request reaches it, so a request sent as one statement ends could land on the next (the
/// release of a batch's claims, which must not fail). `cancel` holds the lock until libpq has
/// handed the request over (the backend is signalled by then, and ignores it while idle), and
/// `whileCancellable` takes the lock to end, so no statement sent after it is ever hit.
final class PostgresCanceller: @unchecked Sendable {
    private let handle: OpaquePointer?
    /// Whether a cancellable statement may run on the connection.
    private let armed = Mutex(false)

    init(_ conn: OpaquePointer) { handle = PQgetCancel(conn) }
    deinit { if let handle { PQfreeCancel(handle) } }

    /// Cancels the statement running on the connection if `whileCancellable` runs it; else nothing.
    func cancel() {
        armed.withLock { armed in
            guard armed, let handle else { return }
            var message = [CChar](repeating: 0, count: 256)
            _ = PQcancel(handle, &message, Int32(message.count))
        }
    }

    /// Runs `body` with the statements it runs on the connection open to `cancel`.
    func whileCancellable<T>(_ body: () throws -> T) rethrows -> T {
        armed.withLock { $0 = true }
        defer { armed.withLock { $0 = false } }
        return try body()
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

    /// A failure a transaction whose COMMIT was not sent may be redone after, on a new
    /// connection: the connection lost, or the server ending it (57P01 admin shutdown, 57P02
    /// crash shutdown, 57P03 cannot connect now: a restart), or too many connections (53300).
    var needsNewConnection: Bool {
        connectionLost || ["57P01", "57P02", "57P03", "53300"].contains(sqlState ?? "")
    }

    /// A unique index refused a row (23505): for a plain insert of claims, a key already held.
    var isUniqueViolation: Bool { sqlState == "23505" }
}

/// A statement parameter: text (nil = NULL), or a bigint array sent in PostgreSQL's binary
/// array format, which the server copies instead of parsing digits (a seen-set batch is two
/// arrays of up to a few hundred thousand keys).
enum PostgresParameter {
    case text(String?)
    case int8Array([Int64])

    /// `int8[]` and `int8` type OIDs (pg_type.dat).
    private static let int8ArrayOID: Oid = 1016, int8OID: UInt32 = 20

    /// The value's bytes as libpq takes them: text NUL-terminated; an array as `array_recv`
    /// reads it (big-endian: ndim 1, no nulls, element type, length and lower bound 1, then
    /// each element as length 8 and its value). nil for NULL.
    var bytes: [UInt8]? {
        switch self {
        case .text(let text):
            return text.map { Array($0.utf8) + [0] }
        case .int8Array(let values):
            var out: [UInt8] = []
            out.reserveCapacity(20 + values.count * 12)
            func append32(_ v: UInt32) { withUnsafeBytes(of: v.bigEndian) { out.append(contentsOf: $0) } }
            append32(1)
            append32(0)
            append32(Self.int8OID)
            append32(UInt32(values.count))
            append32(1)
            for value in values {
                append32(8)
                withUnsafeBytes(of: value.bigEndian) { out.append(contentsOf: $0) }
            }
            return out
        }
    }

    /// Calls `body` with libpq's parallel arrays (count, types, values, lengths, formats) for
    /// `parameters`, valid only inside `body`.
    static func withLibpqArrays<R>(
        _ parameters: [PostgresParameter],
        _ body: (Int32, [Oid], [UnsafePointer<CChar>?], [Int32], [Int32]) -> R
    ) -> R {
        let buffers = parameters.map(\.bytes)
        let types = parameters.map { if case .int8Array = $0 { int8ArrayOID } else { Oid(0) } }
        let formats = parameters.map { if case .int8Array = $0 { Int32(1) } else { Int32(0) } }
        let lengths = buffers.map { Int32($0?.count ?? 0) }
        let copies = buffers.map { buffer -> UnsafeMutableBufferPointer<UInt8>? in
            guard let buffer else { return nil }
            let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(buffer.count, 1))
            _ = copy.initialize(from: buffer)
            return copy
        }
        defer { copies.forEach { $0?.deallocate() } }
        let values = copies.map { copy in
            copy.flatMap { $0.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) } }
        }
        return body(Int32(parameters.count), types, values, lengths, formats)
    }
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
