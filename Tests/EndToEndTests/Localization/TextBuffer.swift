@testable import CorsanoCLI
import Synchronization

/// A `TextOutput` that keeps what was written, for rendering tests.
final class TextBuffer: TextOutput {
    private let stored = Mutex("")
    private let flushes = Mutex(0)

    var text: String { stored.withLock { $0 } }
    var flushCount: Int { flushes.withLock { $0 } }

    func write(_ s: String) { stored.withLock { $0 += s } }
    func flush() { flushes.withLock { $0 += 1 } }
}
