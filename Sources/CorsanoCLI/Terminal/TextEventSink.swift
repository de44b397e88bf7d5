import Foundation
import CorsanoKit
import Synchronization

/// Writes a flow's events as localized human text (docs/design.md "Events": "When stdout is a terminal the same
/// run prints localized human text instead").
///
/// What to say comes from the core's `FlowNarrator`; this sink lays it out (`TextLayout`) and
/// flushes after every event so a person or a pipe sees each screen as it happens. With
/// `liveProgress` (a real terminal) successive progress bars overwrite one line; otherwise each
/// progress event is its own line, which reads well in a log.
final class TextEventSink: EventSink {
    private struct State {
        var narrator: FlowNarrator
        var wroteAnything = false
        /// A live progress line is on screen without its newline.
        var progressOpen = false
    }

    private let writer: any TextOutput
    private let layout: TextLayout
    private let liveProgress: Bool
    private let state: Mutex<State>

    /// Creates a sink writing to `writer` in `localizer`'s language, with ANSI colour when `color`,
    /// laid out for `terminal`'s width (80 columns when there is none).
    init(writer: any TextOutput, localizer: Localizer, color: Bool, liveProgress: Bool = false,
         terminal: TerminalWidth = TerminalWidth(columns: TerminalWidth.fallback)) {
        self.writer = writer
        self.layout = TextLayout(terminal: terminal, color: color, rightToLeft: localizer.locale.isRightToLeft)
        self.liveProgress = liveProgress
        var narrator = FlowNarrator(localizer: localizer)
        narrator.timeZone = TimeZone.current  // the operator's clock (TZ), for "next set from HH:MM"
        self.state = Mutex(State(narrator: narrator))
    }

    func emit(_ event: FlowEvent) {
        state.withLock { s in
            let blocks = s.narrator.narrate(event)
            guard !blocks.isEmpty else { return }
            var out = ""
            if liveProgress, blocks.count == 1, case .progress(let percent, let detail) = blocks[0] {
                // Carriage return and erase-to-end-of-line: redraw the bar in place (the line is
                // shorter than the terminal, so it never wraps onto a row the next redraw misses).
                out = "\r" + layout.render([.progress(percent: percent, detail: detail)], first: true)
                    .dropLast() + "\u{1B}[K"
                s.progressOpen = true
            } else {
                if s.progressOpen { out = "\n" }
                s.progressOpen = false
                out += layout.render(blocks, first: !s.wroteAnything)
            }
            s.wroteAnything = true
            writer.write(out)
            writer.flush()
        }
    }
}
