#if canImport(Glibc)
import Glibc
#endif

extension BridgeSocket {
    /// One resolved TCP address.
    struct Resolved {
        let family: Int32
        let storage: [UInt8]
        var length: socklen_t { socklen_t(storage.count) }
        /// Calls `body` with the address (valid only inside `body`).
        func withAddress<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
            storage.withUnsafeBytes { body($0.baseAddress!.assumingMemoryBound(to: sockaddr.self), length) }
        }
    }

    /// Resolves `host`:`port` (numeric port). - Throws: `BraceletError.unavailable`.
    static func resolve(_ host: String, _ port: UInt16, passive: Bool) throws -> [Resolved] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0 else {
            throw BraceletError.unavailable("tcp:\(host):\(port): \(String(cString: gai_strerror(rc)))")
        }
        defer { freeaddrinfo(list) }
        var out: [Resolved] = []
        var node = list
        while let info = node?.pointee {
            if let addr = info.ai_addr {
                let bytes = UnsafeRawBufferPointer(start: addr, count: Int(info.ai_addrlen))
                out.append(Resolved(family: info.ai_family, storage: Array(bytes)))
            }
            node = info.ai_next
        }
        return out
    }

    /// Non-blocking connect bounded by `timeout` seconds; true when connected.
    static func connect(_ fd: Int32, _ address: Resolved, timeout: Double) -> Bool {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(fd, F_SETFL, flags) }
        if address.withAddress({ Glibc.connect(fd, $0, $1) }) == 0 { return true }
        guard errno == EINPROGRESS else { return false }
        var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        let ms = Int32(min(max(timeout, 0.001), 3600) * 1000)
        var rc: Int32
        repeat { rc = poll(&pfd, 1, ms) } while rc < 0 && errno == EINTR
        guard rc == 1 else { errno = ETIMEDOUT; return false }
        var error: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size)
        if error != 0 { errno = error }
        return error == 0
    }
}
