/// The simulated firmware's wearing optimization: status as a function of the seconds elapsed
/// since `startSpecialMode`, so a virtual clock runs a 4-minute optimization in microseconds.
enum WearingFirmwareModel {
    /// Seconds to converge: still ~120 s, some movement ~180 s, restless ~240 s (seed: "~2 minutes
    /// if the patient stays still, up to ~4 minutes if movement is detected").
    static func duration(_ movement: WearingModel.Movement) -> Double {
        switch movement {
        case .still: return 120
        case .some: return 180
        case .restless: return 240
        }
    }

    /// The quality (0-100) the run converges to: good contact gives the best signal.
    static func targetQuality(_ model: WearingModel, profile: UserProfile?) -> Int {
        guard model.worn else { return 8 }
        let tone = model.skinTone ?? profile?.skinTone ?? 3
        let hair = model.hairDensity ?? profile?.hairDensity ?? .low
        var q = 88 - (min(max(tone, 1), 6) - 1) * 4
        switch model.strapFit {
        case .good: break
        case .tight: q -= 8
        case .loose: q -= 35
        }
        switch hair {
        case .none: break
        case .low: q -= 3
        case .medium: q -= 8
        case .high: q -= 15
        }
        switch model.movement {
        case .still: break
        case .some: q -= 5
        case .restless: q -= 10
        }
        return min(max(q, 0), 100)
    }

    /// The status `elapsed` seconds into the run, with seeded sensor noise from `rng`.
    static func status(_ model: WearingModel, elapsed: Double, position: BraceletPosition,
                       profile: UserProfile?, rng: inout SplitMix64) -> SpecialModeStatus {
        let total = duration(model.movement)
        let fraction = min(max(elapsed / total, 0), 1)
        let finished = elapsed >= total
        let targetQuality = Self.targetQuality(model, profile: profile)
        let target = Double(targetQuality)
        let quality = Int((target * (0.35 + 0.65 * fraction) + rng.jitter(3)).rounded())
        let motion: Int
        switch model.movement {
        case .still: motion = 0
        case .some: motion = 1 + Int(rng.unit() * 2)
        case .restless: motion = 2 + Int(rng.unit() * 3)
        }
        return SpecialModeStatus(
            percent: Int((fraction * 100).rounded(.down)), quality: min(max(quality, 0), 100),
            isSuccess: finished && model.worn && WearingOptimizationConfig.isSuccessQuality(targetQuality), motionLevel: motion, finished: finished,
            worn: model.worn, gravity: gravity(model.gravity, position: position, motion: motion, rng: &rng))
    }

    /// The accelerometer's gravity: the override when given, else the position's, with noise.
    static func gravity(_ override: GravityVector?, position: BraceletPosition, motion: Int,
                        rng: inout SplitMix64) -> GravityVector {
        if let override { return override }
        let base = position.nominalGravity
        let spread = 0.02 + 0.03 * Double(motion)
        return GravityVector(x: base.x + rng.jitter(spread), y: base.y + rng.jitter(spread), z: base.z + rng.jitter(spread))
    }

    /// A scripted poll as a status, unset fields as 0 / false / worn.
    static func status(_ poll: WearingPoll, position: BraceletPosition) -> SpecialModeStatus {
        SpecialModeStatus(
            percent: poll.percent ?? 0, quality: poll.quality ?? 0, isSuccess: poll.isSuccess ?? false,
            motionLevel: poll.motionLevel ?? 0, finished: poll.finished ?? false, worn: poll.worn ?? true,
            gravity: poll.gravity ?? position.nominalGravity)
    }
}
