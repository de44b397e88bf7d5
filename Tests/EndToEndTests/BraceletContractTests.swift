import CorsanoKit
import Testing

/// The bracelet contract: the simulator's behaviour, identical whichever way it is reached.
@Suite struct BraceletContractTests {
    typealias T = BraceletSubject.Transport

    @Test(arguments: T.allCases)
    func identifyPlanAndProfile(transport: T) async throws {
        let profile = UserProfile(heightCm: 170, weightKg: 65, wrist: .right, gender: .female, unit: .imperial,
                                  birthdate: "1990-02-03", skinTone: 5, hairDensity: .none)
        let s = try await BraceletSubject.make(transport, Scenario(firmware: "10.0.3", serial: "S-77", plan: "sleep"))
        defer { s.teardown() }
        #expect(try await s.bracelet.identify() == BraceletIdentity(model: "287-2", firmware: "10.0.3", serial: "S-77"))
        #expect(try await s.bracelet.currentPlan() == BraceletPlan("sleep"))
        #expect(try await s.bracelet.readProfile() == nil)
        try await s.bracelet.setPlan(.nibpCalibration)
        #expect(try await s.bracelet.currentPlan() == .nibpCalibration)
        try await s.bracelet.pushProfile(profile, force: true)
        #expect(try await s.bracelet.readProfile() == profile)
    }

    @Test(arguments: T.allCases)
    func feedingOutsideTheCalibrationPlanIsRefused(transport: T) async throws {
        let s = try await BraceletSubject.make(transport)
        defer { s.teardown() }
        await #expect(throws: BraceletError.refused("not in the nibpCalibration plan (plan is monitoring)")) {
            _ = try await s.bracelet.feedCalibrationReading(.cuff(120, 80, 64), attempt: 1, index: 1)
        }
    }

    @Test(arguments: T.allCases)
    func defaultNIBPModelAcceptsPlausibleReadings(transport: T) async throws {
        let s = try await BraceletSubject.make(transport)
        defer { s.teardown() }
        let b = s.bracelet
        try await b.setPlan(.nibpCalibration)
        #expect(try await b.calibrationVerdict(attempt: 1) == false)
        #expect(try await b.feedCalibrationReading(.cuff(121, 79, 64), attempt: 1, index: 1) == true)
        #expect(try await b.feedCalibrationReading(.cuff(118, 77, 66), attempt: 1, index: 2) == true)
        #expect(try await b.calibrationVerdict(attempt: 1) == true)
        #expect(try await b.feedCalibrationReading(.cuff(120, 80, 64), attempt: 2, index: 1) == true)
        #expect(try await b.feedCalibrationReading(.cuff(260, 80, 64), attempt: 2, index: 2) == false)
        #expect(try await b.feedCalibrationReading(.cuff(80, 90, 64), attempt: 2, index: 3) == false)
        #expect(try await b.feedCalibrationReading(.cuff(120, 80, nil), attempt: 2, index: 4) == false)
        #expect(try await b.calibrationVerdict(attempt: 2) == false)
    }

    @Test(arguments: T.allCases)
    func scriptedNIBPVerdicts(transport: T) async throws {
        let scenario = Scenario(nibp: NIBPScenario(attempts: [
            NIBPAttemptScript(measurements: [false, true]),
            NIBPAttemptScript(measurements: [nil, true], session: false),
        ]))
        let s = try await BraceletSubject.make(transport, scenario)
        defer { s.teardown() }
        let b = s.bracelet
        try await b.setPlan(.nibpCalibration)
        #expect(try await b.feedCalibrationReading(.cuff(121, 79, 64), attempt: 1, index: 1) == false)
        #expect(try await b.feedCalibrationReading(.cuff(300, 79, 64), attempt: 1, index: 2) == true)
        #expect(try await b.calibrationVerdict(attempt: 1) == false)
        #expect(try await b.feedCalibrationReading(.cuff(300, 79, 64), attempt: 2, index: 1) == false)
        #expect(try await b.feedCalibrationReading(.cuff(120, 79, 64), attempt: 2, index: 2) == true)
        #expect(try await b.calibrationVerdict(attempt: 2) == false)
        #expect(try await b.feedCalibrationReading(.cuff(120, 79, 64), attempt: 3, index: 1) == true)
        #expect(try await b.calibrationVerdict(attempt: 3) == true)
    }

    @Test(arguments: T.allCases)
    func stillPatientConvergesInTwoMinutes(transport: T) async throws {
        let s = try await BraceletSubject.make(transport)
        defer { s.teardown() }
        let polls = try await s.runOptimization()
        #expect(polls.count == 24)
        let last = try #require(polls.last)
        #expect(last.elapsed == 120)
        #expect(last.status.finished && last.status.isSuccess && last.status.worn)
        #expect(last.status.percent == 100)
        #expect(last.status.quality >= 50)
        #expect(polls.dropLast().allSatisfy { !$0.status.finished && !$0.status.isSuccess })
        #expect(polls.allSatisfy { $0.status.motionLevel == 0 })
        #expect(zip(polls, polls.dropFirst()).allSatisfy { $0.status.percent < $1.status.percent })
        #expect(polls[0].status.quality < last.status.quality)
    }

    @Test(arguments: T.allCases)
    func movementStretchesItToFourMinutes(transport: T) async throws {
        let s = try await BraceletSubject.make(transport, Scenario(wearing: WearingScenario(model: WearingModel(movement: .restless))))
        defer { s.teardown() }
        let polls = try await s.runOptimization()
        #expect(polls.last?.elapsed == 240)
        #expect(polls.last?.status.finished == true)
        #expect(polls.allSatisfy { (2...4).contains($0.status.motionLevel) })
    }

    @Test(arguments: T.allCases)
    func poorContactGivesLowQualityAndNoSuccess(transport: T) async throws {
        let scenario = Scenario(wearing: WearingScenario(attempts: [
            WearingAttemptScript(model: WearingModel(skinTone: 6, hairDensity: .high, strapFit: .loose)),
            WearingAttemptScript(model: WearingModel(worn: false)),
        ]))
        let s = try await BraceletSubject.make(transport, scenario)
        defer { s.teardown() }
        let loose = try await s.runOptimization()
        #expect(loose.last?.status.finished == true)
        #expect(loose.last?.status.isSuccess == false)
        #expect(loose.allSatisfy { $0.status.quality < 50 && $0.status.worn })
        let off = try await s.runOptimization()
        #expect(off.last?.status.isSuccess == false)
        #expect(off.allSatisfy { !$0.status.worn && $0.status.quality < 20 })
        let third = try await s.runOptimization()
        #expect(third.last?.status.isSuccess == true)
    }

    @Test(arguments: T.allCases)
    func gravityFollowsTheAnnouncedPositionUnlessOverridden(transport: T) async throws {
        let up = GravityVector(x: 0, y: -1, z: 0)
        let scenario = Scenario(wearing: WearingScenario(attempts: [
            WearingAttemptScript(), WearingAttemptScript(), WearingAttemptScript(model: WearingModel(gravity: up)),
        ]))
        let s = try await BraceletSubject.make(transport, scenario)
        defer { s.teardown() }
        let seated = try await s.runOptimization()
        #expect(seated.allSatisfy { BraceletPosition(gravity: $0.status.gravity) == .seated })
        try await s.bracelet.announcePosition(.supine)
        let supine = try await s.runOptimization()
        #expect(supine.allSatisfy { BraceletPosition(gravity: $0.status.gravity) == .supine })
        #expect(supine.allSatisfy { abs($0.status.gravity.x + 0.98) < 0.05 })
        let overridden = try await s.runOptimization()
        #expect(overridden.allSatisfy { $0.status.gravity == GravityVector(x: 0, y: -1, z: 0) })
    }

    @Test(arguments: T.allCases)
    func scriptedPollsComeBackExactlyAsGiven(transport: T) async throws {
        let scenario = Scenario(wearing: WearingScenario(attempts: [WearingAttemptScript(polls: [
            WearingPoll(percent: 10, quality: 20, motionLevel: 2),
            WearingPoll(timeout: true),
            WearingPoll(percent: 100, quality: 61, isSuccess: true, finished: true, worn: false,
                        gravity: GravityVector(x: 0.5, y: 0.5, z: 0.5)),
        ])]))
        let s = try await BraceletSubject.make(transport, scenario)
        defer { s.teardown() }
        let b = s.bracelet
        try await b.startSpecialMode(value: 4)
        #expect(try await b.specialModeStatus(type: 4) == SpecialModeStatus(
            percent: 10, quality: 20, isSuccess: false, motionLevel: 2, finished: false, worn: true,
            gravity: BraceletPosition.seated.nominalGravity))
        await #expect(throws: BraceletError.timeout) { _ = try await b.specialModeStatus(type: 4) }
        let done = SpecialModeStatus(percent: 100, quality: 61, isSuccess: true, motionLevel: 0, finished: true,
                                     worn: false, gravity: GravityVector(x: 0.5, y: 0.5, z: 0.5))
        #expect(try await b.specialModeStatus(type: 4) == done)
        #expect(try await b.specialModeStatus(type: 4) == done)
    }

    @Test(arguments: T.allCases)
    func sameSeedSameRunOtherSeedOtherRun(transport: T) async throws {
        func qualities(_ seed: UInt64) async throws -> [Int] {
            let s = try await BraceletSubject.make(transport, Scenario(wearing: WearingScenario(model: WearingModel(movement: .some))), seed: seed)
            defer { s.teardown() }
            return try await s.runOptimization().map { $0.status.quality * 10 + $0.status.motionLevel }
        }
        let a = try await qualities(7), b = try await qualities(7), c = try await qualities(8)
        #expect(a == b)
        #expect(a != c)
        #expect(a.count == 36)
    }
}
