import Foundation

/// Runs a program found on PATH (bash, fish, tmux, mandoc) and captures its output.
enum Shell {
    struct Outcome {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func run(_ program: String, _ args: [String], stdin: String = "", env: [String: String] = [:]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + args
        var environment = Corsano.inherited
        for (k, v) in env { environment[k] = v }
        process.environment = environment
        return try capture(process, stdin: stdin)
    }

    /// Starts `process`, feeds it `stdin`, and reads stdout and stderr to their ends.
    static func capture(_ process: Process, stdin: String) throws -> Outcome {
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        Thread {
            // A program that exits without reading its input (a usage error) closes the pipe:
            // the write must fail with EPIPE here, not raise SIGPIPE and kill the whole test run.
            // Blocked on this thread only (children inherit nothing); the pending signal dies with it.
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            try? input.fileHandleForWriting.write(contentsOf: Data(stdin.utf8))
            try? input.fileHandleForWriting.close()
        }.start()
        let errData = DataBox()
        let errDone = DispatchSemaphore(value: 0)
        Thread {
            errData.data = errors.fileHandleForReading.readDataToEndOfFile()
            errDone.signal()
        }.start()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errDone.wait()
        return Outcome(status: process.terminationStatus,
                       stdout: String(decoding: outData, as: UTF8.self),
                       stderr: String(decoding: errData.data, as: UTF8.self))
    }
}
