import CReadline
import Foundation

/// The editor thread: poll, feed readline one character at a time, print output above the line.
extension LineEditor {
    func loop() {
        while true {
            let reading = active != nil
            var fds = [pollfd(fd: wakeReadEnd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: outputReadEnd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: 0, events: reading ? Int16(POLLIN) : 0, revents: 0)]
            let n = poll(&fds, 3, -1)
            if n < 0 { if errno == EINTR { continue }; break }
            if fds[1].revents != 0 { drainOutput() }
            if fds[0].revents != 0, !handleWake() { break }
            if fds[2].revents & Int16(POLLIN | POLLHUP) != 0, active != nil { rl_callback_read_char() }
        }
        drainOutput()
        if active != nil { rl_callback_handler_remove() }
        finishActive(.endOfInput)
        if let s = suspended { suspended = nil; s.done(.endOfInput) }
        finished.signal()
    }

    /// Handles wake bytes; false when the editor is stopping.
    private func handleWake() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = read(wakeReadEnd, &buffer, buffer.count)
        for byte in buffer.prefix(max(0, n)) {
            switch byte {
            case 0x72 /* r */: beginPendingRequest()
            case 0x69 /* i */: interrupt()
            case 0x77 /* w */: rl_resize_terminal()
            case 0x74 /* t */:
                if active != nil { dismissLine() }
                finishActive(.endOfInput)
            case 0x63 /* c */:
                // A question and the cuff> prompt it put aside both end.
                while active?.interruptEnds == true { dismissLine(); finishActive(.interrupted) }
            case 0x71 /* q */:
                drainOutput()
                return false
            default: break
            }
        }
        return true
    }

    private func beginPendingRequest() {
        if suspended == nil, let request = takeQuestion() {
            if let current = active {
                dismissLine()
                suspended = current
            }
            show(request)
        } else if active == nil, let request = takePending() {
            show(request)
        }
    }

    private func show(_ request: Request) {
        active = request
        if let list = request.kind.history { useHistory(list) }
        rl_callback_handler_install(request.prompt) { line in LineEditor.shared?.lineEntered(line) }
    }

    /// Control-C: always tell the REPL (it cancels a running command); at a plain prompt clear
    /// the line and show the prompt again; at a flow's prompt end the request.
    private func interrupt() {
        onInterruptCallback()
        guard let request = active else {
            writeOut([UInt8(ascii: "\n")])  // after the terminal's own ^C echo
            return
        }
        abandonLine()
        if request.interruptEnds {
            finishActive(.interrupted)
        } else {
            rl_callback_handler_install(request.prompt) { line in LineEditor.shared?.lineEntered(line) }
        }
    }

    /// Drops what was typed and leaves the cursor on a fresh line.
    private func abandonLine() {
        writeOut(Array("^C\n".utf8))
        rl_callback_sigcleanup()
        rl_free_line_state()
        rl_replace_line("", 0)
        rl_callback_handler_remove()
    }

    /// Takes a prompt nobody answers any more (its flow ended) off the screen.
    private func dismissLine() {
        rl_clear_visible_line()
        rl_free_line_state()
        rl_replace_line("", 0)
        rl_callback_handler_remove()
        writeOut(Array("\r".utf8))
    }

    /// readline's line handler (on this thread): nil is end of input.
    fileprivate func lineEntered(_ raw: UnsafeMutablePointer<CChar>?) {
        rl_callback_handler_remove()
        guard let raw else {
            writeOut([UInt8(ascii: "\n")])
            finishActive(.endOfInput)
            return
        }
        let line = String(cString: raw)
        free(raw)
        if let list = active?.kind.history {
            useHistory(list)
            history.add(line, to: list)
        }
        finishActive(.line(line))
    }

    /// Makes `list` the history readline recalls and adds to (the other is put aside).
    func useHistory(_ list: REPLHistory.List) {
        guard list != historyInUse else { return }
        corsano_history_swap()
        historyInUse = list
    }

    private func finishActive(_ event: Event) {
        guard let request = active else { return }
        active = nil
        request.done(event)
        if let put = suspended {
            // The question is answered: the cuff> prompt it put aside comes back.
            suspended = nil
            show(put)
        }
        beginPendingRequest()
    }

    /// Prints complete lines of command output; above the line being typed when one is.
    private func drainOutput() {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            var probe = pollfd(fd: outputReadEnd, events: Int16(POLLIN), revents: 0)
            guard poll(&probe, 1, 0) > 0 else { break }
            let n = read(outputReadEnd, &buffer, buffer.count)
            guard n > 0 else { break }
            partialOutput += buffer.prefix(n)
        }
        guard let lastNewline = partialOutput.lastIndex(of: UInt8(ascii: "\n")) else { return }
        let complete = Array(partialOutput[...lastNewline])
        partialOutput.removeSubrange(...lastNewline)
        printAbove(complete)
    }

    private func printAbove(_ bytes: [UInt8]) {
        let reading = active != nil
        if reading { rl_clear_visible_line() }
        writeOut(bytes)
        if reading {
            rl_on_new_line()
            rl_redisplay()
        }
    }

    /// Writes to the terminal after what readline buffered in its stdio stream.
    private func writeOut(_ bytes: [UInt8]) {
        fflush(nil)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(terminalFD, raw.baseAddress! + offset, raw.count - offset)
                if n <= 0 { if errno == EINTR { continue }; break }
                offset += n
            }
        }
    }
}
