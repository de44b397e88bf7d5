@testable import CorsanoKit
import Foundation
import Testing

/// Issue 27: every scenario and bridge value is range-checked, naming the field; a valid JSON
/// number out of range is called out of range, not invalid JSON; a scenario file has a size cap.
@Suite struct HostileValuesTests {
    static func refusal(_ json: String) -> String? {
        do {
            _ = try Scenario.decode(Data(json.utf8), source: "s.json")
            return nil
        } catch ScenarioError.invalid(_, let message) {
            return message
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        (#"{"faults":{"holdAtStep":{"step":"measuring","seconds":-3}}}"#, "field faults.holdAtStep.seconds: -3 is out of range (0 or more)"),
        (#"{"faults":{"disconnectAtStep":{"step":"measuring","occurrence":0}}}"#, "field faults.disconnectAtStep.occurrence: 0 is out of range (1 or more)"),
        (#"{"faults":{"silentAtStep":{"step":"mesuring"}}}"#, "field faults.silentAtStep.step: unknown step 'mesuring'"),
        (#"{"faults":{"holdAtStep":{"flow":"bp-inti","step":"measuring"}}}"#, "field faults.holdAtStep.flow: unknown flow 'bp-inti'"),
        (#"{"faults":{"disconnectAtPoll":{"poll":-1}}}"#, "field faults.disconnectAtPoll.poll: -1 is out of range (1 or more)"),
        (#"{"faults":{"disconnectAtMeasurement":{"attempt":0,"index":1}}}"#, "field faults.disconnectAtMeasurement.attempt: 0 is out of range"),
        (#"{"faults":{"failPlanSwitch":{"to":"nibpCalibration","occurrence":0}}}"#, "field faults.failPlanSwitch.occurrence: 0 is out of range"),
        (#"{"serial":"a","serial":"b"}"#, "field serial: given twice"),
        (#"{"nibp":{"attempts":[{"session":false},{"session":true,"session":false}]}}"#, "field nibp.attempts[1].session: given twice"),
        (#"{"faults":{"holdAtStep":{"step":"measuring","seconds":1.5}}}"#, "field faults.holdAtStep.seconds: 1.5 is out of range"),
        (#"{"faults":{"holdAtStep":{"step":"measuring","seconds":1e400}}}"#, "field faults.holdAtStep.seconds: 1e400 is out of range"),
        (#"{"wearing":{"attempts":[{"polls":[{"percent":-5}]}]}}"#, "field wearing.attempts[0].polls[0].percent: -5 is out of range"),
        (#"{"wearing":{"attempts":[{"polls":[{"quality":101}]}]}}"#, "field wearing.attempts[0].polls[0].quality: 101 is out of range"),
        (#"{"wearing":{"model":{"gravity":{"x":1e308,"y":0,"z":-1}}}}"#, "field wearing.model.gravity.x: 1e+308 is out of range"),
    ])
    func hostileScenarioValuesAreRefusedNamingTheField(json: String, message: String) {
        let refusal = Self.refusal(json)
        #expect(refusal?.hasPrefix(message) == true, "\(refusal ?? "accepted")")
    }

    @Test func reasonableScenariosStillLoad() {
        #expect(Self.refusal(#"{"serial":"x:\"y\"","faults":{"holdAtStep":{"flow":"bp-init","step":"measuring","occurrence":2,"seconds":0}}}"#) == nil)
    }

    @Test func anOversizedScenarioFileIsRefusedBeforeItIsRead() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("big-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(Scenario.maxFileBytes + 1))
        try handle.close()
        #expect(throws: ScenarioError.invalid(source: path, message: "\(Scenario.maxFileBytes + 1) bytes is over the 4 MiB a scenario may have")) {
            try Scenario.load(path: path)
        }
    }

    static func status(_ percent: JSONValue, _ quality: JSONValue, _ x: JSONValue, motion: JSONValue = .int(0)) -> JSONValue {
        .object([("percent", percent), ("quality", quality), ("isSuccess", .bool(false)), ("motionLevel", motion),
                 ("finished", .bool(false)), ("worn", .bool(true)), ("gravity", .object([("x", x), ("y", .double(0)), ("z", .double(-1))]))])
    }

    /// A bridge's status with a negative percent, a quality over 100, a negative motion level or
    /// a gravity of ±1e308 is a protocol error naming the field, never a measurement.
    @Test(arguments: [
        (status(.int(-5), .int(50), .double(0)), "percent"),
        (status(.int(50), .int(101), .double(0)), "quality"),
        (status(.int(50), .int(50), .double(1e308)), "x"),
        (status(.int(50), .int(50), .double(-1e308)), "x"),
        (status(.int(50), .int(50), .double(0), motion: .int(-1)), "motionLevel"),
    ])
    func hostileBridgeStatusValuesAreProtocolErrors(status: JSONValue, field: String) {
        do {
            _ = try BridgeCodec.status(BridgeParams(status))
            Issue.record("accepted \(status.serialized)")
        } catch BridgeProtocolError.invalidParams(let what) {
            #expect(what.hasPrefix(field + " ("), "\(what)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func aPlausibleStatusStillDecodes() throws {
        let s = try BridgeCodec.status(BridgeParams(Self.status(.int(45), .int(62), .double(0.05))))
        #expect(s.percent == 45 && s.quality == 62 && s.gravity.x == 0.05)
    }
}
