import CSQLite
import Foundation

/// The store file's identity: a store swapped under a running process must not take
/// its claims, and a file that is no store must not be read as an empty one. A seen-set that
/// silently starts over hands on every reading it held a second time (the seed's rule: no reading
/// is handed on twice), so each case fails closed with 74 and says how to fix it:
/// - a file deleted or replaced (another inode at the path) after it was opened: every commit
///   first checks that the path is still the file opened (device and inode), and rolls back if not;
/// - a 0-byte file where a store is expected (a truncation, a `: > state.sqlite3`): refused at
///   open; SQLite would read it as an empty database;
/// - a missing file is a new store: it is built under a temporary name and linked into place
///   (link(2) never replaces), so no other process ever sees it half made or 0 bytes long, and
///   `created` tells the caller to say so once.
///
/// Page checksums: SQLite offers them only through the `cksumvfs` extension, which Debian's
/// libsqlite3 does not build and which needs 8 reserved bytes per page (a rebuilt file); corsano
/// does not use them. A flipped byte in a page is caught only where SQLite's own structure checks
/// see it (`SQLITE_CORRUPT`, 74).
struct StoreFileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64

    /// The identity of the file at `path` now; nil when there is none.
    static func of(path: String) -> StoreFileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return StoreFileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}

extension SQLiteStore {
    /// Refuses a 0-byte file at `path`, and builds a new store there when none exists.
    /// - Returns: true when this call created the store (it is then complete: schema, WAL mode).
    /// - Throws: `StoreError.corrupt` for a 0-byte file, `StoreError.cannotOpen` when the new
    ///   store cannot be made.
    static func prepareFile(at path: String, busyTimeoutMilliseconds: Int32) throws -> Bool {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) != S_IFREG || info.st_size > 0 else {
                throw StoreError.corrupt(path: path, message: "the file is empty (0 bytes), not a state store; corsano does "
                                         + "not start a new store over it: restore the store from a backup, or remove the "
                                         + "file to start a new one (its replay seen-set and plan journal are then gone)")
            }
            return false
        }
        let temporary = path + ".new-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        defer {
            for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary + suffix) }
        }
        do {
            // Built complete (schema, WAL) under its own name, closed, then linked into place.
            _ = try SQLiteStore(opening: temporary, create: true, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        }
        if link(temporary, path) == 0 { return true }
        let code = errno
        if code == EEXIST { return false }  // another process made it first: that store is used
        throw StoreError.cannotOpen(path: path, message: "cannot create the store: " + String(cString: strerror(code)))
    }

    /// Whether the path still names the file this store opened. - Throws: `StoreError.failed`
    /// naming the path when it was deleted or replaced (nothing is committed then).
    func checkIdentity() throws {
        guard let opened = identity else { return }
        let now = StoreFileIdentity.of(path: path)
        guard now != opened else { return }
        let what = now == nil ? "was deleted" : "was replaced by another file"
        throw StoreError.failed(path: path, message: "the store file \(what) while corsano had it open; nothing more is "
                                + "committed to it (a store that starts over would hand on again every reading it held): "
                                + "restore the store, or run again to use the file now at that path")
    }
}
