@testable import CorsanoKit
import Foundation
import Synchronization
import Testing

/// Issue 24: one lock type (`Synchronization.Mutex`; `Mutex<Void>.locked` for a class's several
/// properties) and one blocking-thread bridge (`OneShot`) in the sources, and their users keep
/// every item a timed-out or cancelled wait did not take.
@Suite(.timeLimit(.minutes(1))) struct OneLockAndBridgeTests {
    final class Counter: @unchecked Sendable {
        let lock = Mutex(())
        var value = 0
    }

    @Test func lockedExcludesOtherThreads() {
        let counter = Counter()
        let done = DispatchGroup()
        for _ in 0..<4 {
            done.enter()
            Thread {
                for _ in 0..<20_000 { counter.lock.locked { counter.value += 1 } }
                done.leave()
            }.start()
        }
        done.wait()
        #expect(counter.value == 80_000)
    }

    /// The sources (`Sources/`) hold no other lock type and no hand-rolled continuation timer.
    /// The stores' `NSRecursiveLock` (re-entered by nested transactions) is the one exception.
    @Test func theSourcesUseOneLockTypeAndOneBridge() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 100)
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for banned in ["NSLockLite", "pthread_mutex_lock", "NSLock()", "os_unfair_lock", "NSCondition"] where text.contains(banned) {
                found.append("\(file.lastPathComponent): \(banned)")
            }
            if text.contains("asyncAfter"), file.lastPathComponent != "OneShot.swift" {
                found.append("\(file.lastPathComponent): asyncAfter (a time limit outside OneShot)")
            }
        }
        #expect(found == [])
    }

    /// A receive that timed out, or whose task was cancelled, leaves no waiter behind that
    /// swallows the next item: it goes to the next receive.
    @Test(arguments: [false, true]) func anItemSentAfterAnEndedReceiveIsKept(cancelled: Bool) async {
        let channel = Channel<Int>(capacity: 4)
        let waiting = Task { await channel.receive(timeout: cancelled ? nil : .milliseconds(10)) }
        if cancelled { waiting.cancel() }
        switch await waiting.value {
        case .timedOut where !cancelled, .cancelled where cancelled: break
        default: Issue.record("the receive did not end as expected")
        }
        channel.send(42)
        guard case .item(42) = await channel.receive(timeout: .seconds(10)) else {
            Issue.record("the item sent after the ended receive was lost")
            return
        }
    }
}
