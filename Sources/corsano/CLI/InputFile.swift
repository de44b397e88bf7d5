import CorsanoKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One input operand opened for reading: a FILE, or stdin for `-` (DESIGN: every command reads
/// `-` as stdin). Opened up front so a missing file is exit 66 before any output.
struct InputFile {
    /// The name used in reports: the operand, or `<stdin>`.
    let name: String
    let fd: Int32
    private let owned: Bool

    /// Says on stderr that `command` now reads standard input when that is the person's
    /// terminal (it would otherwise wait silently), and how to end it.
    static func announceTerminalInput(_ inputs: [InputFile], command: String, _ ctx: CommandContext) {
        guard ctx.stdinIsTerminal, inputs.contains(where: { $0.fd == 0 }) else { return }
        ctx.note("\(command): reading standard input (the terminal): type or paste the records, "
                     + "then Control-D on a line of its own to end (Control-C cancels)")
    }

    /// Opens every operand, stdin when there are none. - Throws: `InputError.cannotOpen` (exit 66).
    static func openAll(_ operands: [String]) throws -> [InputFile] {
        var opened: [InputFile] = []
        do {
            for operand in operands.isEmpty ? ["-"] : operands { opened.append(try open(operand)) }
        } catch {
            opened.forEach { $0.close() }
            throw error
        }
        return opened
    }

    /// Opens `operand` (`-` is stdin). A directory is refused here, at open, like a missing file
    /// (Linux opens a directory for reading and fails only at the first read, after output began).
    /// - Throws: `InputError.cannotOpen` naming the path.
    static func open(_ operand: String) throws -> InputFile {
        if operand == "-" { return InputFile(name: "<stdin>", fd: 0, owned: false) }
        let fd = systemOpen(operand, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw InputError.cannotOpen(path: operand, reason: String(cString: strerror(errno))) }
        let file = InputFile(name: operand, fd: fd, owned: true)
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            file.close()
            throw InputError.cannotOpen(path: operand, reason: String(cString: strerror(EISDIR)))
        }
        return file
    }

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

/// Creates an output file for writing (`--rejects FILE`).
enum OutputFile {
    /// A buffered writer on `path`, created or truncated. - Throws: `OutputFileError` (exit 74).
    static func create(_ path: String) throws -> OutputWriter {
        let fd = systemOpen(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw OutputFileError.cannotCreate(path: path, reason: String(cString: strerror(errno))) }
        return OutputWriter(fd: fd, name: path)
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

private func systemClose(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.close(fd)
    #else
    Darwin.close(fd)
    #endif
}
