import CorsanoKit
#if canImport(Glibc)
import Glibc
#endif

/// An Apple Health export read from a pipe is copied to a private temporary file and read from
/// there, twice, as its file would be: so it gets its pulse (the heart-rate records of the same
/// source and instant are found on a second pass) and an export.zip is read in place
/// (docs/design.md "Cuff input formats"). The file is made 0600 and exclusively (mkstemp) in
/// `$TMPDIR` (else /tmp) and unlinked at once, so no exit, not even SIGKILL, leaves it behind.
enum PipeSpool {
    /// The directory of the temporary file.
    static func directory(_ environment: [String: String]) -> String {
        guard let dir = environment["TMPDIR"], !dir.isEmpty else { return "/tmp" }
        return dir
    }

    /// Copies the rest of `source` to a new unlinked temporary file in `directory`.
    /// - Throws: `OutputFileError.cannotCreate` (74) naming the file when it cannot be made or
    ///   written (a full disk); what reading `source` throws.
    static func spool(_ source: inout any ByteSource, directory: String) throws -> any RandomAccessSource {
        var template = Array((directory + "/corsano-spool-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard fd >= 0 else {
            throw OutputFileError.cannotCreate(path: path, reason: "cannot hold the export read from a pipe: " + String(cString: strerror(errno)))
        }
        unlink(path)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { break }
            var written = 0
            while written < n {
                let w = chunk.withUnsafeBytes { write(fd, $0.baseAddress! + written, n - written) }
                if w < 0, errno == EINTR { continue }
                guard w > 0 else {
                    let reason = String(cString: strerror(w < 0 ? errno : ENOSPC))
                    close(fd)
                    throw OutputFileError.cannotCreate(path: path, reason: "cannot hold the export read from a pipe: " + reason)
                }
                written += w
            }
        }
        guard let file = FileDescriptorRandomAccess(fd: fd) else {
            close(fd)
            throw OutputFileError.cannotCreate(path: path, reason: "cannot hold the export read from a pipe: not a regular file")
        }
        return file
    }
}
