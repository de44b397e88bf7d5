import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What the kernel says about a running process, for `Wait.until` conditions (Linux /proc).
public enum ProcessProbe {
    /// True when no process is left in process group `pgid`: `kill(-pgid, 0)` fails with ESRCH.
    /// (A zombie still counts as a member until it is reaped.)
    public static func groupIsGone(_ pgid: pid_t) -> Bool {
        kill(-pgid, 0) == -1 && errno == ESRCH
    }

    /// The signal masks of `/proc/PID/status` (`SigCgt`, `SigPnd`, `ShdPnd`, ...), by name; empty
    /// when the process is gone.
    static func signalMasks(_ pid: pid_t) -> [String: UInt64] {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        var masks: [String: UInt64] = [:]
        for line in status.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, parts[0].hasPrefix("Sig") || parts[0] == "ShdPnd",
                  let mask = UInt64(parts[1].trimmingCharacters(in: .whitespaces), radix: 16) else { continue }
            masks[String(parts[0])] = mask
        }
        return masks
    }

    static func bit(_ signo: Int32) -> UInt64 { UInt64(1) << UInt64(signo - 1) }

    /// True when process `pid` has a handler for `signo` (SigCgt): sent before that, the signal
    /// would take its default action or be ignored.
    public static func catches(_ signo: Int32, pid: pid_t) -> Bool {
        (signalMasks(pid)["SigCgt"] ?? 0) & bit(signo) != 0
    }

    /// True when process `pid` exists and no `signo` is pending for it (SigPnd, ShdPnd), so one
    /// sent now is a second delivery, not merged by the kernel into the first.
    public static func hasNoPending(_ signo: Int32, pid: pid_t) -> Bool {
        let masks = signalMasks(pid)
        guard let thread = masks["SigPnd"], let shared = masks["ShdPnd"] else { return false }
        return (thread | shared) & bit(signo) == 0
    }

    /// True when process `pid` is stopped (`T` in /proc/PID/stat), e.g. after SIGSTOP.
    public static func isStopped(_ pid: pid_t) -> Bool {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        guard let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("T")
    }

    #if arch(x86_64)
    static let readSyscall = 0
    #elseif arch(arm64)
    static let readSyscall = 63
    #else
    static let readSyscall = -2  // unknown numbering: never matches
    #endif

    /// True when a thread of process `pid` is blocked in `read(2)` on descriptor `fd`
    /// (/proc/PID/task/TID/syscall): the process is waiting for input there.
    public static func isReading(fd: Int32, pid: pid_t) -> Bool {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.contains { tid in
            let call = (try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/syscall", encoding: .utf8)) ?? ""
            let fields = call.split(separator: " ")
            return fields.count > 1 && Int(fields[0]) == readSyscall && UInt64(fields[1].dropFirst(2), radix: 16) == UInt64(fd)
        }
    }

    /// Messages queued unread on the connected unix stream sockets bound to `path` (`ss -x`
    /// Recv-Q), e.g. requests a stopped server has not read. nil when `ss` cannot be run.
    public static func unreadOnUnixSocket(path: String) -> Int? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ss", "-x", "-H", "-n"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        // u_str ESTAB RECV-Q SEND-Q LOCAL-PATH INODE PEER PEER-INODE
        return text.split(separator: "\n").reduce(0) { total, line in
            let f = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard f.count >= 5, f[0] == "u_str", f[4] == path, let queued = Int(f[2]) else { return total }
            return total + queued
        }
    }
}
