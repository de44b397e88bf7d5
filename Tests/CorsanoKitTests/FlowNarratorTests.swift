import CorsanoKit
import Testing

/// What the narrator says for screens and outcomes the snapshot runs do not reach.
@Suite struct FlowNarratorTests {
    static func narrate(_ locale: AppLocale, _ flow: FlowName, _ payloads: [FlowEventPayload]) -> [TextBlock] {
        var narrator = FlowNarrator(localizer: Localizer(locale: locale))
        return payloads.enumerated().flatMap { i, payload in
            narrator.narrate(FlowEvent(flow: flow, run: "r", at: Instant(secondsSinceEpoch: Int64(i) * 60), payload))
        }
    }

    @Test func needsCuffPairingAndNoPreparation() {
        let blocks = Self.narrate(.en, .bpInit, [
            .started(.bpInit(BPInitializationConfig(maxAttempts: 1, includePreparation: false))),
            .step(FlowStep(.bpInit(.needsCuffPairing))),
            .step(FlowStep(.bpInit(.instructions), preparation: false)),
        ])
        #expect(blocks == [
            .title("Blood pressure calibration (NIBP)"), .text("Attempts available: 1", tone: .note),
            .title("Pair a blood pressure cuff"),
            .text("No blood pressure cuff is paired. Pair a cuff to continue.", tone: .plain),
            .title("Before you start"),
            .text("The bracelet is calibrated against your blood pressure cuff. You take two measurements with the cuff, sometimes a third. Each takes about 40 seconds.", tone: .plain),
        ])
    }

    @Test func staleReadingInGermanWithAgeInDays() {
        let blocks = Self.narrate(.de, .bpInit, [
            .readings([]),
            .finished(.bpInit(.cuffError(.staleReading(age: -94_608_000)))),
        ])
        #expect(blocks == [
            .text("Es wurden keine Messwerte erfasst.", tone: .note),
            .text("Ergebnis: Manschettenfehler, der Messwert ist 1095 Tage in die Zukunft datiert (Uhr der Manschette prüfen)", tone: .failure),
        ])
    }

    @Test func summaryAfterTheBudgetIsSpent() {
        let blocks = Self.narrate(.fr, .bpInit, [
            .step(FlowStep(.bpInit(.finalFailure))),
            .finished(.bpInit(.failedAfterRetries(attemptCount: 3))),
        ])
        #expect(blocks == [
            .title("Récapitulatif du calibrage"),
            .text("Le bracelet n’a pas pu être calibré avec ces mesures. Son plan de mesure habituel est rétabli.", tone: .plain),
            .text("Résultat : non calibré, tentatives : 3", tone: .failure),
        ])
    }

    @Test func wearingFailureNamesTheLastReason() {
        let blocks = Self.narrate(.en, .wearingOpt, [
            .attempt(attempt: 3, succeeded: false, reason: .braceletNotWornCorrectly),
            .step(FlowStep(.wearingOpt(.finalFailure))),
            .finished(.wearingOpt(.failedAfterRetries(attemptCount: 3, lastReason: .bleTimeout))),
        ])
        #expect(blocks == [
            .text("Attempt 3 failed: the bracelet is not worn correctly.", tone: .failure),
            .title("Wearing optimization not completed"),
            .text("No attempt reached a good enough signal. Last reason: the bracelet did not answer in time (Bluetooth timeout).", tone: .plain),
            .text("Result: not optimized, attempts: 3, last reason: the bracelet did not answer in time (Bluetooth timeout)", tone: .failure),
        ])
    }

    @Test func notesForPlansProfilesAndCancellation() {
        let profile = UserProfile(heightCm: 178, weightKg: 74, wrist: .right, gender: .male, unit: .metric,
                                  birthdate: "1980-04-02", skinTone: 4, hairDensity: .high)
        let blocks = Self.narrate(.en, .profilePush, [
            .planRestored(previousPlan: BraceletPlan("monitoring"), why: .journal),
            .profile(ProfileEvent(outcome: .skipped, forced: false, why: .sameProfile, serial: "S", values: profile)),
            .finished(.wearingOpt(.cancelledByUser)),
        ])
        #expect(blocks == [
            .text("The bracelet's plan (monitoring) was restored after an interrupted earlier run.", tone: .note),
            .text("The bracelet already has this profile; nothing was sent.", tone: .note),
            .text("Skin tone 4, hair density: high, wrist: right", tone: .note),
            .text("Result: cancelled", tone: .note),
        ])
    }

    @Test func droppedReadingsByReason() {
        let reading = CuffReading(systolic: 120, diastolic: 80, pulse: nil)
        let blocks = Self.narrate(.en, .bpInit, [
            .cuffReadingDropped(DroppedCuffItem(.duplicate, .reading(reading, problem: nil))),
            .cuffReadingDropped(DroppedCuffItem(.unanchored, .reading(reading, problem: nil))),
            .cuffReadingDropped(DroppedCuffItem(.incomplete, .reading(reading, problem: nil))),
            .cuffReadingDropped(DroppedCuffItem(.invalid, .line("??", problem: "not a reading"))),
        ])
        #expect(blocks == [
            .text("Ignored a cuff reading that was already used: 120/80 mmHg, no pulse", tone: .note),
            .text("Ignored a cuff reading whose cuff time was not converted to real time: 120/80 mmHg, no pulse", tone: .note),
            .text("Ignored a cuff reading without a pulse: 120/80 mmHg, no pulse", tone: .note),
            .text("Ignored input that is not a valid reading: ??", tone: .note),
        ])
    }
}

@Suite struct TypedReadingProblemTests {
    static func problem(_ text: String) -> ManualCuffEntry.Problem? {
        do {
            _ = try ManualCuffEntry.parse(text, enteredAt: Instant(secondsSinceEpoch: 0))
            return nil
        } catch {
            return error
        }
    }

    @Test func problemsInEnglishAndGerman() throws {
        let en = Localizer(locale: .en), de = Localizer(locale: .de)
        #expect(en.describe(typedReading: try #require(Self.problem("12O/80")))
                == "Not understood. Type systolic/diastolic pulse, for example 120/80 72.")
        #expect(en.describe(typedReading: try #require(Self.problem("120/80 400")))
                == "Pulse 400 is outside the plausible range (20 to 250).")
        #expect(de.describe(typedReading: try #require(Self.problem("30/20 60")))
                == "Systolisch 30 liegt außerhalb des plausiblen Bereichs (50 bis 300).")
        #expect(de.describe(typedReading: try #require(Self.problem("120/10 60")))
                == "Diastolisch 10 liegt außerhalb des plausiblen Bereichs (20 bis 200).")
        #expect(de.describe(typedReading: try #require(Self.problem("80/120 60")))
                == "Der systolische Wert muss höher sein als der diastolische Wert.")
        #expect(Self.problem("120/80 72") == nil)
    }
}
