import Foundation
import Testing

/// The sources cite the design by section, `docs/design.md "Section"` (docs/design.md's
/// opening paragraph): every citation in Sources/, Tests/ and scripts/ must name a heading that is
/// there, so a renamed or removed section breaks the build's tests, not a reader's trust.
@Suite struct DesignCitationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A citation: the file and 1-based line where `docs/design.md` stands, and the quoted section
    /// after it (nil when no quoted section follows: a bare citation).
    struct Citation: CustomStringConvertible {
        var file: String
        var line: Int
        var section: String?
        var description: String { "\(file):\(line): \(section.map { "\"\($0)\"" } ?? "no section")" }
    }

    /// The headings (`##`, `###`) of `design`, each as written and as cited: the words before
    /// any parenthesis, e.g. `Exit status` for "Exit status (stable; scripts depend on it)".
    static func headings(of design: String) -> [String] {
        design.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("## ") || line.hasPrefix("### ") else { return nil }
            return line.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces)
        }
    }

    /// Whether `section` names `heading`: equal, or the heading's beginning up to a space,
    /// parenthesis or colon ("Commands" names "Commands and options"; "Data on the wire" names
    /// "Data on the wire: JSON lines").
    static func names(_ section: String, _ heading: String) -> Bool {
        guard heading.hasPrefix(section) else { return false }
        let rest = heading.dropFirst(section.count)
        return rest.isEmpty || rest.first == " " || rest.first == ":" || rest.first == "("
    }

    /// Every `docs/design.md` in `text`, with the quoted section after it; the quote may start on
    /// the next line behind a comment marker (`///`, `//`, `#`, `*`).
    static func citations(in text: String, file: String) -> [Citation] {
        let scalars = Array(text.unicodeScalars)
        let needle = Array("docs/design.md".unicodeScalars)
        var found: [Citation] = []
        var line = 1
        var i = 0
        while i < scalars.count {
            if scalars[i] == "\n" { line += 1 }
            guard scalars[i] == needle[0], i + needle.count <= scalars.count,
                  Array(scalars[i..<(i + needle.count)]) == needle else { i += 1; continue }
            var j = i + needle.count
            var crossedLine = false
            while j < scalars.count {
                let c = scalars[j]
                if c == "\n" { if crossedLine { break }; crossedLine = true; j += 1; continue }
                if c == " " || c == "\t" || c == "," || ((c == "/" || c == "#" || c == "*") && crossedLine) { j += 1; continue }
                break
            }
            var section: String?
            if j < scalars.count, scalars[j] == "\"" {
                var k = j + 1
                var name = String.UnicodeScalarView()
                while k < scalars.count, scalars[k] != "\"", scalars[k] != "\n" { name.append(scalars[k]); k += 1 }
                if k < scalars.count, scalars[k] == "\"" { section = String(name) }
            }
            found.append(Citation(file: file, line: line, section: section))
            i += needle.count
        }
        return found
    }

    static func sourceFiles() throws -> [URL] {
        var files: [URL] = []
        for folder in ["Sources", "Tests", "scripts"] {
            let base = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey]) else { continue }
            for case let url as URL in walker {
                guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
                if url.path.contains("/Fixtures/") || url.lastPathComponent == "DesignCitationTests.swift" { continue }
                guard ["swift", "h", "c", "sh", "py", ""].contains(url.pathExtension) else { continue }
                files.append(url)
            }
        }
        return files
    }

    @Test func everyCitationNamesAHeadingOfTheDesign() throws {
        let design = try String(contentsOf: Self.root.appendingPathComponent("docs/design.md"), encoding: .utf8)
        let headings = Self.headings(of: design)
        #expect(headings.contains("Exit status (stable; scripts depend on it)"))
        var bad: [String] = []
        var count = 0
        for url in try Self.sourceFiles() {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            let relative = String(url.path.dropFirst(Self.root.path.count + 1))
            for citation in Self.citations(in: text, file: relative) {
                count += 1
                guard let section = citation.section else { bad.append(citation.description); continue }
                if !headings.contains(where: { Self.names(section, $0) }) { bad.append(citation.description) }
            }
            // The old shorthand: a design nobody could open from the repository.
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("DESIGN") && !line.contains("DESIGN_") {
                bad.append("\(relative):\(n + 1): cites DESIGN, not docs/design.md \"Section\"")
            }
        }
        #expect(count > 100, "the walk found \(count) citations: is the root right?")
        #expect(bad.isEmpty, "citations naming no heading of docs/design.md:\n\(bad.joined(separator: "\n"))")
    }

    @Test(arguments: [
        ("see docs/design.md \"Time\".", "Time"),
        ("(docs/design.md\n    /// \"Plan safety\")", "Plan safety"),
        ("/* docs/design.md\n * \"Optional libraries\" */", "Optional libraries"),
        ("docs/design.md, \"Events\"", "Events"),
    ])
    func aCitationIsFoundAcrossACommentLine(text: String, section: String) {
        #expect(Self.citations(in: text, file: "x").map(\.section) == [section])
    }

    @Test func aBareCitationOrAMissingSectionIsCaught() {
        #expect(Self.citations(in: "the design (docs/design.md) says", file: "x").map(\.section) == [nil])
        #expect(!Self.names("Time zones", "Time"))
        #expect(!Self.names("Tim", "Time"))
        #expect(Self.names("Data on the wire", "Data on the wire: JSON lines"))
        #expect(Self.names("Exit status", "Exit status (stable; scripts depend on it)"))
    }
}
