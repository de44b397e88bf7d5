import Foundation
import Testing

/// The gettext workflow of docs/localization.md, run for real: `scripts/l10n check` on the
/// repository (what CI runs), and `update`/`check` on scratch copies where English or a catalog
/// changed, to show each way a catalog can go stale is caught.
@Suite struct CatalogWorkflowTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = root.appendingPathComponent("scripts/l10n").path
    static let localization = "Sources/CorsanoKit/Localization"

    static func l10n(_ command: String, root: URL = root) throws -> Shell.Outcome {
        try Shell.run("python3", [script, command, "--root", root.path])
    }

    /// A scratch copy of what the workflow reads and writes: po/, the English source, Generated/.
    static func scratchCopy() throws -> URL {
        let fm = FileManager.default
        let dir = fm.temporaryDirectory.appendingPathComponent("corsano-l10n-\(UUID().uuidString)")
        for path in ["po", "\(localization)/Generated", "\(localization)/Strings+en.swift"] {
            let target = dir.appendingPathComponent(path)
            try fm.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try fm.copyItem(at: root.appendingPathComponent(path), to: target)
        }
        return dir
    }

    static func read(_ dir: URL, _ path: String) throws -> String {
        try String(contentsOf: dir.appendingPathComponent(path), encoding: .utf8)
    }

    static func edit(_ dir: URL, _ path: String, _ old: String, _ new: String) throws {
        let text = try read(dir, path)
        #expect(text.contains(old), "\(path) lacks \(old)")
        try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: dir.appendingPathComponent(path))
    }

    /// msgfmt -c passes on all 17 catalogs, none has a fuzzy or empty entry, and the .pot, en.po
    /// and the generated Swift tables are what the English source and the catalogs give.
    @Test func repositoryCatalogsAreCompleteAndCurrent() throws {
        let outcome = try Self.l10n("check")
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("17 catalogs complete"), "\(outcome.stdout)")
    }

    @Test func editedTranslationWithoutRegeneratingIsStale() throws {
        let dir = try Self.scratchCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.edit(dir, "po/de.po", "msgstr \"Trageoptimierung\"", "msgstr \"Optimierung des Tragens\"")
        let stale = try Self.l10n("check", root: dir)
        #expect(stale.status == 1)
        #expect(stale.stderr.contains("Generated/Strings+de.swift is stale"), "\(stale.stderr)")
        let generate = try Self.l10n("generate", root: dir)
        #expect(generate.status == 0, "\(generate.stderr)")
        #expect(try Self.read(dir, "\(Self.localization)/Generated/Strings+de.swift")
            .contains("case .woTitle: return \"Optimierung des Tragens\""))
        #expect(try Self.l10n("check", root: dir).status == 0)
    }

    /// Changed English: msgmerge marks the 16 translations fuzzy (keeping the old English as
    /// `#| msgid`), the generated tables drop them so that text falls back to English, en.po takes
    /// the new English, and the check fails until a translator has reviewed every one.
    @Test func changedEnglishGoesFuzzyFallsBackAndFailsUntilReviewed() throws {
        let dir = try Self.scratchCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.edit(dir, "\(Self.localization)/Strings+en.swift",
                      "return \"Wearing optimization\"", "return \"Wearing optimisation\"")
        #expect(try Self.l10n("check", root: dir).stderr.contains("po/corsano.pot is stale"))
        let update = try Self.l10n("update", root: dir)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdout.contains("16 entries to translate or review"), "\(update.stdout)")

        let de = try Self.read(dir, "po/de.po")
        #expect(de.contains("#, fuzzy\n#| msgctxt \"woTitle\"\n#| msgid \"Wearing optimization\"\nmsgctxt \"woTitle\"\nmsgid \"Wearing optimisation\"\nmsgstr \"Trageoptimierung\""), "\(de)")
        #expect(try Self.read(dir, "po/en.po").contains("msgid \"Wearing optimisation\"\nmsgstr \"Wearing optimisation\""))
        let table = try Self.read(dir, "\(Self.localization)/Generated/Strings+de.swift")
        #expect(!table.contains("case .woTitle:"))
        #expect(table.contains("default: return nil"))

        let check = try Self.l10n("check", root: dir)
        #expect(check.status == 1)
        #expect(check.stderr.contains("po/de.po:"), "\(check.stderr)")
        #expect(check.stderr.contains("woTitle: fuzzy"))
        #expect(check.stderr.contains("16 catalog entries to fix"), "\(check.stderr)")

        // A translator reviews each one: the translation stays, the fuzzy flag and old msgid go.
        for lang in try Self.read(dir, "po/LINGUAS").split(whereSeparator: \.isWhitespace) where lang != "en" {
            let path = "po/\(lang).po"
            let reviewed = try Self.read(dir, path).replacingOccurrences(
                of: "#, fuzzy\n#| msgctxt \"woTitle\"\n#| msgid \"Wearing optimization\"\n", with: "")
            try Data(reviewed.utf8).write(to: dir.appendingPathComponent(path))
        }
        #expect(try Self.l10n("update", root: dir).stdout.contains("every catalog is complete"))
        #expect(try Self.read(dir, "\(Self.localization)/Generated/Strings+de.swift").contains("case .woTitle: return \"Trageoptimierung\""))
        let passed = try Self.l10n("check", root: dir)
        #expect(passed.status == 0, "\(passed.stderr)")
    }

    /// A new English string lands in every catalog empty (a plural one with each locale's number
    /// of forms); one resembling an existing string gets msgmerge's guess, marked fuzzy. Neither
    /// ships, and the check names every catalog until all 16 translations are there.
    @Test func newEnglishStringIsEmptyOrAFuzzyGuessInEveryCatalog() throws {
        let dir = try Self.scratchCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.edit(dir, "\(Self.localization)/Strings+en.swift", "        case .durationDays:", """
                    case .cuffBatteryWarnings: return .plural(["The cuff reported {1} low battery warning.", "The cuff reported {1} low battery warnings."])
                    case .durationWeeks: return .plural(["{1} week", "{1} weeks"])
                    case .durationDays:
            """)
        #expect(try Self.l10n("update", root: dir).status == 0)
        let pl = try Self.read(dir, "po/pl.po")
        #expect(pl.contains("""
            msgctxt "cuffBatteryWarnings"
            msgid "The cuff reported {1} low battery warning."
            msgid_plural "The cuff reported {1} low battery warnings."
            msgstr[0] ""
            msgstr[1] ""
            msgstr[2] ""

            """), "\(pl)")
        // msgmerge's guess comes from another duration (which one is its similarity measure's call).
        #expect(pl.contains(#/#, fuzzy\n#\| msgctxt "duration\w+"\n#\| msgid "[^"]*"\n#\| msgid_plural "[^"]*"\nmsgctxt "durationWeeks"\n/#), "\(pl)")
        #expect(try Self.read(dir, "po/ar.po").contains("msgstr[5] \"\"\n"))
        for lang in ["de", "ar", "nl-BE"] {
            let table = try Self.read(dir, "\(Self.localization)/Generated/Strings+\(lang).swift")
            #expect(!table.contains(".cuffBatteryWarnings") && !table.contains(".durationWeeks"), "\(lang)")
        }
        let check = try Self.l10n("check", root: dir)
        #expect(check.status == 1)
        #expect(check.stderr.contains("po/sv.po:") && check.stderr.contains("cuffBatteryWarnings: not translated"), "\(check.stderr)")
        #expect(check.stderr.contains("durationWeeks: fuzzy"))
        #expect(check.stderr.contains("32 catalog entries to fix"), "\(check.stderr)")
    }

    /// A translation that drops or adds a placeholder is named with its file and line.
    @Test func placeholderMismatchIsNamed() throws {
        let dir = try Self.scratchCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.edit(dir, "po/fr.po", "msgstr \"Résultat : {1}\"", "msgstr \"Résultat : {2}\"")
        _ = try Self.l10n("generate", root: dir)
        let check = try Self.l10n("check", root: dir)
        #expect(check.status == 1)
        #expect(check.stderr.contains("po/fr.po:") && check.stderr.contains("resultHeading: placeholders"), "\(check.stderr)")
    }

    /// msgfmt -c is part of the check: a Plural-Forms header that disagrees with the catalog's
    /// number of forms fails.
    @Test func msgfmtCheckRunsOnEveryCatalog() throws {
        let dir = try Self.scratchCopy()
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.edit(dir, "po/sv.po", "nplurals=2; plural=(n != 1);", "nplurals=3; plural=(n != 1);")
        let check = try Self.l10n("check", root: dir)
        #expect(check.status == 1)
        #expect(check.stderr.contains("po/sv.po"), "\(check.stderr)")
    }
}
