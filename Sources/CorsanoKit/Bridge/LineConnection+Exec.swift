#if canImport(Glibc)
import Glibc
#endif

extension LineConnection {
    /// Starts `sh -c command` and speaks to it on its stdin/stdout (its stderr is ours), for an
    /// `exec:` bridge. - Throws: `BraceletError.unavailable` when it cannot be started.
    ///
    /// Started by `ShellSpawn` (own process group, signals at their defaults), so a Ctrl-C at
    /// the terminal cannot kill the bridge before the flow has restored the plan through it.
    public static func spawn(command: String) throws -> LineConnection {
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0 else { throw BridgeSocket.unavailable("exec:\(command)") }
        guard pipe(&fromChild) == 0 else {
            let e = BridgeSocket.unavailable("exec:\(command)")
            toChild.forEach { _ = Glibc.close($0) }
            throw e
        }
        // Our ends are close-on-exec so the child never holds its own stdin open.
        for fd in toChild + fromChild { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let started = ShellSpawn.start(command, stdin: toChild[0], stdout: fromChild[1])
        Glibc.close(toChild[0])
        Glibc.close(fromChild[1])
        switch started {
        case .success(let pid):
            return LineConnection(readFD: fromChild[0], writeFD: toChild[1], child: ChildProcess(pid: pid))
        case .failure(let failure):
            Glibc.close(toChild[1])
            Glibc.close(fromChild[0])
            throw BraceletError.unavailable("exec:\(command): \(failure.message)")
        }
    }
}
