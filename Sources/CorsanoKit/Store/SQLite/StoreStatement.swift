import CSQLite

/// A prepared SQLite statement: bind, step, read columns, reset.
public final class StoreStatement {
    let store: SQLiteStore
    let handle: OpaquePointer
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(store: SQLiteStore, handle: OpaquePointer) {
        self.store = store
        self.handle = handle
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds parameters 1... in order (Int, Int64, Double, String, nil). - Throws: `StoreError`.
    public func bind(_ values: [StoreValue]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(handle, index)
            case .int(let v): rc = sqlite3_bind_int64(handle, index, v)
            case .double(let v): rc = sqlite3_bind_double(handle, index, v)
            case .text(let v): rc = sqlite3_bind_text(handle, index, v, -1, Self.transient)
            }
            guard rc == SQLITE_OK else { throw store.error(rc, "bind failed") }
        }
    }

    /// Steps once; true when a row is available. - Throws: `StoreError`.
    @discardableResult
    public func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw store.error(rc, String(cString: sqlite3_errmsg(store.db)))
        }
    }

    /// Binds, runs to completion and resets; returns rows changed. - Throws: `StoreError`.
    @discardableResult
    public func run(_ values: [StoreValue] = []) throws -> Int {
        // A write outside a transaction commits as it runs: the file must still be the store's.
        if sqlite3_get_autocommit(store.db) != 0, sqlite3_stmt_readonly(handle) == 0 { try store.checkIdentity() }
        try bind(values)
        while try step() {}
        sqlite3_reset(handle)
        return store.changes
    }

    /// Binds and returns every row as columns of values. - Throws: `StoreError`.
    public func rows(_ values: [StoreValue] = []) throws -> [[StoreValue]] {
        try bind(values)
        var out: [[StoreValue]] = []
        while try step() {
            out.append((0..<sqlite3_column_count(handle)).map(column))
        }
        sqlite3_reset(handle)
        return out
    }

    /// Column `i` of the current row.
    public func column(_ i: Int32) -> StoreValue {
        switch sqlite3_column_type(handle, i) {
        case SQLITE_INTEGER: return .int(sqlite3_column_int64(handle, i))
        case SQLITE_FLOAT: return .double(sqlite3_column_double(handle, i))
        case SQLITE_NULL: return .null
        default: return .text(sqlite3_column_text(handle, i).map { String(cString: $0) } ?? "")
        }
    }
}

/// A value bound to or read from a statement.
public enum StoreValue: Equatable, Sendable {
    case null
    case int(Int64)
    case double(Double)
    case text(String)

    /// The text, when this is text.
    public var text: String? { if case .text(let t) = self { return t } else { return nil } }
    /// The integer, when this is an integer.
    public var int: Int64? { if case .int(let v) = self { return v } else { return nil } }
    /// The number, when this is a real or an integer.
    public var double: Double? {
        switch self {
        case .double(let v): return v
        case .int(let v): return Double(v)
        default: return nil
        }
    }
}
