import Foundation

/// The standard normal distribution's cumulative distribution function Φ.
///
/// Foundation has no normal CDF; the C library's `erfc` (glibc, accurate to a few ulp over the
/// whole line) gives Φ(x) = ½·erfc(−x/√2) without the cancellation `½(1 + erf(x/√2))` suffers in
/// the lower tail.
public enum NormalDistribution {
    /// Φ(x): the probability that a standard normal variable is ≤ `x`.
    public static func cdf(_ x: Double) -> Double {
        0.5 * erfc(-x / 2.0.squareRoot())
    }

    /// P(lower ≤ X ≤ upper) for X ~ N(mean, sd²); `sd` > 0.
    public static func probability(within lower: Double, _ upper: Double, mean: Double, sd: Double) -> Double {
        cdf((upper - mean) / sd) - cdf((lower - mean) / sd)
    }
}

/// ISO 81060-2 criterion 2's limit on the standard deviation of the per-subject mean differences.
///
/// The standard tabulates, for each mean difference x̄ (criterion 1's), the largest standard
/// deviation σ for which a normal error N(x̄, σ²) lies within ±10 mmHg with probability 0.85
/// (ISO 81060-2:2018, 5.2.4.1.2 and its Table; the rationale in Annex A). This computes that σ
/// instead of reading the printed table (which rounds to 0.01 mmHg at 0.1 mmHg steps of x̄):
/// it solves Φ((10 − x̄)/σ) − Φ((−10 − x̄)/σ) = 0.85 for σ by bisection. The probability falls
/// strictly as σ grows (for |x̄| < 10), so the root is unique.
public enum Criterion2Limit {
    /// The tolerance band, mmHg (±10).
    public static let band = 10.0
    /// The probability the error must stay within the band (0.85).
    public static let probability = 0.85
    /// The bisection stops when the bracket is narrower than this, mmHg.
    public static let tolerance = 1e-9

    /// The largest σ (mmHg) for mean difference `mean` (mmHg); 0 when |mean| ≥ 10, where no σ
    /// keeps 85 % of the errors within ±10 mmHg.
    public static func limit(mean: Double) -> Double {
        let m = abs(mean)
        guard m < band, m.isFinite else { return 0 }
        func coverage(_ sd: Double) -> Double { NormalDistribution.probability(within: -band, band, mean: m, sd: sd) }
        // Bracket: at σ → 0 the coverage is 1 (|x̄| < 10); at σ = 2·band it is below 0.4.
        var low = 0.0
        var high = 2 * band
        while high - low > tolerance {
            let mid = (low + high) / 2
            if mid == low || mid == high { break }  // no double left between them
            if coverage(mid) >= probability { low = mid } else { high = mid }
        }
        return low
    }
}

/// IEEE 1708-2014's grade by mean absolute difference (mmHg): A ≤ 5, B ≤ 6, C ≤ 7, D above.
public enum IEEE1708Grade: String, Comparable, Sendable, CaseIterable {
    case a = "A", b = "B", c = "C", d = "D"

    /// The grade of a mean absolute difference, mmHg.
    public init(meanAbsoluteDifference mad: Double) {
        switch mad {
        case ...5.0: self = .a
        case ...6.0: self = .b
        case ...7.0: self = .c
        default: self = .d
        }
    }

    public static func < (lhs: IEEE1708Grade, rhs: IEEE1708Grade) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Bland–Altman agreement for repeated measures per subject, the true value varying
/// (Bland & Altman 2007, Statistics in Medicine 26:4 "Agreement between methods of measurement
/// with multiple observations per individual", section 3; J Biopharm Stat 17:571–582).
///
/// One-way analysis of variance of the differences by subject: the within-subject mean square
/// MSw = Σᵢ Σⱼ (dᵢⱼ − d̄ᵢ)² / (N − m) and the between-subject mean square
/// MSb = Σᵢ nᵢ (d̄ᵢ − d̄)² / (m − 1) give σ²w = MSw and σ²b = (MSb − MSw) / ((N² − Σ nᵢ²) / ((m − 1)·N)),
/// for m subjects with nᵢ pairs, N in all (unequal nᵢ allowed). The SD of a single difference is
/// √(σ²b + σ²w); the limits are bias ± 1.96 of it, bias the mean of all N differences.
/// Pooling every pair as if it were another person would understate the SD when subjects differ.
public struct RepeatedMeasuresAgreement: Equatable, Sendable {
    /// The mean of all differences, mmHg.
    public var bias: Double
    /// Within-subject variance σ²w, mmHg²; 0 when no subject has two pairs (no information).
    public var withinSubjectVariance: Double
    /// Between-subject variance σ²b, mmHg², after clamping at 0.
    public var betweenSubjectVariance: Double
    /// True when the estimate of σ²b came out below zero and was set to 0 (Bland & Altman 2007:
    /// the subjects' means vary less than their within-subject scatter predicts).
    public var betweenSubjectVarianceClamped: Bool
    /// The SD of one difference, √(σ²b + σ²w), mmHg; nil with fewer than two pairs.
    public var sd: Double?
    /// bias − 1.96·sd, mmHg.
    public var lower: Double? { sd.map { bias - 1.96 * $0 } }
    /// bias + 1.96·sd, mmHg.
    public var upper: Double? { sd.map { bias + 1.96 * $0 } }

    /// Computes the agreement from differences grouped by subject (each group non-empty).
    /// Nil when there are no differences at all.
    public init?(groups: [[Double]]) {
        let groups = groups.filter { !$0.isEmpty }
        let m = groups.count
        let n = groups.reduce(0) { $0 + $1.count }
        guard n > 0 else { return nil }
        let all = groups.flatMap { $0 }
        bias = all.reduce(0, +) / Double(n)
        let means = groups.map { $0.reduce(0, +) / Double($0.count) }
        var ssWithin = 0.0
        for (group, mean) in zip(groups, means) { ssWithin += group.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } }
        // N − m degrees of freedom within subjects; none when every subject has one pair, and then
        // the between-subject mean square alone is the ordinary variance of the differences.
        let msWithin = n > m ? ssWithin / Double(n - m) : 0
        withinSubjectVariance = msWithin
        var between = 0.0
        var clamped = false
        if m > 1 {
            var ssBetween = 0.0
            for (group, mean) in zip(groups, means) { ssBetween += Double(group.count) * (mean - bias) * (mean - bias) }
            let msBetween = ssBetween / Double(m - 1)
            let sumSquares = groups.reduce(0.0) { $0 + Double($1.count * $1.count) }
            let divisor = (Double(n) * Double(n) - sumSquares) / (Double(m - 1) * Double(n))
            between = (msBetween - msWithin) / divisor
            if between < 0 { between = 0; clamped = true }
        }
        betweenSubjectVariance = between
        betweenSubjectVarianceClamped = clamped
        sd = n >= 2 ? (between + msWithin).squareRoot() : nil
    }
}

/// Agreement of one variable (systolic or diastolic) between a device and a reference: the numbers
/// ISO 81060-2, Bland & Altman 2007 and IEEE 1708 ask for, from differences device − reference.
public struct VariableAgreement: Equatable, Sendable {
    /// Number of pairs (differences).
    public var pairs: Int
    /// Number of subjects with at least one pair.
    public var subjects: Int
    /// Mean difference device − reference over all pairs, mmHg (ISO 81060-2 criterion 1's x̄).
    public var meanDifference: Double
    /// Sample standard deviation (n − 1) of all differences, mmHg; nil with one pair.
    public var sdDifference: Double?
    /// Criterion 1: |x̄| ≤ 5.0 mmHg and s ≤ 8.0 mmHg (ISO 81060-2:2018, 5.2.4.1.1).
    public var criterion1Pass: Bool
    /// Sample SD (m − 1) of the per-subject mean differences, mmHg; nil with one subject.
    public var sdOfSubjectMeans: Double?
    /// Criterion 2's limit for this x̄ (`Criterion2Limit`), mmHg.
    public var criterion2Limit: Double
    /// True when |x̄| ≤ 5.0 mmHg, where criterion 2 is defined (`criterion2TableMeanLimit`).
    public var criterion2InTable: Bool
    /// Criterion 2: |x̄| within the standard's table and `sdOfSubjectMeans` ≤ `criterion2Limit`
    /// (ISO 81060-2:2018, 5.2.4.1.2).
    public var criterion2Pass: Bool
    /// Bland–Altman bias and limits with the repeated-measures SD.
    public var blandAltman: RepeatedMeasuresAgreement
    /// Mean of |difference|, mmHg (IEEE 1708-2014).
    public var meanAbsoluteDifference: Double
    /// IEEE 1708 grade of `meanAbsoluteDifference`.
    public var ieee1708Grade: IEEE1708Grade

    /// Criterion 1's limit on |x̄|, mmHg.
    public static let criterion1MeanLimit = 5.0
    /// Criterion 1's limit on s, mmHg.
    public static let criterion1SDLimit = 8.0
    /// The largest |x̄| criterion 2 is defined for, mmHg: the standard's table of the SD limit runs
    /// over mean differences 0 to ±5.0 mmHg (ISO 81060-2:2018, 5.2.4.1.2, Table 2; the same ±5
    /// bound as criterion 1). Beyond it there is no limit to compare with: criterion 2 fails
    /// ("outside the criterion-2 table"), however small the spread.
    public static let criterion2TableMeanLimit = 5.0

    /// Computes every statistic from the differences (mmHg) grouped by subject; nil when there
    /// are none. Empty groups are ignored (a subject without pairs is the caller's to report).
    public init?(groups: [[Double]]) {
        let groups = groups.filter { !$0.isEmpty }
        guard let agreement = RepeatedMeasuresAgreement(groups: groups) else { return nil }
        let all = groups.flatMap { $0 }
        pairs = all.count
        subjects = groups.count
        meanDifference = agreement.bias
        sdDifference = Self.sampleSD(all)
        // One pair has no SD: criterion 1 is then not met (fails closed).
        criterion1Pass = abs(meanDifference) <= Self.criterion1MeanLimit
            && sdDifference.map { $0 <= Self.criterion1SDLimit } ?? false
        let subjectSD = Self.sampleSD(groups.map { $0.reduce(0, +) / Double($0.count) })
        let limit = Criterion2Limit.limit(mean: agreement.bias)
        sdOfSubjectMeans = subjectSD
        criterion2Limit = limit
        // One subject: the spread between subjects is unknown, so criterion 2 is not met (the
        // verdict calls that "cannot be assessed"). Outside the table (|x̄| > 5) it is not met
        // even when every subject agrees.
        criterion2InTable = abs(agreement.bias) <= Self.criterion2TableMeanLimit
        criterion2Pass = criterion2InTable && limit > 0 && subjectSD.map { $0 <= limit } ?? false
        blandAltman = agreement
        meanAbsoluteDifference = all.reduce(0) { $0 + abs($1) } / Double(all.count)
        ieee1708Grade = IEEE1708Grade(meanAbsoluteDifference: meanAbsoluteDifference)
    }

    /// The sample standard deviation (n − 1 denominator); nil with fewer than two values.
    static func sampleSD(_ values: [Double]) -> Double? {
        guard values.count >= 2 else { return nil }
        let mean = values.reduce(0, +) / Double(values.count)
        let ss = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        return (ss / Double(values.count - 1)).squareRoot()
    }
}
