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
        /// The receive waiting; one whose wait ended (time limit, cancellation) refuses an item,
        /// which is then queued.
        var waiter: OneShot<Delivery>?
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
            let (queued, waiter) = state.withLock { s -> (Bool, OneShot<Delivery>?) in
                if let w = s.waiter {
                    s.waiter = nil
                    return (true, w)
                }
                guard s.items.count - s.head < capacity else {
                    s.senderWaiting = true
                    return (false, nil)
                }
                s.items.append(item)
                return (true, nil)
            }
            if let waiter, !waiter.resume(returning: .item(item)) { continue }  // its wait ended: queue it
            if queued { return }
            room.wait()
        }
    }

    /// Marks the end of input; waiting and later receives get `.ended` once the queue is drained.
    func finish() {
        let waiter = state.withLock { s -> OneShot<Delivery>? in
            s.ended = true
            defer { s.waiter = nil }
            return s.items.count == s.head ? s.waiter : nil
        }
        waiter?.resume(returning: .ended)
    }

    /// The next item, or why there is none; waits at most `timeout` (real time) when given.
    func receive(timeout: Duration?) async -> Delivery {
        let answer = OneShot<Delivery>()
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
            s.waiter = answer
            return nil
        }
        if let immediate {
            if case .item = immediate { wakeSender() }
            return immediate
        }
        let delivery = await answer.result(timeout: timeout, timedOut: { .success(.timedOut) }, cancelled: { .success(.cancelled) })
        return (try? delivery.get()) ?? .cancelled
    }

    /// Lets a sender blocked on a full channel try again.
    private func wakeSender() {
        let wake = state.withLock { s -> Bool in
            defer { s.senderWaiting = false }
            return s.senderWaiting
        }
        if wake { room.signal() }
    }
}
