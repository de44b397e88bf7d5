import Synchronization

/// The one lock type of corsano is the standard library's `Synchronization.Mutex` (issue 24:
/// each fact once; a hand-rolled pthread wrapper stood beside it). A `Mutex<Void>` guards a
/// class's several stored properties at once; `locked` runs a closure holding it.
extension Mutex where Value == Void {
    /// Runs `body` holding the lock and returns its value. Not reentrant: `body` must not take
    /// the same lock again.
    /// - Throws: what `body` throws (the lock is released first).
    public borrowing func locked<T>(_ body: () throws -> T) rethrows -> T {
        try withLock { _ in try body() }
    }
}
