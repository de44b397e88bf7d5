@testable import corsano
import CorsanoKit
import Testing

final class TextBuffer: TextOutput, @unchecked Sendable {
    var text = ""
    func write(_ s: String) { text += s }
    func flush() {}
}

@Suite struct TextSinkSmokeTests {
    @Test func rendersAStep() {
        let buffer = TextBuffer()
        let sink = TextEventSink(writer: buffer, localizer: Localizer(locale: .en), color: false)
        sink.emit(FlowEvent(event: "step", flow: "bp-init", run: "r", at: Instant(secondsSinceEpoch: 0),
                            fields: [("step", .string("measuring"))]))
        #expect(buffer.text == "Measurement 1, attempt 1\n------------------------\nPress START on the BP cuff monitor.\n")
    }
}
