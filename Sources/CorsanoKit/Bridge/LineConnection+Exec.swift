import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension LineConnection {
    /// Starts `sh -c command` and speaks to it on its stdin/stdout (its stderr is ours), for an
    /// `exec:` bridge. - Throws: `BraceletError.unavailable` when it cannot be started.
    public static func spawn(command: String) throws -> LineConnection {
        // Our ends are close-on-exec so the child never holds its own stdin open.
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0 else { throw BridgeSocket.unavailable("exec:\(command)") }
        guard pipe(&fromChild) == 0 else {
            let e = BridgeSocket.unavailable("exec:\(command)")
            toChild.forEach { _ = Glibc.close($0) }
            throw e
        }
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardInput = FileHandle(fileDescriptor: toChild[0], closeOnDealloc: false)
        process.standardOutput = FileHandle(fileDescriptor: fromChild[1], closeOnDealloc: false)
        do {
            try process.run()
        } catch {
            (toChild + fromChild).forEach { _ = Glibc.close($0) }
            throw BraceletError.unavailable("exec:\(command): \(error.localizedDescription)")
        }
        Glibc.close(toChild[0])
        Glibc.close(fromChild[1])
        // A child that exits makes our writes fail with EPIPE, not kill us.
        signal(SIGPIPE, SIG_IGN)
        return LineConnection(readFD: fromChild[0], writeFD: toChild[1], child: ProcessBox(process))
    }
}
