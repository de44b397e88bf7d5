import CorsanoKit
import Foundation
import Synchronization
import Testing

/// `OneShot`, the one bridge from blocking work on a thread to a waiting task: the first answer
/// wins (the work's, the time limit's or the cancellation's), none is lost, none resumes twice.
@Suite(.timeLimit(.minutes(1))) struct OneShotTests {
    @Test func anAnswerGivenBeforeTheWaitIsKept() async throws {
        let shot = OneShot<Int>()
        #expect(shot.resume(returning: 7))
        #expect(!shot.resume(returning: 8), "a later answer is refused")
        #expect(try await shot.value(timedOut: { -1 }) == 7)
    }

    @Test func anAnswerFromABlockingThreadEndsTheWait() async throws {
        let shot = OneShot<String>()
        let go = DispatchSemaphore(value: 0)
        Thread {
            go.wait()  // blocks until the wait below has started
            shot.resume(returning: "line")
        }.start()
        let waiting = Task { try await shot.value(timeout: .seconds(30), timedOut: { "timedOut" }) }
        go.signal()
        #expect(try await waiting.value == "line")
    }

    @Test func theTimeLimitAnswersAndInterruptsTheWorkOnce() async throws {
        let shot = OneShot<String>()
        let interrupts = Atomic<Int>(0)
        let started = ContinuousClock.now
        let value = try await shot.value(timeout: .milliseconds(50), timedOut: { "timedOut" }) {
            interrupts.add(1, ordering: .relaxed)
        }
        #expect(value == "timedOut")
        #expect(ContinuousClock.now - started >= .milliseconds(50))
        #expect(interrupts.load(ordering: .relaxed) == 1)
        #expect(!shot.resume(returning: "late"), "the work's late answer is refused, not resumed twice")
    }

    @Test func cancellingTheWaitingTaskThrowsAndInterruptsTheWork() async throws {
        let shot = OneShot<Int>()
        let interrupted = OneShot<Void>()
        let waiting = Task { try await shot.value(timedOut: { -1 }) { interrupted.resume(returning: ()) } }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(interrupted.isAnswered)
        #expect(!shot.resume(returning: 1))
    }

    @Test func aTaskCancelledBeforeItWaitsEndsAtOnce() async throws {
        let shot = OneShot<Int>()
        let waiting = Task {
            while !Task.isCancelled { await Task.yield() }
            return try await shot.value(timeout: .seconds(30), timedOut: { -1 })
        }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    /// Work, time limit and cancellation racing: every wait ends (none lost), with exactly one
    /// winning answer (a second resume of a continuation would trap).
    @Test func racingAnswersResumeEachWaitExactlyOnce() async throws {
        for round in 0..<300 {
            let shot = OneShot<Int>()
            let winners = Atomic<Int>(0)
            Thread { if shot.resume(returning: round) { winners.add(1, ordering: .relaxed) } }.start()
            let waiting = Task { await shot.result(timeout: .microseconds(Int64(round % 7) * 20), timedOut: { .success(-1) }) }
            if round % 3 == 0 { waiting.cancel() }
            let result = await waiting.value
            switch result {
            case .success(let v): #expect(v == round || v == -1)
            case .failure(let e): #expect(e is CancellationError)
            }
            // The thread's resume either won (its value came out) or was refused.
            if case .success(round) = result { #expect(winners.load(ordering: .relaxed) <= 1) }
        }
    }
}
