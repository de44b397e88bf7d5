import CorsanoKit
import Testing

@Suite struct LocalizerTests {
    let en = Localizer(locale: .en)

    @Test func fillsPositionalPlaceholders() {
        #expect(en[.measurementLine, 121, 79, 64] == "Systolic 121 mmHg, diastolic 79 mmHg, pulse 64 bpm")
        #expect(en[.droppedOther, "weird", "120/80"] == "Ignored a cuff reading (weird): 120/80")
        #expect(en.string(.attemptsAvailable, ["3"]) == "Attempts available: 3")
    }

    @Test func placeholderWithoutArgumentStaysVisible() {
        #expect(en[.measurementLine, 121] == "Systolic 121 mmHg, diastolic {2} mmHg, pulse {3} bpm")
    }

    @Test func argumentsAreIsolatedInRightToLeftLocales() {
        let ar = Localizer(locale: .ar)
        #expect(ar[.attemptsAvailable, 3].contains("\u{2068}3\u{2069}"))
        #expect(!en[.attemptsAvailable, 3].contains("\u{2068}"))
    }

    @Test func placeholderScan() {
        #expect(Localizer.placeholders(in: "{2} a {1} b {2}") == [1, 2])
        #expect(Localizer.placeholders(in: "no braces") == [])
    }

    @Test func durationsUseTheLargestUnitWithACountOfAtLeastTwo() {
        #expect(en.duration(seconds: 0) == "0 s")
        #expect(en.duration(seconds: 119.9) == "119 s")
        #expect(en.duration(seconds: 120) == "2 min")
        #expect(en.duration(seconds: 7_199) == "119 min")
        #expect(en.duration(seconds: 7_200) == "2 h")
        #expect(en.duration(seconds: -94_608_000) == "1095 days")
        #expect(en.duration(seconds: .infinity) == "0 s")
    }

    @Test func describesEveryResultOfBothFlows() {
        let cases: [(JSONValue, String)] = [
            (["kind":"success","measurementCount":2], "calibrated, measurements: 2"),
            (["kind":"cancelledByUser"], "cancelled"),
            (["kind":"braceletDisconnected"], "the bracelet disconnected"),
            (["kind":"cuffError","error":["kind":"noReading"]], "cuff error, no reading was received"),
            (["kind":"cuffError","error":["kind":"cuffDisconnected"]], "cuff error, the cuff disconnected"),
            (["kind":"cuffError","error":["kind":"staleReading","age":1000]], "cuff error, the reading is 16 min old"),
            (["kind":"cuffError","error":["kind":"staleReading","age":-94608000]],
             "cuff error, the reading is dated 1095 days in the future (check the cuff clock)"),
            (["kind":"cuffError","error":["kind":"unknown","message":"E12 cuff overheated"]], "cuff error: E12 cuff overheated"),
            (["kind":"failedAfterRetries","attemptCount":3], "not calibrated, attempts: 3"),
            (["kind":"success","spo2Quality":72,"position":"seated"], "optimized, signal quality 72%, position: seated"),
            (["kind":"failedAfterRetries","attemptCount":3,"lastReason":["kind":"ppgSignalQualityTooLow"]],
             "not optimized, attempts: 3, last reason: the PPG signal quality is too low"),
            (["kind":"failedAfterRetries","attemptCount":2,"lastReason":["kind":"bleTimeout"]],
             "not optimized, attempts: 2, last reason: the bracelet did not answer in time (Bluetooth timeout)"),
            (["kind":"failedAfterRetries","attemptCount":1,"lastReason":["kind":"braceletNotWornCorrectly"]],
             "not optimized, attempts: 1, last reason: the bracelet is not worn correctly"),
            (["kind":"failedAfterRetries","attemptCount":1,"lastReason":["kind":"unknown","message":"LED fault"]],
             "not optimized, attempts: 1, last reason: unknown reason (LED fault)"),
            (["kind":"exploded"], "ended (exploded)"),
        ]
        for (json, expected) in cases {
            #expect(en.describe(result: json) == expected, "\(json)")
        }
    }

    @Test func yesAnswersInLocaleAndEnglish() {
        #expect(en.isYes(" Y "))
        #expect(en.isYes("yes"))
        #expect(!en.isYes("n"))
        #expect(!en.isYes(""))
    }

    @Test func positionStepsFollowTheSeed() {
        #expect(en.positionSteps("supine").count == 2)
        #expect(en.positionSteps("seated").count == 3)
        #expect(en.positionSteps("seated")[2].contains("hand flat on the desk"))
    }
}
