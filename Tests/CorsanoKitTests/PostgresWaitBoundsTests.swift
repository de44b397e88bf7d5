@testable import CorsanoKit
import CPostgres
import Foundation
import TestSupport
import Testing

/// The bounds of `PostgresWaitBounds` reach the connection: TCP keepalives and tcp_user_timeout
/// on the socket libpq opened (read back with getsockopt, as the kernel holds them), the lock
/// and statement timeouts in the session (`SHOW`), each corsano's default unless the URI sets
/// one. The kernel's own defaults (keepalive idle 7,200 s, interval 75 s, 9 probes, no user
/// timeout) differ from every value checked, so a bound that did not reach the socket fails here.
@Suite struct PostgresWaitBoundsTests {
    /// getsockopt levels and names (linux/tcp.h, asm-generic/socket.h).
    private static let ipprotoTCP: Int32 = 6, tcpKeepIdle: Int32 = 4, tcpKeepInterval: Int32 = 5, tcpKeepCount: Int32 = 6,
                       tcpUserTimeout: Int32 = 18

    private static func option(_ connection: PostgresConnection, _ level: Int32, _ name: Int32) -> Int32 {
        var value: Int32 = -1
        var size = socklen_t(MemoryLayout<Int32>.size)
        _ = getsockopt(PQsocket(connection.conn), level, name, &value, &size)
        return value
    }

    /// A TCP URI for a new role with a password (the server's TCP connections ask for one).
    private static func tcpURI() throws -> String {
        let server = try ThrowawayPostgres.shared()
        let database = try server.createDatabase()
        let role = "bounds_" + database.name
        try server.execute("CREATE ROLE \(role) LOGIN PASSWORD 'b0unds-Pa55'")
        try server.execute("GRANT CREATE ON SCHEMA public TO \(role)", database: database.name)
        return server.tcpURI(database: database.name, user: role, password: "b0unds-Pa55")
    }

    @Test func keepalivesAndTheUserTimeoutReachTheSocketUnlessTheURISetsThem() throws {
        let uri = try Self.tcpURI()
        let bounds = PostgresWaitBounds()
        let connection = try PostgresConnection(uri: uri)
        #expect(Self.option(connection, SOL_SOCKET, SO_KEEPALIVE) == 1)
        #expect(Self.option(connection, Self.ipprotoTCP, Self.tcpKeepIdle) == Int32(bounds.keepaliveIdleSeconds))
        #expect(Self.option(connection, Self.ipprotoTCP, Self.tcpKeepInterval) == Int32(bounds.keepaliveIntervalSeconds))
        #expect(Self.option(connection, Self.ipprotoTCP, Self.tcpKeepCount) == Int32(bounds.keepaliveCount))
        #expect(Self.option(connection, Self.ipprotoTCP, Self.tcpUserTimeout) == Int32(bounds.tcpUserTimeoutMilliseconds))
        let set = try PostgresConnection(uri: uri + "?keepalives_idle=45&keepalives_count=5&tcp_user_timeout=5000")
        #expect(Self.option(set, Self.ipprotoTCP, Self.tcpKeepIdle) == 45)
        #expect(Self.option(set, Self.ipprotoTCP, Self.tcpKeepCount) == 5)
        #expect(Self.option(set, Self.ipprotoTCP, Self.tcpUserTimeout) == 5000)
        #expect(Self.option(set, Self.ipprotoTCP, Self.tcpKeepInterval) == Int32(bounds.keepaliveIntervalSeconds))
    }

    /// Each transaction has the bounds, set locally (`SET LOCAL`): a server connection a
    /// transaction-mode pooler hands the next client keeps none; the URI's (or the role's) own
    /// values win.
    @Test func eachTransactionHasLockAndStatementTimeoutsUnlessTheURISetsThem() throws {
        let uri = try Self.tcpURI()
        func shown(_ store: PostgresStore) throws -> [String?] {
            try store.transaction {
                let row = try store.connection.query("SELECT current_setting('lock_timeout'), current_setting('statement_timeout')")
                return [row.text(0, 0), row.text(0, 1)]
            }
        }
        let store = try PostgresStore(uri: uri)
        #expect(try shown(store) == ["10s", "1min"])
        let session = try store.run { try store.connection.query("SELECT current_setting('lock_timeout')").text(0, 0) }
        #expect(session == "0", "the session itself is left as the server has it")
        #expect(try shown(PostgresStore(uri: uri + "?options=-c%20statement_timeout%3D2500ms")) == ["10s", "2500ms"])
        #expect(try shown(PostgresStore(uri: uri + "?options=-c%20lock_timeout%3D3s")) == ["3s", "1min"])
    }

    /// A store holds no server connection while its process waits: the one it keeps between
    /// transactions is closed after `idleCloseSeconds`, and the next statement opens another.
    @Test func anIdleStoreHoldsNoConnection() throws {
        let server = try ThrowawayPostgres.shared()
        let database = try server.createDatabase()
        var bounds = PostgresWaitBounds()
        bounds.idleCloseSeconds = 0.3
        let store = try PostgresStore(uri: database.uri, bounds: bounds)
        func connections() throws -> Int {
            Int(try server.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database.name)'")[0][0] ?? "") ?? -1
        }
        #expect(try connections() == 1)
        #expect(try Wait.until(seconds: 10) { try connections() == 0 })
        #expect(try store.journalEntries(serial: nil).isEmpty)
        #expect(try connections() == 1)
        #expect(try Wait.until(seconds: 10) { try connections() == 0 })
    }
}
