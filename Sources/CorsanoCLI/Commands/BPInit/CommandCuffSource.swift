import CorsanoKit
import Synchronization

/// `--cuff-cmd CMD`: runs `sh -c CMD` once per measurement request; its stdout lines are that
/// request's items in order (the flow takes the first that passes the host rules). A non-zero
/// exit, a timeout (`--cuff-timeout`) or running out of lines is `noReading`.
final class CommandCuffSource: CuffSource {
    private let command: String
    private let timeout: Duration?
    private let ctx: CommandContext
    private let current = Mutex<(request: CuffRequest, items: [CuffItem])?>(nil)

    init(command: String, timeout: Duration?, ctx: CommandContext) {
        self.command = command
        self.timeout = timeout
        self.ctx = ctx
    }

    func next(for request: CuffRequest) async throws -> CuffItem {
        if current.withLock({ $0?.request != request }) {
            let items = try await run()
            current.withLock { $0 = (request, items) }
        }
        return current.withLock { c -> CuffItem in
            guard var state = c, !state.items.isEmpty else { return .failed(.noReading) }
            let item = state.items.removeFirst()
            c = state
            return item
        }
    }

    /// The items of one run of the command. - Throws: `CancellationError`.
    private func run() async throws -> [CuffItem] {
        switch try await ShellCommand.run(command, timeout: timeout) {
        case .exited(0, let output):
            return LineCuffSource.items(in: output, name: "--cuff-cmd")
        case .exited(let status, _):
            ctx.diagnose("--cuff-cmd exited with status \(status): no reading")
        case .timedOut:
            ctx.diagnose("--cuff-cmd gave no reading within --cuff-timeout")
        case .failedToStart(let why):
            ctx.diagnose("--cuff-cmd could not start: \(why)")
        }
        return []
    }
}
