/// Office blood-pressure categories a report draws as bands and names each reading by.
///
/// - `accAha2017`: 2017 ACC/AHA Guideline for the Prevention, Detection, Evaluation, and
///   Management of High Blood Pressure in Adults, Table 6 (normal < 120 and < 80; elevated
///   120–129 and < 80; stage 1 130–139 or 80–89; stage 2 ≥ 140 or ≥ 90).
/// - `esh2023`: 2023 ESH Guidelines for the management of arterial hypertension, Table 5
///   (optimal < 120 and < 80; normal 120–129 and/or 80–84; high normal 130–139 and/or 85–89;
///   grade 1 140–159 and/or 90–99; grade 2 160–179 and/or 100–109; grade 3 ≥ 180 and/or ≥ 110).
///
/// A reading whose systolic and diastolic fall in different categories is put in the higher one,
/// as both guidelines say.
public enum BPCategories: String, CaseIterable, Sendable {
    case accAha2017 = "acc-aha-2017"
    case esh2023

    /// What `report --categories` uses when not given (the default).
    public static let `default` = BPCategories.accAha2017

    /// The guideline's own short name (not translated: a citation).
    public var title: String {
        switch self {
        case .accAha2017: return "ACC/AHA 2017"
        case .esh2023: return "ESH 2023"
        }
    }

    /// One category: its name's key and grade, and its lower systolic and diastolic bounds (mmHg, inclusive).
    public struct Category: Equatable, Sendable {
        public var key: L10nKey
        /// The stage or grade number the name carries (`{1}` of `reportCategoryStage`), nil for a named one.
        public var grade: Int?
        public var systolicFrom: Int
        public var diastolicFrom: Int
        /// Index into the band colours, lowest first.
        public var level: Int
    }

    /// The categories, lowest first.
    public var categories: [Category] {
        switch self {
        case .accAha2017:
            return [Category(key: .reportCategoryNormal, grade: nil, systolicFrom: 0, diastolicFrom: 0, level: 0),
                    Category(key: .reportCategoryElevated, grade: nil, systolicFrom: 120, diastolicFrom: Int.max, level: 1),
                    Category(key: .reportCategoryStage, grade: 1, systolicFrom: 130, diastolicFrom: 80, level: 3),
                    Category(key: .reportCategoryStage, grade: 2, systolicFrom: 140, diastolicFrom: 90, level: 5)]
        case .esh2023:
            return [Category(key: .reportCategoryOptimal, grade: nil, systolicFrom: 0, diastolicFrom: 0, level: 0),
                    Category(key: .reportCategoryNormal, grade: nil, systolicFrom: 120, diastolicFrom: 80, level: 1),
                    Category(key: .reportCategoryHighNormal, grade: nil, systolicFrom: 130, diastolicFrom: 85, level: 2),
                    Category(key: .reportCategoryGrade, grade: 1, systolicFrom: 140, diastolicFrom: 90, level: 3),
                    Category(key: .reportCategoryGrade, grade: 2, systolicFrom: 160, diastolicFrom: 100, level: 4),
                    Category(key: .reportCategoryGrade, grade: 3, systolicFrom: 180, diastolicFrom: 110, level: 5)]
        }
    }

    /// The category of a reading: the highest whose systolic or diastolic bound it reaches.
    public func category(systolic: Int, diastolic: Int) -> Category {
        categories.last { systolic >= $0.systolicFrom || diastolic >= $0.diastolicFrom } ?? categories[0]
    }

    /// The category's name in `l`'s locale.
    public func name(_ category: Category, _ l: Localizer) -> String {
        category.grade.map { l[category.key, $0] } ?? l[category.key]
    }
}
