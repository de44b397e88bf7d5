#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the XML of an export could not be read: the 1-based line and what is there.
public struct HealthXMLError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The line the offending construct starts on.
    public var line: Int
    /// What is wrong (`entity &nbsp; is not one of XML's five ...`).
    public var reason: String

    /// Creates an error.
    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    public var description: String { "line \(line): \(reason)" }
}

/// A streaming scanner of the XML an Apple Health export is written in (export.xml: the XML
/// declaration, the `HealthData` DTD as an internal subset, comments, elements with attributes,
/// whitespace between them). Memory: one buffer holding the construct being read (a tag, a
/// comment, the DTD), never the document.
///
/// What it reads as XML 1.0 does (W3C XML 1.0, 5th ed.): attribute order and quoting (`"` or
/// `'`), whitespace around `=` and between attributes, the five predefined entities and character
/// references in attribute values, line ends (CR LF and CR are LF) and attribute-value
/// normalization (a literal tab or line end is a space), well-formedness of the element tree.
/// What it does not handle is refused with its line, never guessed: entity declarations and
/// other entities, CDATA sections, text content other than whitespace, names outside ASCII,
/// a declared encoding other than UTF-8.
public struct HealthXMLScanner {
    /// One step of the document.
    public enum Event: Equatable {
        /// A start tag (`selfClosing`: `<Record .../>`, no end event follows); its name and
        /// attributes are read through `name`, `attributeCount`, `attributeName(_:)`, `value(_:)`
        /// until the next call to `next()`.
        case start(selfClosing: Bool)
        /// An end tag; `name` is the element's.
        case end
    }

    /// Fewest bytes a refill reads before parsing resumes (unless the input ends).
    static let minimumRead = 512

    /// Longest single construct (a tag, a comment, the DTD) read, bytes.
    public static let maxConstruct = 8 << 20

    private var source: any ByteSource
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    private var pos = 0, end = 0
    private var atEOF = false
    /// Lines counted up to buffer offset `counted` (LFs, and CRs not followed by LF).
    private var line = 1, counted = 0
    /// Names of the open elements, outermost first.
    private var open: [[UInt8]] = []
    private var rootSeen = false
    private var started = false
    /// Called before each read of the source (the caller flushes output there).
    public var willRead: (() throws -> Void)?

    /// The current tag's name: buffer offset and length.
    private var nameAt = 0, nameLength = 0
    /// Attribute spans of the current tag: (name offset, name length, value offset, value
    /// length, value needs decoding).
    private var spans: [(Int, Int, Int, Int, Bool)] = []
    /// Buffer offset of the current construct's `<` (its line is counted only when asked for:
    /// most tags are never reported).
    private var tagAt = 0

    /// Line of the current tag's `<`.
    public var tagLine: Int {
        mutating get { lineAt(tagAt) }
    }

    /// Creates a scanner over `source`.
    public init(source: any ByteSource, chunk: Int = 1 << 20) {
        self.source = source
        capacity = max(4096, chunk)
        storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
        spans.reserveCapacity(16)
    }

    /// Frees the buffer (the scanner is a struct; the owner calls this once it is done).
    public func deallocate() { storage.deallocate() }

    /// Depth of open elements after the last event (the root's children are at 2 when started).
    public var depth: Int { open.count }

    // MARK: Reading

    /// The next start or end tag; nil at the end of a well-formed document.
    /// - Throws: `HealthXMLError` at the first construct it does not read; `ByteSourceError`
    ///   when the source fails.
    public mutating func next() throws -> Event? {
        if !started {
            started = true
            try skipByteOrderMark()
        }
        while true {
            // Text up to the next `<`: whitespace only.
            guard let lt = try findByte(60) else {
                try checkText(pos, end)
                pos = end
                if !open.isEmpty {
                    throw HealthXMLError(line: lineAt(pos), reason: "the document ends inside <\(String(decoding: open.last!, as: UTF8.self))> (a truncated export?)")
                }
                if !rootSeen { throw HealthXMLError(line: lineAt(pos), reason: "no root element: not an XML export") }
                return nil
            }
            try checkText(pos, lt)
            pos = lt
            tagAt = lt
            guard try ensure(2) else { throw fail("the document ends inside a tag") }
            let second = byte(pos + 1)
            switch second {
            case 63:  // <?
                try skipProcessingInstruction()
            case 33:  // <!
                try skipDeclarationOrComment()
            case 47:  // </
                try readEndTag()
                return .end
            default:
                let selfClosing = try readStartTag()
                return .start(selfClosing: selfClosing)
            }
        }
    }

    /// The current tag's name bytes (valid until the next `next()`).
    public var name: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage + nameAt, count: nameLength) }

    /// True when the current tag is named `literal`.
    @inline(__always)
    public func nameIs(_ literal: StaticString) -> Bool {
        nameLength == literal.utf8CodeUnitCount && memcmp(storage + nameAt, literal.utf8Start, nameLength) == 0
    }

    /// How many attributes the current start tag has.
    public var attributeCount: Int { spans.count }

    /// The `i`th attribute's name.
    public func attributeName(_ i: Int) -> String {
        String(decoding: UnsafeRawBufferPointer(start: storage + spans[i].0, count: spans[i].1), as: UTF8.self)
    }

    /// The index of the attribute named `literal`, nil when the tag has none.
    @inline(__always)
    public func attribute(_ literal: StaticString) -> Int? {
        let n = literal.utf8CodeUnitCount
        for i in spans.indices where spans[i].1 == n && memcmp(storage + spans[i].0, literal.utf8Start, n) == 0 {
            return i
        }
        return nil
    }

    /// True when attribute `i`'s value, decoded, is exactly `literal`.
    @inline(__always)
    public func value(_ i: Int, is literal: StaticString) -> Bool {
        let s = spans[i]
        if s.4 { return value(i).utf8.elementsEqual(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)) }
        return s.3 == literal.utf8CodeUnitCount && memcmp(storage + s.2, literal.utf8Start, s.3) == 0
    }

    /// Attribute `i`'s raw bytes when they need no decoding (no `&`, tab or line end), else nil.
    @inline(__always)
    public func rawValue(_ i: Int) -> UnsafeRawBufferPointer? {
        spans[i].4 ? nil : UnsafeRawBufferPointer(start: storage + spans[i].2, count: spans[i].3)
    }

    /// Attribute `i`'s value, entities and character references decoded, whitespace normalized.
    /// Invalid UTF-8 was refused when the tag was read, so this never repairs.
    public func value(_ i: Int) -> String {
        let s = spans[i]
        let raw = UnsafeRawBufferPointer(start: storage + s.2, count: s.3)
        guard s.4 else { return String(decoding: raw, as: UTF8.self) }
        // Checked when read: every reference is well-formed, so decoding cannot fail here.
        return String(decoding: (try? Self.decode(raw, line: 0)) ?? [], as: UTF8.self)
    }

    // MARK: Constructs

    private mutating func readEndTag() throws {
        while true {
            if try parseEndTag() { return }
            guard try more() else { throw fail("the document ends inside an end tag") }
        }
    }

    /// One attempt at the end tag at `pos`; false when the buffer ends before it does.
    private mutating func parseEndTag() throws -> Bool {
        let base = storage.assumingMemoryBound(to: UInt8.self)
        var i = pos + 2
        let nameStart = i
        while i < end, Self.isNameByte(base[i]) { i += 1 }
        guard i < end else { return false }
        nameAt = nameStart
        nameLength = i - nameStart
        guard nameLength > 0 else { throw fail("an end tag without a name") }
        while i < end, Self.isSpace(base[i]) { i += 1 }
        guard i < end else { return false }
        guard base[i] == 62 else { throw fail("unexpected \(Self.shown(base[i])) in an end tag") }
        guard let top = open.last else { throw fail("end tag </\(nameText)> without a start tag") }
        guard top.count == nameLength, top.withUnsafeBytes({ memcmp($0.baseAddress!, storage + nameAt, nameLength) }) == 0 else {
            throw fail("end tag </\(nameText)> does not close <\(String(decoding: top, as: UTF8.self))>")
        }
        open.removeLast()
        spans.removeAll(keepingCapacity: true)
        pos = i + 1
        return true
    }

    /// Reads `<name attr="v" ...>` or `.../>` at `pos`; returns true for `/>`.
    private mutating func readStartTag() throws -> Bool {
        while true {
            // The whole tag must be in the buffer; when it is not, read more and start over.
            if let result = try parseStartTag() { return result }
            guard try more() else { throw fail("the document ends inside a tag") }
        }
    }

    /// One attempt at the tag at `pos`; nil when the buffer ends before the tag does.
    private mutating func parseStartTag() throws -> Bool? {
        spans.removeAll(keepingCapacity: true)
        let base = storage.assumingMemoryBound(to: UInt8.self)
        var i = pos + 1
        let nameStart = i
        while i < end, Self.isNameByte(base[i]) { i += 1 }
        guard i < end else { return nil }
        let nameEnd = i
        guard nameEnd > nameStart else { throw fail("unexpected \(Self.shown(base[i])) after '<'") }
        guard !Self.isDigitDashDot(base[nameStart]) else { throw fail("a name cannot start with \(Self.shown(base[nameStart]))") }
        nameAt = nameStart
        nameLength = nameEnd - nameStart
        while true {
            let spaceStart = i
            while i < end, Self.isSpace(base[i]) { i += 1 }
            guard i < end else { return nil }
            let c = base[i]
            if c == 62 {  // >
                try opened(selfClosing: false, at: i)
                return false
            }
            if c == 47 {  // /
                guard i + 1 < end else { return nil }
                guard base[i + 1] == 62 else { throw fail("unexpected '/' in <\(nameText)>") }
                try opened(selfClosing: true, at: i + 1)
                return true
            }
            guard i > spaceStart else { throw fail("unexpected \(Self.shown(c)) in <\(nameText)> (no space before an attribute?)") }
            // name
            let an = i
            while i < end, Self.isNameByte(base[i]) { i += 1 }
            guard i < end else { return nil }
            guard i > an else { throw fail("unexpected \(Self.shown(base[i])) in <\(nameText)>") }
            guard !Self.isDigitDashDot(base[an]) else { throw fail("an attribute name cannot start with \(Self.shown(base[an]))") }
            let anLength = i - an
            while i < end, Self.isSpace(base[i]) { i += 1 }
            guard i < end else { return nil }
            guard base[i] == 61 else { throw fail("attribute \(String(decoding: UnsafeRawBufferPointer(start: storage + an, count: anLength), as: UTF8.self)) has no '='") }
            i += 1
            while i < end, Self.isSpace(base[i]) { i += 1 }
            guard i < end else { return nil }
            let quote = base[i]
            guard quote == 34 || quote == 39 else { throw fail("an attribute value must be quoted") }
            i += 1
            let valueStart = i
            guard let hit = memchr(storage + i, Int32(quote), end - i) else { return nil }
            let valueEnd = UnsafeRawPointer(hit) - UnsafeRawPointer(storage)
            var special = false
            var j = valueStart
            while j < valueEnd {
                let b = base[j]
                if b < 0x20 || b == 38 || b == 60 || b >= 0x80 {
                    if b == 60 { throw fail("'<' inside an attribute value") }
                    if b == 38 || b == 9 || b == 10 || b == 13 { special = true }
                    else if b < 0x20 { throw fail("control character \(Self.shown(b)) in an attribute value") }
                    else {
                        // Non-ASCII: validate the UTF-8 sequence here, once.
                        let n = Self.utf8SequenceLength(base, j, valueEnd)
                        guard n > 0 else { throw fail("invalid UTF-8 in an attribute value") }
                        j += n
                        continue
                    }
                }
                j += 1
            }
            if special { _ = try Self.decode(UnsafeRawBufferPointer(start: storage + valueStart, count: valueEnd - valueStart), line: tagLine) }
            // XML forbids a repeated attribute.
            for s in spans where s.1 == anLength && memcmp(storage + s.0, storage + an, anLength) == 0 {
                throw fail("attribute \(String(decoding: UnsafeRawBufferPointer(start: storage + an, count: anLength), as: UTF8.self)) given twice")
            }
            spans.append((an, anLength, valueStart, valueEnd - valueStart, special))
            i = valueEnd + 1
        }
    }

    private var nameText: String { String(decoding: name, as: UTF8.self) }

    /// Book-keeping after a start tag ending at `last` (its `>`).
    private mutating func opened(selfClosing: Bool, at last: Int) throws {
        if open.isEmpty {
            guard !rootSeen else { throw fail("a second root element <\(nameText)>") }
            rootSeen = true
        }
        if !selfClosing { open.append(Array(name)) }
        pos = last + 1
    }

    /// `<?xml ...?>` (UTF-8 only) or another processing instruction, skipped.
    private mutating func skipProcessingInstruction() throws {
        guard let close = try find([63, 62], from: pos + 2) else { throw fail("the document ends inside '<?'") }
        let body = UnsafeRawBufferPointer(start: storage + pos + 2, count: close - pos - 2)
        if body.starts(with: Array("xml".utf8)), body.count == 3 || Self.isSpace(body[3]) {
            guard !rootSeen, pos == declarationAllowedAt else {
                throw fail("an XML declaration that is not at the start of the document")
            }
            let text = String(decoding: body, as: UTF8.self).lowercased()
            if let range = text.firstRange(of: "encoding") {
                let rest = text[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }
                let encoding = rest.prefix { $0 != "\"" && $0 != "'" && $0 != " " }
                guard encoding == "utf-8" || encoding == "utf8" else {
                    throw fail("declared encoding '\(encoding)' (only UTF-8 exports are read)")
                }
            }
        }
        pos = close + 2
    }

    /// Where an XML declaration may stand: offset 0 (after a BOM) of the first buffer.
    private var declarationAllowedAt = 0

    /// `<!--...-->`, `<!DOCTYPE ... [ ... ]>`; anything else after `<!` is refused.
    private mutating func skipDeclarationOrComment() throws {
        guard try ensure(4) else { throw fail("the document ends after '<!'") }
        if byte(pos + 2) == 45, byte(pos + 3) == 45 {
            guard let close = try find([45, 45, 62], from: pos + 4) else { throw fail("the document ends inside a comment") }
            pos = close + 3
            return
        }
        guard try ensure(9), memcmp(storage + pos, "<!DOCTYPE", 9) == 0 else {
            throw fail(try ensure(9) && memcmp(storage + pos, "<![CDATA[", 9) == 0
                       ? "a CDATA section (not in an export's structure)" : "unexpected markup after '<!'")
        }
        guard !rootSeen else { throw fail("a DOCTYPE after the root element") }
        while true {
            if let close = try parseDoctype() {
                pos = close + 1
                return
            }
            guard try more() else { throw fail("the document ends inside the DOCTYPE") }
        }
    }

    /// One attempt at the DOCTYPE at `pos`: the offset of its closing `>`, nil when the buffer
    /// ends first. Quoted literals and comments are skipped; entity declarations are refused
    /// (their references would otherwise be guessed).
    private mutating func parseDoctype() throws -> Int? {
        let base = storage.assumingMemoryBound(to: UInt8.self)
        var i = pos + 9
        var inSubset = false
        while i < end {
            let c = base[i]
            if c == 34 || c == 39 {
                guard let hit = memchr(storage + i + 1, Int32(c), end - i - 1) else { return nil }
                i = UnsafeRawPointer(hit) - UnsafeRawPointer(storage) + 1
                continue
            }
            if inSubset, c == 60 {
                guard i + 8 <= end else { return nil }
                if base[i + 1] == 33, base[i + 2] == 45, base[i + 3] == 45 {
                    var j = i + 4
                    while j + 3 <= end, !(base[j] == 45 && base[j + 1] == 45 && base[j + 2] == 62) { j += 1 }
                    guard j + 3 <= end else { return nil }
                    i = j + 3
                    continue
                }
                if memcmp(storage + i, "<!ENTITY", 8) == 0 {
                    throw HealthXMLError(line: lineAt(i), reason: "an entity declaration (entities other than XML's five are not read)")
                }
            }
            if c == 91 { inSubset = true }
            if c == 93 { inSubset = false }
            if c == 62, !inSubset { return i }
            i += 1
        }
        return nil
    }

    // MARK: Text and entities

    /// Text between tags: only whitespace belongs there in an export.
    private mutating func checkText(_ from: Int, _ to: Int) throws {
        let base = storage.assumingMemoryBound(to: UInt8.self)
        var i = from
        while i < to {
            let c = base[i]
            if !Self.isSpace(c) {
                throw HealthXMLError(line: lineAt(i), reason: "text content \(Self.shown(c)) (an export holds only elements and attributes)")
            }
            i += 1
        }
    }

    /// Decodes an attribute value: the five predefined entities, `&#N;`, `&#xH;`, and
    /// whitespace normalization (CR LF, CR, LF, tab: one space each).
    /// - Throws: `HealthXMLError` on another entity or a reference to a character XML forbids.
    static func decode(_ raw: UnsafeRawBufferPointer, line: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        while i < raw.count {
            let c = raw[i]
            if c == 13 {
                out.append(32)
                i += (i + 1 < raw.count && raw[i + 1] == 10) ? 2 : 1
                continue
            }
            if c == 9 || c == 10 { out.append(32); i += 1; continue }
            guard c == 38 else { out.append(c); i += 1; continue }
            guard let semi = raw[i...].firstIndex(of: 59), semi - i <= 12 else {
                throw HealthXMLError(line: line, reason: "'&' without a reference (write &amp;)")
            }
            let ref = Array(raw[(i + 1)..<semi])
            switch ref {
            case Array("lt".utf8): out.append(60)
            case Array("gt".utf8): out.append(62)
            case Array("amp".utf8): out.append(38)
            case Array("quot".utf8): out.append(34)
            case Array("apos".utf8): out.append(39)
            default:
                guard ref.first == 35 else {
                    throw HealthXMLError(line: line, reason: "entity &\(String(decoding: ref, as: UTF8.self)); is not one of XML's five (the export declares none)")
                }
                let hex = ref.count > 1 && ref[1] == 120
                let digits = ref.dropFirst(hex ? 2 : 1)
                guard !digits.isEmpty, let v = UInt32(String(decoding: digits, as: UTF8.self), radix: hex ? 16 : 10),
                      v == 9 || v == 10 || v == 13 || (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v)
                        || (0x10000...0x10FFFF).contains(v), let scalar = Unicode.Scalar(v) else {
                    throw HealthXMLError(line: line, reason: "character reference &\(String(decoding: ref, as: UTF8.self)); names no XML character")
                }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            i = semi + 1
        }
        return out
    }

    // MARK: Buffer

    @inline(__always) private func byte(_ i: Int) -> UInt8 { storage.load(fromByteOffset: i, as: UInt8.self) }

    /// Makes `count` bytes from `pos` available; false when the input ends first.
    private mutating func ensure(_ count: Int) throws -> Bool {
        while end - pos < count {
            guard try more() else { return false }
        }
        return true
    }

    /// Finds byte `b` at or after `from` (default `pos`), reading more as needed; nil at the end.
    private mutating func findByte(_ b: UInt8, from: Int? = nil) throws -> Int? {
        var i = from ?? pos
        while true {
            if i < end, let hit = memchr(storage + i, Int32(b), end - i) {
                return UnsafeRawPointer(hit) - UnsafeRawPointer(storage)
            }
            let offset = i - pos
            let scannedTo = end - pos
            guard try more() else { return nil }
            i = pos + max(offset, scannedTo)
        }
    }

    /// Finds `pattern` at or after `from`, reading more as needed; nil at the end. Where the
    /// search resumes is kept relative to `pos`: a refill moves the bytes.
    private mutating func find(_ pattern: [UInt8], from: Int) throws -> Int? {
        var resume = from - pos
        while true {
            var i = pos + resume
            while i + pattern.count <= end {
                guard let hit = memchr(storage + i, Int32(pattern[0]), end - i - pattern.count + 1) else {
                    i = end - pattern.count + 1
                    break
                }
                let at = UnsafeRawPointer(hit) - UnsafeRawPointer(storage)
                if pattern.withUnsafeBytes({ memcmp(storage + at, $0.baseAddress!, pattern.count) }) == 0 { return at }
                i = at + 1
            }
            resume = max(resume, i - pos)
            guard try more() else { return nil }
        }
    }

    /// Reads more input, keeping the bytes from `pos` on (offsets move: callers re-base on
    /// `pos`). False at the end of input.
    private mutating func more() throws -> Bool {
        guard !atEOF else { return false }
        if pos > 0 {
            countLines(to: pos)
            let keep = end - pos
            if keep > 0 { memmove(storage, storage + pos, keep) }
            declarationAllowedAt -= pos
            tagAt -= pos
            counted -= pos
            end = keep
            pos = 0
        }
        if end == capacity {
            guard capacity < Self.maxConstruct else {
                throw HealthXMLError(line: tagLine, reason: "a construct longer than \(Self.maxConstruct >> 20) MiB")
            }
            let bigger = UnsafeMutableRawPointer.allocate(byteCount: capacity * 2, alignment: 16)
            bigger.copyMemory(from: storage, byteCount: end)
            storage.deallocate()
            storage = bigger
            capacity *= 2
        }
        // At least `minimumRead` bytes (or the rest of the input) per refill: a tag is parsed
        // again from its start after each one, so refills of a few bytes (a slow pipe) would make
        // a long tag quadratic. A document is waited for whole anyway.
        let before = end
        while end - before < Self.minimumRead, end < capacity {
            try willRead?()
            let n = try source.read(into: UnsafeMutableRawBufferPointer(start: storage + end, count: capacity - end))
            if n == 0 { atEOF = true; break }
            end += n
        }
        return end > before
    }

    private mutating func skipByteOrderMark() throws {
        if try ensure(3), byte(0) == 0xEF, byte(1) == 0xBB, byte(2) == 0xBF {
            pos = 3
            counted = 3
            declarationAllowedAt = 3
        }
    }

    /// Counts line ends in `counted..<to`: every CR, and every LF not right after a CR (CR LF is
    /// one line end). The byte before `counted` may be gone (compacted): `lastCountedWasCR` keeps it.
    private mutating func countLines(to: Int) {
        guard to > counted else { return }
        let base = storage.assumingMemoryBound(to: UInt8.self)
        var i = counted
        while i < to {
            guard let hit = memchr(storage + i, 10, to - i) else { break }
            let j = UnsafeRawPointer(hit) - UnsafeRawPointer(storage)
            if !(j == counted ? lastCountedWasCR : base[j - 1] == 13) { line += 1 }
            i = j + 1
        }
        // CRs are rare (old Mac or Windows line ends): look only when the range has any.
        if memchr(storage + counted, 13, to - counted) != nil {
            for j in counted..<to where base[j] == 13 { line += 1 }
        }
        lastCountedWasCR = base[to - 1] == 13
        counted = to
    }

    private var lastCountedWasCR = false

    /// The line of buffer offset `at` (at or after the last counted offset).
    private mutating func lineAt(_ at: Int) -> Int {
        countLines(to: at)
        return line
    }

    private mutating func fail(_ reason: String) -> HealthXMLError {
        HealthXMLError(line: tagLine, reason: reason)
    }

    // MARK: Bytes

    @inline(__always) static func isSpace(_ c: UInt8) -> Bool { c == 32 || c == 10 || c == 9 || c == 13 }

    /// ASCII name characters (XML NameChar restricted to ASCII: an export's names are).
    @inline(__always) static func isNameByte(_ c: UInt8) -> Bool {
        (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 58) || c == 95 || c == 45 || c == 46
    }

    @inline(__always) static func isDigitDashDot(_ c: UInt8) -> Bool { (c >= 48 && c <= 57) || c == 45 || c == 46 }

    static func shown(_ c: UInt8) -> String {
        c >= 0x21 && c < 0x7F ? "'\(Character(Unicode.Scalar(c)))'" : "byte 0x" + String(c, radix: 16, uppercase: true)
    }

    /// Length of the valid UTF-8 sequence at `i` (before `limit`), 0 when invalid.
    static func utf8SequenceLength(_ b: UnsafeMutablePointer<UInt8>, _ i: Int, _ limit: Int) -> Int {
        let c = b[i]
        let n: Int
        let minimum: UInt32
        switch c {
        case 0xC2...0xDF: n = 2; minimum = 0x80
        case 0xE0...0xEF: n = 3; minimum = 0x800
        case 0xF0...0xF4: n = 4; minimum = 0x10000
        default: return 0
        }
        guard i + n <= limit else { return 0 }
        var v = UInt32(c) & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07)
        for k in 1..<n {
            let d = b[i + k]
            guard d & 0xC0 == 0x80 else { return 0 }
            v = v << 6 | UInt32(d & 0x3F)
        }
        guard v >= minimum, v <= 0x10FFFF, !(0xD800...0xDFFF).contains(v), v != 0xFFFE, v != 0xFFFF else { return 0 }
        return n
    }
}
