#if canImport(Glibc)
import Glibc
#endif

/// What tells a process apart from a later one that reuses its pid: its start time and the boot
/// it runs in, read from /proc (Linux proc(5)); nil elsewhere.
public enum ProcessIdentity {
    /// Field 22 (`starttime`, clock ticks after boot) of /proc/PID/stat; nil when unreadable.
    public static func startTime(of pid: Int32) -> UInt64? {
        guard let stat = read("/proc/\(pid)/stat") else { return nil }
        // comm (field 2) is in parentheses and may hold spaces: count fields after the last ')'.
        guard let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After comm come field 3 (state) ... field 22 (starttime): index 19.
        guard fields.count > 19 else { return nil }
        return UInt64(fields[19])
    }

    /// True when process `pid` has ended and waits to be reaped (state `Z`, or `X` dead, in
    /// /proc/PID/stat field 3): it holds its pid and start time but runs no more.
    public static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = read("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].drop { $0 == " " }.first
        return state == "Z" || state == "X"
    }

    /// /proc/sys/kernel/random/boot_id without its newline; nil when unreadable.
    public static func bootID() -> String? {
        read("/proc/sys/kernel/random/boot_id").map { String($0.filter { !$0.isWhitespace }) }
    }

    private static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
