@testable import CorsanoKit
import Testing

/// The statistics of `corsano validate` against independently computed values.
///
/// Expected numbers come from Tests/CorsanoKitTests/Validation/worked_examples.py (run once:
/// mpmath at 40 digits for Φ and the criterion-2 root, exact fractions for Bland & Altman 2007's
/// one-way ANOVA, numpy for sample SDs, scipy's F statistic as a cross-check of the mean squares)
/// and by hand where the comment says so.
@Suite struct ValidationStatisticsTests {
    static func close(_ a: Double?, _ b: Double?, _ tolerance: Double = 1e-9) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return abs(a - b) <= tolerance
    }

    // MARK: Φ

    @Test(arguments: [
        (-8.0, 6.2209605742717841235e-16), (-3.0, 0.0013498980316300945267), (-1.0, 0.15865525393145705141),
        (0.0, 0.5), (0.5, 0.69146246127401310364), (1.0, 0.84134474606854294859), (3.0, 0.99865010196836990547),
        (-1.959963984540054, 0.025000000000000013765), (1.959963984540054, 0.97499999999999998623),
    ])
    func normalCDFMatchesMpmath(x: Double, expected: Double) {
        // Relative accuracy, so the far lower tail (6.2e-16) is checked too, not just rounded to 0.
        #expect(abs(NormalDistribution.cdf(x) - expected) <= 1e-14 * max(expected, 1e-300) + 1e-300)
    }

    // MARK: Criterion 2's limit

    @Test(arguments: [
        (0.0, 6.94670467571009), (0.5, 6.92867274606364), (1.0, 6.87412037969634), (1.5, 6.78165546474283),
        (2.0, 6.64889244371723), (2.5, 6.47239865011469), (3.0, 6.24776122561065), (3.5, 5.9700729500932),
        (4.0, 5.63546554802804), (4.5, 5.24446234920219), (5.0, 4.80627203045866), (-5.0, 4.80627203045866),
        (9.5, 0.48242367051124),
    ])
    func criterion2LimitMatchesMpmathRoot(mean: Double, expected: Double) {
        #expect(Self.close(Criterion2Limit.limit(mean: mean), expected, 1e-8))
    }

    @Test func criterion2LimitRoundsToTheStandardsPrintedEnds() {
        // The figures: 6.947 at a mean of 0, 4.806 at ±5 (the standard prints 6.95 and 4.81).
        #expect((Criterion2Limit.limit(mean: 0) * 1000).rounded() / 1000 == 6.947)
        #expect((Criterion2Limit.limit(mean: 5) * 1000).rounded() / 1000 == 4.806)
        #expect((Criterion2Limit.limit(mean: -5) * 100).rounded() / 100 == 4.81)
    }

    @Test func criterion2RootIsWithinItsToleranceAndOnTheRightSide() {
        // The bisection keeps the lower end: at the limit the coverage is ≥ 0.85, a tolerance above it < 0.85.
        for mean in stride(from: 0.0, through: 9.9, by: 0.3) {
            let sd = Criterion2Limit.limit(mean: mean)
            let at = NormalDistribution.probability(within: -10, 10, mean: mean, sd: sd)
            let above = NormalDistribution.probability(within: -10, 10, mean: mean, sd: sd + 2 * Criterion2Limit.tolerance)
            #expect(at >= 0.85 && above < 0.85, "mean \(mean): sd \(sd) coverage \(at), above \(above)")
            #expect(abs(at - 0.85) < 1e-9)
        }
    }

    @Test func criterion2HasNoLimitAtOrBeyondTheBand() throws {
        // Every subject 12 mmHg high: the subjects' means agree (SD 0), but no σ meets the limit.
        let v = try #require(VariableAgreement(groups: [[12, 12], [12, 12]]))
        #expect(v.sdOfSubjectMeans == 0 && v.criterion2Limit == 0)
        #expect(!v.criterion2Pass)
        #expect(Criterion2Limit.limit(mean: 10) == 0)
        #expect(Criterion2Limit.limit(mean: -12) == 0)
        #expect(Criterion2Limit.limit(mean: .nan) == 0)
    }

    // MARK: IEEE 1708

    @Test func ieee1708GradeBoundariesAreInclusive() {
        #expect(IEEE1708Grade(meanAbsoluteDifference: 0) == .a)
        #expect(IEEE1708Grade(meanAbsoluteDifference: 5.0) == .a)
        #expect(IEEE1708Grade(meanAbsoluteDifference: 5.0001) == .b)
        #expect(IEEE1708Grade(meanAbsoluteDifference: 6.0) == .b)
        #expect(IEEE1708Grade(meanAbsoluteDifference: 7.0) == .c)
        #expect(IEEE1708Grade(meanAbsoluteDifference: 7.01) == .d)
        #expect(IEEE1708Grade.a < .b && IEEE1708Grade.c < .d)
    }

    // MARK: Bland–Altman for repeated measures and the ISO numbers

    @Test func unequalPairsPerSubject() throws {
        // worked_examples.py "unequal": MSw 1.5, MSb 33.3, divisor 7/3, σ²b 13.628571…, F 22.2 (scipy agrees).
        let groups: [[Double]] = [[2, 4, 3], [-1, 1], [6, 8, 7, 9], [0]]
        let v = try #require(VariableAgreement(groups: groups))
        #expect(v.pairs == 10 && v.subjects == 4)
        #expect(Self.close(v.meanDifference, 3.9))
        #expect(Self.close(v.sdDifference, 3.478505426185217))
        #expect(Self.close(v.sdOfSubjectMeans, 3.5443617196894563))
        #expect(Self.close(v.blandAltman.withinSubjectVariance, 1.5))
        #expect(Self.close(v.blandAltman.betweenSubjectVariance, 13.628571428571428))
        #expect(!v.blandAltman.betweenSubjectVarianceClamped)
        #expect(Self.close(v.blandAltman.sd, 3.8895464296716433))
        #expect(Self.close(v.blandAltman.lower, -3.7235110021564206))
        #expect(Self.close(v.blandAltman.upper, 11.52351100215642))
        // The repeated-measures SD is larger than the pooled one: pooling understates it here.
        #expect(v.blandAltman.sd! > v.sdDifference!)
        #expect(Self.close(v.meanAbsoluteDifference, 4.1))
        #expect(v.ieee1708Grade == .a)
        // Criterion 1: |3.9| ≤ 5 and 3.48 ≤ 8. Criterion 2: 3.544 ≤ limit(3.9) (between 5.64 and 6.25).
        #expect(v.criterion1Pass)
        #expect(v.criterion2Pass)
        #expect(v.criterion2Limit < 6.25 && v.criterion2Limit > 5.63)
    }

    @Test func betweenSubjectVarianceBelowZeroIsSetToZeroAndSaid() throws {
        // "negativeBetween": MSw 33.33…, MSb 0, divisor 2 → σ²b = −16.67, clamped to 0; SD √(100/3).
        let v = try #require(VariableAgreement(groups: [[-4, 4], [-3, 3], [-5, 5]]))
        #expect(v.blandAltman.betweenSubjectVarianceClamped)
        #expect(v.blandAltman.betweenSubjectVariance == 0)
        #expect(Self.close(v.blandAltman.withinSubjectVariance, 33.333333333333336))
        #expect(Self.close(v.blandAltman.sd, 5.773502691896258))
        #expect(Self.close(v.blandAltman.upper, 11.316065276116666))
        #expect(Self.close(v.sdDifference, 4.47213595499958))
        #expect(v.sdOfSubjectMeans == 0)
        #expect(v.criterion2Pass && v.criterion1Pass)
        #expect(v.meanAbsoluteDifference == 4)
    }

    @Test func oneSubjectHasNoBetweenSubjectPartAndFailsCriterion2() throws {
        // "oneSubject": differences 1, 2, 6: mean 3, SD √7 (by hand: (4+1+9)/2 = 7).
        let v = try #require(VariableAgreement(groups: [[1, 2, 6]]))
        #expect(v.subjects == 1)
        #expect(Self.close(v.blandAltman.sd, 2.6457513110645907))
        #expect(Self.close(v.sdDifference, 2.6457513110645907))
        #expect(v.blandAltman.betweenSubjectVariance == 0 && !v.blandAltman.betweenSubjectVarianceClamped)
        #expect(v.sdOfSubjectMeans == nil)
        #expect(!v.criterion2Pass)
        #expect(v.criterion1Pass)
    }

    @Test func onePairHasNoSpread() throws {
        let v = try #require(VariableAgreement(groups: [[3]]))
        #expect(v.pairs == 1 && v.meanDifference == 3 && v.meanAbsoluteDifference == 3)
        #expect(v.sdDifference == nil && v.blandAltman.sd == nil && v.blandAltman.lower == nil)
        #expect(!v.criterion1Pass && !v.criterion2Pass)
    }

    @Test func zeroVariance() throws {
        let v = try #require(VariableAgreement(groups: [[2, 2], [2, 2, 2]]))
        #expect(v.sdDifference == 0 && v.sdOfSubjectMeans == 0 && v.blandAltman.sd == 0)
        #expect(v.blandAltman.lower == 2 && v.blandAltman.upper == 2)
        #expect(!v.blandAltman.betweenSubjectVarianceClamped)
        #expect(v.criterion1Pass && v.criterion2Pass)
    }

    @Test func onePairPerSubjectIsTheOrdinarySD() throws {
        // "onePerSubject": no within-subject information; σ²b = MSb = the ordinary variance 10.
        let v = try #require(VariableAgreement(groups: [[1], [5], [-2], [4]]))
        #expect(v.blandAltman.withinSubjectVariance == 0)
        #expect(Self.close(v.blandAltman.betweenSubjectVariance, 10))
        #expect(Self.close(v.blandAltman.sd, v.sdDifference))
        #expect(Self.close(v.blandAltman.sd, 3.1622776601683795))
    }

    @Test func noDifferencesGiveNoStatistics() {
        #expect(VariableAgreement(groups: []) == nil)
        #expect(VariableAgreement(groups: [[], []]) == nil)
    }

    @Test func criterion1Boundaries() throws {
        // By hand: −3, 5, 13 have mean 5.0 and SD √((64 + 0 + 64)/2) = 8.0: both limits inclusive.
        let edge = try #require(VariableAgreement(groups: [[-3], [5], [13]]))
        #expect(edge.meanDifference == 5 && edge.sdDifference == 8)
        #expect(edge.criterion1Pass)
        let meanOver = try #require(VariableAgreement(groups: [[5.1, 5.1], [5.1]]))
        #expect(!meanOver.criterion1Pass)
        let sdOver = try #require(VariableAgreement(groups: [[-9, 9], [-9, 9]]))
        #expect(!sdOver.criterion1Pass)  // SD √108 ≈ 10.39
    }
}
