import CorsanoKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One input operand opened for reading: a FILE, or stdin for `-` (docs/design.md "Commands and options": every command reads
/// `-` as stdin). Opened up front so a missing file is exit 66 before any output.
struct InputFile {
    /// The name used in reports: the operand, or `<stdin>`.
    let name: String
    let fd: Int32
    private let owned: Bool
    /// A FIFO opened without blocking that no writer has opened yet: its first read waits for one
    /// (`bytes`), so a reading's timeout bounds that wait as any other.
    private var awaitsWriter = false

    /// Says on stderr that `command` now reads standard input when that is the person's
    /// terminal (it would otherwise wait silently), and how to end it.
    static func announceTerminalInput(_ inputs: [InputFile], command: String, _ ctx: CommandContext) {
        guard ctx.stdinIsTerminal, inputs.contains(where: { $0.fd == 0 }) else { return }
        ctx.note("\(command): reading standard input (the terminal): type or paste the records, "
                     + "then Control-D on a line of its own to end (Control-C cancels)")
    }

    /// Opens every operand, stdin when there are none. - Throws: `InputError.cannotOpen` (exit 66).
    static func openAll(_ operands: [String], diagnostics: Diagnostics = .none) throws -> [InputFile] {
        var opened: [InputFile] = []
        do {
            for operand in operands.isEmpty ? ["-"] : operands { opened.append(try open(operand, diagnostics: diagnostics)) }
        } catch {
            opened.forEach { $0.close() }
            throw error
        }
        return opened
    }

    /// Opens `operand` (`-` is stdin). A directory is refused here, at open, like a missing file
    /// (Linux opens a directory for reading and fails only at the first read, after output began).
    /// - Throws: `InputError.cannotOpen` naming the path.
    ///
    /// An operand FIFO (`cuff ingest`, `replay-filter`: pipelines rely on it) blocks in open(2)
    /// until a writer opens it, said at `-v` ("waiting for a writer on F"). An input with a timeout
    /// (`bp-init --cuff`, `validate --live`'s cuff: `waitsForWriter` false) is opened without
    /// blocking, and its first read waits for the writer instead (`bytes`), so `--cuff-timeout`
    /// bounds a FIFO nobody writes (docs/design.md "Commands and options").
    static func open(_ operand: String, waitsForWriter: Bool = true, diagnostics: Diagnostics = .none) throws -> InputFile {
        if operand == "-" { return InputFile(name: "<stdin>", fd: 0, owned: false) }
        var before = stat()
        let isFIFO = stat(operand, &before) == 0 && (before.st_mode & S_IFMT) == S_IFIFO
        if isFIFO, waitsForWriter { diagnostics.info(.ingest, "waiting for a writer on \(operand)") }
        let fd = systemOpen(operand, O_RDONLY | O_CLOEXEC | (waitsForWriter ? 0 : O_NONBLOCK))
        guard fd >= 0 else { throw InputError.cannotOpen(path: operand, reason: String(cString: strerror(errno))) }
        var file = InputFile(name: operand, fd: fd, owned: true)
        var info = stat()
        guard fstat(fd, &info) == 0 else { return file }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            file.close()
            throw InputError.cannotOpen(path: operand, reason: String(cString: strerror(EISDIR)))
        }
        if !waitsForWriter {
            if (info.st_mode & S_IFMT) == S_IFIFO { file.awaitsWriter = true } else { file.setBlocking() }
        }
        return file
    }

    /// The bytes of this input; a FIFO opened without blocking first waits for its writer.
    var bytes: any ByteSource { awaitsWriter ? FIFOWriterWait(fd: fd) : FileDescriptorSource(fd: fd) }

    /// Clears `O_NONBLOCK`: reads wait for data again.
    fileprivate func setBlocking() { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) }

    /// True for a regular file: reading it never waits for a writer, so a caller may batch
    /// across reads (a pipe, FIFO, socket or terminal may block at any read).
    var isRegularFile: Bool {
        var info = stat()
        return fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// Closes the descriptor unless it is stdin.
    func close() {
        if owned { _ = systemClose(fd) }
    }
}

/// A FIFO opened with `O_NONBLOCK` before any writer: the first read waits in poll(2) until one
/// opens it (Linux reports neither data nor hang-up on a FIFO that never had a writer), then the
/// descriptor blocks as usual, and the writer's close is the end of input. The wait runs on the
/// reader's thread, so the reading's timeout ends a run whose FIFO nobody writes.
struct FIFOWriterWait: ByteSource {
    let fd: Int32
    private var waited = false

    init(fd: Int32) { self.fd = fd }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if !waited {
            var watched = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            while poll(&watched, 1, -1) < 0 {
                guard errno == EINTR else { throw ByteSourceError.readFailed(errno: errno) }
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            waited = true
        }
        var source = FileDescriptorSource(fd: fd)
        return try source.read(into: buffer)
    }
}

/// Creates output files safely (docs/design.md "Privacy"): each is written to a
/// temporary file made with `O_CREAT|O_EXCL|O_NOFOLLOW` (mode 0600: the records are health data)
/// beside its target and renamed over it, so a symlink is never followed, a file's other hard
/// links are never truncated, and only a regular file is ever replaced.
enum OutputFile {
    /// A buffered writer on `path` (`--rejects FILE`): the temporary file is renamed into place at
    /// once, so the file grows as the run goes. - Throws: `OutputFileError` (exit 74).
    static func create(_ path: String) throws -> OutputWriter {
        let (fd, temporary) = try createTemporary(beside: path)
        try replace(path, with: temporary, fd: fd)
        return OutputWriter(fd: fd, name: path)
    }

    /// A writer on a temporary file beside `path`; `commit` renames it over `path` once written
    /// whole (an export's files and manifest). - Throws: `OutputFileError` (exit 74).
    /// `mode` is the file's (default 0600; metrics for node_exporter, which hold no health data, are 0644).
    static func createWhole(_ path: String, mode: mode_t = PrivateFiles.fileMode) throws -> (writer: OutputWriter, temporary: String) {
        let (fd, temporary) = try createTemporary(beside: path, mode: mode)
        return (OutputWriter(fd: fd, name: path), temporary)
    }

    /// Flushes and closes a `createWhole` file and renames it over its target; removes the
    /// temporary file when that fails. - Throws: `OutputFileError` (exit 74).
    static func commit(_ file: (writer: OutputWriter, temporary: String)) throws {
        file.writer.flush()
        let failed = file.writer.hasFailed || fsync(file.writer.fd) != 0
        systemClose(file.writer.fd)
        guard !failed else {
            unlink(file.temporary)
            throw OutputFileError.cannotCreate(path: file.writer.name, reason: "write failed")
        }
        try replace(file.writer.name, with: file.temporary, fd: nil)
    }

    /// Removes `path` if it is a regular file; anything else there is refused, never removed
    /// (a directory named like a stale export file is someone's data). Absent is fine.
    /// - Throws: `OutputFileError` (exit 74).
    static func removeRegular(_ path: String) throws {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        try requireRegular(path, st)
        guard unlink(path) == 0 || errno == ENOENT else {
            throw OutputFileError.cannotCreate(path: path, reason: "a file of an earlier export cannot be removed: \(String(cString: strerror(errno)))")
        }
    }

    /// Refuses a `path` that exists and is not a regular file. - Throws: `OutputFileError`.
    static func requireRegularOrAbsent(_ path: String) throws {
        var st = stat()
        if lstat(path, &st) == 0 { try requireRegular(path, st) }
    }

    private static func requireRegular(_ path: String, _ st: stat) throws {
        let kind: String
        switch st.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFLNK: kind = "a symbolic link"
        case S_IFDIR: kind = "a directory"
        default: kind = "not a regular file"
        }
        throw OutputFileError.cannotCreate(path: path, reason: "is \(kind); corsano replaces only regular files, so it was left alone")
    }

    private static func createTemporary(beside path: String, mode: mode_t = PrivateFiles.fileMode) throws -> (Int32, String) {
        try requireRegularOrAbsent(path)
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        for _ in 0..<16 {
            let temporary = directory + "." + base + ".tmp-" + String(UInt32.random(in: .min ... .max), radix: 16)
            let fd = systemOpen(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if fd >= 0 {
                _ = fchmod(fd, mode)
                return (fd, temporary)
            }
            guard errno == EEXIST else { break }
        }
        throw OutputFileError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
    }

    /// Renames `temporary` over `path`, checking again that `path` is absent or a regular file.
    private static func replace(_ path: String, with temporary: String, fd: Int32?) throws {
        do {
            try requireRegularOrAbsent(path)
            guard rename(temporary, path) == 0 else {
                throw OutputFileError.cannotCreate(path: path, reason: String(cString: strerror(errno)))
            }
        } catch {
            unlink(temporary)
            if let fd { systemClose(fd) }
            throw error
        }
    }
}

/// An output file that cannot be written (exit 74).
enum OutputFileError: DiagnosticError, Equatable {
    case cannotCreate(path: String, reason: String)

    /// `PATH: reason`.
    var message: String {
        switch self {
        case .cannotCreate(let path, let reason): return "\(path): \(reason)"
        }
    }
}

private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    #if canImport(Glibc)
    Glibc.open(path, flags, mode)
    #else
    Darwin.open(path, flags, mode)
    #endif
}

@discardableResult
private func systemClose(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(fd)
    #else
    Darwin.close(fd)
    #endif
}
