import CorsanoKit
import Testing

@Suite struct BraceletGateTests {
    static func identity(_ model: String, _ firmware: String) -> BraceletIdentity {
        BraceletIdentity(model: model, firmware: firmware, serial: "X1")
    }

    @Test(arguments: [FlowName.bpInit, .wearingOpt])
    func model287_1IsRefusedByBothFlows(flow: FlowName) {
        #expect(throws: BraceletGateError.wrongModel(flow: flow.rawValue, found: "287-1", required: "287-2")) {
            try BraceletGate.check(Self.identity("287-1", "7.4"), flow: flow)
        }
    }

    @Test func firmware6_9IsRefusedByWearingOptOnly() throws {
        try BraceletGate.check(Self.identity("287-2", "6.9"), flow: .bpInit)
        #expect(throws: BraceletGateError.firmwareTooOld(flow: "wearing-opt", found: "6.9", required: "7.0")) {
            try BraceletGate.check(Self.identity("287-2", "6.9"), flow: .wearingOpt)
        }
    }

    @Test(arguments: ["7.0", "7", "7.0.0", "7.4", "10.0", "10.0.3"])
    func firmwareFrom7_0IsAccepted(firmware: String) throws {
        try BraceletGate.check(Self.identity("287-2", firmware), flow: .wearingOpt)
        try BraceletGate.check(Self.identity("287-2", firmware), flow: .bpInit)
    }

    @Test(arguments: ["6.99", "0.9", "beta", "7.x", "", "7..0"])
    func oldOrUnreadableFirmwareIsRefusedByWearingOpt(firmware: String) {
        #expect(throws: BraceletGateError.firmwareTooOld(flow: "wearing-opt", found: firmware, required: "7.0")) {
            try BraceletGate.check(Self.identity("287-2", firmware), flow: .wearingOpt)
        }
    }

    @Test func messagesSayWhatWasFoundAndWhatIsRequired() {
        #expect(BraceletGateError.wrongModel(flow: "bp-init", found: "287-1", required: "287-2").message
                == "bp-init needs a 287-2 bracelet; this bracelet is model 287-1")
        #expect(BraceletGateError.firmwareTooOld(flow: "wearing-opt", found: "6.9", required: "7.0").message
                == "wearing-opt needs firmware 7.0 or later; this bracelet has firmware 6.9")
    }

    @Test func versionsCompareAsNumbers() throws {
        let v = { (s: String) throws -> FirmwareVersion in try #require(FirmwareVersion(s)) }
        #expect(try v("10.0") > v("7.0"))
        #expect(try v("7.10") > v("7.9"))
        #expect(try v("7") == v("7.0.0"))
        #expect(try v("6.9") < v("7.0"))
        #expect(FirmwareVersion("-1") == nil)
        // Issue 18: parts beyond Int64 compare as digit strings, never "too old".
        #expect(try v("99999999999999999999.0") > v("7.0"))
        #expect(try v("99999999999999999999") < v("100000000000000000000"))
        #expect(try v("7.00000000000000000000000001") == v("7.1"))
        #expect(try v("007.4") == v("7.4"))
        #expect(try v("99999999999999999999.0").description == "99999999999999999999.0")
        #expect(FirmwareVersion("7.x") == nil && FirmwareVersion("") == nil && FirmwareVersion("7..0") == nil)
    }

    @Test func ungatedCommandsAcceptAnyBracelet() throws {
        try BraceletGate.check(Self.identity("100-0", "1.0"), flow: .profilePush)
    }
}
