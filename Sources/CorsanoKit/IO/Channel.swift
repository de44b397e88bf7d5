import Dispatch
import Synchronization

/// A hand-off of items from a producer thread (a blocking reader, the D-Bus I/O thread) to one
/// consuming task: with a `capacity` the producer waits while that many items are queued; the
/// consumer's wait ends on an item, the end of input, a real-time timeout or cancellation of
/// its task.
final class Channel<Element: Sendable>: Sendable {
    /// What one `receive` came to.
    enum Delivery {
        case item(Element)
        case ended
        case timedOut
        case cancelled
    }

    private struct State {
        var items: [Element] = []
        var head = 0
        var ended = false
        var waiter: (id: UInt64, continuation: CheckedContinuation<Delivery, Never>)?
        var nextWaiterID: UInt64 = 0
        /// The reader is blocked in `send` until an item is taken.
        var senderWaiting = false
    }

    private let state = Mutex(State())
    private let capacity: Int
    /// Starts at 0: libdispatch traps when a semaphore is freed below its initial value.
    private let room = DispatchSemaphore(value: 0)

    /// Creates a channel holding at most `capacity` undelivered items (nil: any number, and
    /// `send` never blocks: for a producer that must stay responsive).
    init(capacity: Int? = 256) { self.capacity = capacity.map { max(1, $0) } ?? Int.max }

    /// Queues `item`, blocking the calling (producer) thread while the channel is full.
    func send(_ item: Element) {
        while true {
            let (queued, waiter) = state.withLock { s -> (Bool, CheckedContinuation<Delivery, Never>?) in
                if let w = s.waiter {
                    s.waiter = nil
                    return (true, w.continuation)
                }
                guard s.items.count - s.head < capacity else {
                    s.senderWaiting = true
                    return (false, nil)
                }
                s.items.append(item)
                return (true, nil)
            }
            waiter?.resume(returning: .item(item))
            if queued { return }
            room.wait()
        }
    }

    /// Marks the end of input; waiting and later receives get `.ended` once the queue is drained.
    func finish() {
        let waiter = state.withLock { s -> CheckedContinuation<Delivery, Never>? in
            s.ended = true
            defer { s.waiter = nil }
            return s.items.count == s.head ? s.waiter?.continuation : nil
        }
        waiter?.resume(returning: .ended)
    }

    /// The next item, or why there is none; waits at most `timeout` (real time) when given.
    func receive(timeout: Duration?) async -> Delivery {
        let id = state.withLock { s -> UInt64 in
            s.nextWaiterID += 1
            return s.nextWaiterID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Delivery, Never>) in
                let immediate = state.withLock { s -> Delivery? in
                    if s.head < s.items.count {
                        defer {
                            s.head += 1
                            if s.head == s.items.count { s.items.removeAll(keepingCapacity: true); s.head = 0 }
                        }
                        return .item(s.items[s.head])
                    }
                    if s.ended { return .ended }
                    if Task.isCancelled { return .cancelled }
                    s.waiter = (id, continuation)
                    return nil
                }
                if let immediate {
                    if case .item = immediate { wakeSender() }
                    continuation.resume(returning: immediate)
                } else if let timeout {
                    let (seconds, attoseconds) = timeout.components
                    let nanos = max(0, seconds) * 1_000_000_000 + attoseconds / 1_000_000_000
                    DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanos))) {
                        self.abandon(id, with: .timedOut)
                    }
                }
            }
        } onCancel: {
            abandon(id, with: .cancelled)
        }
    }

    /// Lets a sender blocked on a full channel try again.
    private func wakeSender() {
        let wake = state.withLock { s -> Bool in
            defer { s.senderWaiting = false }
            return s.senderWaiting
        }
        if wake { room.signal() }
    }

    /// Ends wait `id` with `delivery`, if it is still the one waiting.
    private func abandon(_ id: UInt64, with delivery: Delivery) {
        let waiter = state.withLock { s -> CheckedContinuation<Delivery, Never>? in
            guard let w = s.waiter, w.id == id else { return nil }
            s.waiter = nil
            return w.continuation
        }
        waiter?.resume(returning: delivery)
    }
}
