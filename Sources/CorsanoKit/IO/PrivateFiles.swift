#if canImport(Glibc)
import Glibc
#endif

/// Files and directories holding health data or secrets are created private whatever the
/// umask — files 0600, directories 0700 — as ssh, bash (history) and initdb do (issue 27,
/// docs/design.md "Privacy"). Existing files and directories keep their modes: the user chose them.
public enum PrivateFiles {
    /// Mode of a file corsano creates holding health data or a secret.
    public static let fileMode: mode_t = 0o600
    /// Mode of a directory corsano creates for such files.
    public static let directoryMode: mode_t = 0o700

    /// Makes `path` and its missing parents as 0700 directories; existing ones are left alone.
    /// - Throws: `PrivateFileError` naming the directory and the errno text.
    public static func makeDirectory(_ path: String) throws(PrivateFileError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, directoryMode) == 0 {
                _ = chmod(prefix, directoryMode)  // the umask may have taken bits we need (0277)
                continue
            }
            let error = errno
            var st = stat()
            guard error == EEXIST, stat(prefix, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR else {
                throw PrivateFileError(path: prefix, reason: String(cString: strerror(error == EEXIST ? ENOTDIR : error)))
            }
        }
    }

    /// Creates `path` empty with mode 0600 when it does not exist (never through a symlink), so
    /// that a library opening it next (SQLite, which gives -wal/-shm the main file's mode) finds
    /// it private. An existing file is left alone.
    /// - Throws: `PrivateFileError` when it cannot be created.
    public static func createIfMissing(_ path: String) throws(PrivateFileError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, fileMode)
        if fd >= 0 {
            _ = fchmod(fd, fileMode)
            close(fd)
            return
        }
        if errno == EEXIST { return }
        throw PrivateFileError(path: path, reason: String(cString: strerror(errno)))
    }
}

/// A private file or directory that could not be made.
public struct PrivateFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file or directory.
    public let path: String
    /// The errno text.
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}
