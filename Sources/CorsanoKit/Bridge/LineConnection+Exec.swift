#if canImport(Glibc)
import Glibc
#endif

extension LineConnection {
    /// Starts `sh -c command` and speaks to it on its stdin/stdout (its stderr is ours), for an
    /// `exec:` bridge. - Throws: `BraceletError.unavailable` when it cannot be started.
    ///
    /// The child runs in its own process group with SIGINT, SIGTERM and SIGPIPE at their defaults:
    /// a Ctrl-C at the terminal must not kill the bridge before the flow has restored the plan
    /// through it, and an ignored SIGPIPE (ours) must not be inherited.
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
        var attrs = posix_spawnattr_t()
        var actions = posix_spawn_file_actions_t()
        posix_spawnattr_init(&attrs)
        posix_spawn_file_actions_init(&actions)
        defer {
            posix_spawnattr_destroy(&attrs)
            posix_spawn_file_actions_destroy(&actions)
        }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signo in [SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT] { sigaddset(&defaults, signo) }
        posix_spawnattr_setsigdefault(&attrs, &defaults)
        posix_spawnattr_setpgroup(&attrs, 0)
        posix_spawnattr_setflags(&attrs, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF))
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        let words: [String] = ["/bin/sh", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, "/bin/sh", &actions, &attrs, argv, environ)
        Glibc.close(toChild[0])
        Glibc.close(fromChild[1])
        guard rc == 0 else {
            Glibc.close(toChild[1])
            Glibc.close(fromChild[0])
            throw BraceletError.unavailable("exec:\(command): \(String(cString: strerror(rc)))")
        }
        return LineConnection(readFD: fromChild[0], writeFD: toChild[1], child: ChildProcess(pid: pid))
    }
}
