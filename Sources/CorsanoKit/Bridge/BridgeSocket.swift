#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// POSIX sockets for the bridge: connect with a timeout, listen, accept (unix-domain and TCP).
public enum BridgeSocket {
    /// Connects to a bridge at `address` (`.unix` or `.tcp`) within `timeout` seconds.
    /// - Throws: `BraceletError.unavailable` saying why.
    public static func connect(_ address: BraceletAddress, timeout: Double) throws -> Int32 {
        switch address {
        case .unix(let path):
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw unavailable("unix:\(path)") }
            var addr = try unixAddress(path)
            let rc = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard rc == 0 else {
                // A path that is not a socket gives "Connection refused" (a file) or the like:
                // say what the path is instead.
                let e = notASocket(path).map { BraceletError.unavailable("unix:\(path): \($0)") } ?? unavailable("unix:\(path)")
                Glibc.close(fd)
                throw e
            }
            return fd
        case .tcp(let host, let port):
            var lastError = BraceletError.unavailable("tcp:\(host):\(port): no address")
            for info in try resolve(host, port, passive: false) {
                let fd = socket(info.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
                guard fd >= 0 else { continue }
                if connect(fd, info, timeout: timeout) {
                    setNoDelay(fd)
                    return fd
                }
                lastError = unavailable("tcp:\(host):\(port)")
                Glibc.close(fd)
            }
            throw lastError
        default:
            throw BraceletError.unavailable("not a socket address")
        }
    }

    /// Binds and listens on `address`. Returns the socket and the address actually bound
    /// (`tcp:HOST:0` gets its port).
    ///
    /// A unix path is never taken over: a socket file there is connected to first, and only a
    /// stale one (nobody answers: `ECONNREFUSED`) is replaced; a live server, a regular file, a
    /// directory or anything else there is refused with its own reason.
    /// - Throws: `BraceletError.unavailable` (`unix:PATH: reason` / `tcp:HOST:PORT: reason`).
    public static func listen(_ address: BraceletAddress) throws -> (fd: Int32, bound: String) {
        switch address {
        case .unix(let path):
            var addr = try unixAddress(path)
            try clearStaleSocket(path)
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw unavailable("unix:\(path)") }
            // Linux gives the socket file the socket inode's mode less the umask: 0600 here makes
            // it 0600 (or stricter) whatever the umask, with no window (unix(7)).
            _ = fchmod(fd, 0o600)
            let rc = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard rc == 0, Glibc.listen(fd, 16) == 0 else { let e = unavailable("unix:\(path)"); Glibc.close(fd); throw e }
            return (fd, "unix:\(path)")
        case .tcp(let host, let port):
            guard let info = try resolve(host, port, passive: true).first else { throw unavailable("tcp:\(host):\(port)") }
            let fd = socket(info.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw unavailable("tcp:\(host):\(port)") }
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            guard info.withAddress({ bind(fd, $0, $1) }) == 0, Glibc.listen(fd, 16) == 0 else {
                let e = unavailable("tcp:\(host):\(port)")
                Glibc.close(fd)
                throw e
            }
            var bound = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            _ = withUnsafeMutablePointer(to: &bound) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            let boundPort = withUnsafePointer(to: &bound) { p -> UInt16 in
                p.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            }
            let shownHost = host.contains(":") ? "[\(host)]" : host
            return (fd, "tcp:\(shownHost):\(boundPort)")
        default:
            throw BraceletError.unavailable("can only listen on unix:PATH or tcp:HOST:PORT")
        }
    }

    /// Accepts one connection (blocking); nil when the listener was closed.
    public static func accept(_ listener: Int32) -> Int32? {
        while true {
            let fd = Glibc.accept(listener, nil, nil)
            if fd >= 0 {
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                setNoDelay(fd)
                return fd
            }
            if errno == EINTR || errno == ECONNABORTED { continue }
            return nil
        }
    }

    /// Waits up to `timeoutMilliseconds` for a connection on any of `listeners` and accepts it:
    /// the index of its listener and the connected socket; nil when none came in time (one
    /// thread serves every socket of a fleet: `bracelet serve --fleet`).
    public static func acceptAny(_ listeners: [Int32], timeoutMilliseconds: Int32) -> (index: Int, fd: Int32)? {
        var fds = listeners.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        guard poll(&fds, nfds_t(fds.count), timeoutMilliseconds) > 0 else { return nil }
        guard let index = fds.firstIndex(where: { $0.revents & Int16(POLLIN) != 0 }) else { return nil }
        // Non-blocking for this one call: a client that gave up between poll and accept blocks nothing.
        let flags = fcntl(listeners[index], F_GETFL)
        _ = fcntl(listeners[index], F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(listeners[index], F_SETFL, flags) }
        let fd = Glibc.accept(listeners[index], nil, nil)
        guard fd >= 0 else { return nil }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        setNoDelay(fd)
        return (index, fd)
    }

    /// Makes `path` free for a listener, or says why it cannot be: nothing there, or a stale
    /// socket file (removed), is fine; a socket a server answers on, a regular file, a directory
    /// or another kind of file is refused, and never removed.
    /// - Throws: `BraceletError.unavailable("unix:PATH: reason")`.
    static func clearStaleSocket(_ path: String) throws {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        if let what = notASocket(path) { throw BraceletError.unavailable("unix:\(path): \(what)") }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { throw unavailable("unix:\(path)") }
        defer { Glibc.close(probe) }
        var addr = try unixAddress(path)
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if rc == 0 {
            throw BraceletError.unavailable("unix:\(path): a server is already listening there (\(describePeer(probe)))")
        }
        guard errno == ECONNREFUSED else {
            // Not known to be stale (e.g. EACCES): removing it could cut off a live server.
            throw BraceletError.unavailable("unix:\(path): the socket there cannot be checked (\(String(cString: strerror(errno))))")
        }
        guard unlink(path) == 0 || errno == ENOENT else { throw unavailable("unix:\(path)") }
    }

    /// What `path` is when it is there and not a socket (`is a regular file, not a socket`, …); nil
    /// when it is a socket or cannot be looked at (the caller's own error then says why).
    public static func notASocket(_ path: String) -> String? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        switch st.st_mode & S_IFMT {
        case S_IFSOCK: return nil
        case S_IFREG: return "is a regular file, not a socket"
        case S_IFDIR: return "is a directory, not a socket"
        case S_IFLNK: return "is a symbolic link, not a socket"
        case S_IFIFO: return "is a named pipe (FIFO), not a socket"
        default: return "is a device file, not a socket"
        }
    }

    /// The process on the other end of a connected unix socket, as `pid N, NAME` (SO_PEERCRED and
    /// /proc/N/comm), or `pid N` / `its process cannot be named` when that is all that is known.
    static func describePeer(_ fd: Int32) -> String {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; } (Glibc hides it behind _GNU_SOURCE).
        var cred: [Int32] = [0, 0, 0]
        var size = socklen_t(MemoryLayout<Int32>.size * 3)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &size) == 0, cred[0] > 0 else { return "its process cannot be named" }
        let pid = cred[0]
        guard let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8) else { return "pid \(pid)" }
        let name = comm.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines)
        return name.isEmpty ? "pid \(pid)" : "pid \(pid), \(name)"
    }

    /// `HOST:PORT` (or `[HOST]:PORT`) of a connected TCP socket's peer, for the server's log.
    public static func peerName(_ fd: Int32) -> String {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        } == 0
        guard ok else { return "an unknown peer" }
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST)), service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let rc = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &host, socklen_t(host.count), &service, socklen_t(service.count), NI_NUMERICHOST | NI_NUMERICSERV)
            }
        }
        guard rc == 0 else { return "an unknown peer" }
        let text = { (chars: [CChar]) in String(decoding: chars.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        let h = text(host)
        return (h.contains(":") ? "[\(h)]" : h) + ":" + text(service)
    }

    static func unavailable(_ what: String) -> BraceletError {
        .unavailable("\(what): \(String(cString: strerror(errno)))")
    }

    static func unixAddress(_ path: String) throws -> sockaddr_un {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard bytes.count < capacity else {
            throw BraceletError.unavailable("unix:\(path): path longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return addr
    }

    /// Small requests must not wait for Nagle's algorithm.
    static func setNoDelay(_ fd: Int32) {
        var yes: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
    }
}
