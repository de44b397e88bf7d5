#if canImport(Glibc)
import Glibc
#endif

/// Starts `/bin/sh -c COMMAND` the way every child of corsano is started (`exec:` bridges,
/// `--cuff-cmd`, `--cuff-paired-cmd`, `--pair-cmd`).
///
/// The child gets its own process group, so a Ctrl-C at the terminal reaches corsano only and the
/// flow can still restore the bracelet's plan through the child; SIGINT, SIGTERM, SIGPIPE, SIGHUP
/// and SIGQUIT are reset to their defaults, because ignored signals (our SIGPIPE) are inherited.
public enum ShellSpawn {
    /// Starts `command` with `stdin` (nil: /dev/null) and `stdout` duplicated onto 0 and 1; its
    /// stderr is ours; no other descriptor is passed on. The caller's pipe ends must be
    /// close-on-exec (other children started meanwhile must not hold them).
    /// - Returns: the child's pid (also its process-group id), or why `posix_spawn` failed.
    public static func start(_ command: String, stdin: Int32?, stdout: Int32) -> Result<pid_t, SpawnFailure> {
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
        // corsano blocks its stop signals from the first instruction; a child starts
        // with none blocked, or a bridge or cuff command would ignore SIGINT/SIGTERM for good.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attrs, &unblocked)
        posix_spawnattr_setflags(&attrs, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        if let stdin {
            posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        // Only 0, 1 and 2 go to the child: a descriptor someone leaked into us (a supervisor's
        // exit-watch socket, a pipe our parent waits on for EOF) must not outlive us in a cuff
        // command's background child and keep that waiter waiting.
        _ = addCloseFrom?(&actions, 3)
        let words: [String] = ["/bin/sh", "-c", command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, "/bin/sh", &actions, &attrs, argv, environ)
        return rc == 0 ? .success(pid) : .failure(SpawnFailure(errno: rc))
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34+), looked up at run time: the
/// Glibc module does not import it (a GNU extension). nil on an older C library, where children
/// then inherit what we inherited.
private let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? =
    dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }

/// `posix_spawn` refused to start a child; `errno` is its result code.
public struct SpawnFailure: Error, Equatable, Sendable {
    public let errno: Int32
    /// The system's text for `errno`.
    public var message: String { String(cString: strerror(errno)) }
}
