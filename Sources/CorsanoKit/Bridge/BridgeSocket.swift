#if canImport(Glibc)
import Glibc
#endif

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
            guard rc == 0 else { let e = unavailable("unix:\(path)"); Glibc.close(fd); throw e }
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

    /// Binds and listens on `address`; a stale unix socket file is replaced. Returns the socket and
    /// the address actually bound (`tcp:HOST:0` gets its port). - Throws: `BraceletError.unavailable`.
    public static func listen(_ address: BraceletAddress) throws -> (fd: Int32, bound: String) {
        switch address {
        case .unix(let path):
            var addr = try unixAddress(path)
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw unavailable("unix:\(path)") }
            var st = stat()
            if lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFSOCK { unlink(path) }
            // Linux gives the socket file the socket inode's mode less the umask: 0600 here makes
            // it 0600 (or stricter) whatever the umask, with no window (issue 27; unix(7)).
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
