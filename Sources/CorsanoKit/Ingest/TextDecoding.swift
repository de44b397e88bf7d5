/// The text encodings `cuff ingest` reads: UTF-8 (with or without BOM), UTF-16 with a BOM
/// (Windows tools), and the single-byte encodings Excel saves CSV in (`--encoding`).
public enum TextEncoding: String, CaseIterable, Sendable {
    case utf8 = "utf-8"
    case utf16LE = "utf-16le"
    case utf16BE = "utf-16be"
    case windows1252 = "windows-1252"
    case latin1

    /// The encodings `--encoding` offers (UTF-16 is recognised by its BOM).
    public static let selectable: [TextEncoding] = [.utf8, .windows1252, .latin1]

    /// The encoding a BOM at the start of `prefix` announces, and the BOM's length.
    public static func fromBOM(_ prefix: some Collection<UInt8>) -> (TextEncoding, Int)? {
        let p = Array(prefix.prefix(3))
        if p.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
        if p.starts(with: [0xFF, 0xFE]) { return (.utf16LE, 2) }
        if p.starts(with: [0xFE, 0xFF]) { return (.utf16BE, 2) }
        return nil
    }
}

/// Why bytes could not be read as text: the byte offset (from the start of the input) and
/// what is there.
public struct TextDecodingIssue: Error, Equatable, Sendable {
    /// Offset of the first byte that cannot be read, 0-based.
    public var offset: Int
    /// What is wrong (`byte 0xE9 is not UTF-8`).
    public var detail: String
}

/// Checks that a byte stream fed in chunks of any size is UTF-8 (RFC 3629: no overlongs, no
/// surrogates, at most U+10FFFF).
public struct UTF8Validator: Sendable {
    private var offset = 0
    private var need = 0          // continuation bytes still expected
    private var lower: UInt8 = 0x80, upper: UInt8 = 0xBF  // bounds of the next continuation byte
    private var sequenceStart = 0

    /// Creates a validator at offset `start` of the input.
    public init(start: Int = 0) { offset = start }

    /// Checks the next chunk. - Throws: `TextDecodingIssue` at the first byte that is not UTF-8.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) throws(TextDecodingIssue) {
        var i = 0
        let n = chunk.count
        while i < n {
            if need == 0 {
                // ASCII runs, eight bytes at a time.
                while i + 8 <= n, chunk.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 { i += 8 }
                guard i < n else { break }
                let b = chunk[i]
                if b < 0x80 { i += 1; continue }
                sequenceStart = offset + i
                switch b {
                case 0xC2...0xDF: need = 1; lower = 0x80; upper = 0xBF
                case 0xE0: need = 2; lower = 0xA0; upper = 0xBF
                case 0xE1...0xEC, 0xEE...0xEF: need = 2; lower = 0x80; upper = 0xBF
                case 0xED: need = 2; lower = 0x80; upper = 0x9F
                case 0xF0: need = 3; lower = 0x90; upper = 0xBF
                case 0xF1...0xF3: need = 3; lower = 0x80; upper = 0xBF
                case 0xF4: need = 3; lower = 0x80; upper = 0x8F
                default: throw TextDecodingIssue(offset: offset + i, detail: "byte \(hexByte(b)) is not UTF-8")
                }
                i += 1
            } else {
                let b = chunk[i]
                guard b >= lower, b <= upper else {
                    throw TextDecodingIssue(offset: sequenceStart, detail: "the bytes at this offset are not UTF-8")
                }
                lower = 0x80; upper = 0xBF
                need -= 1
                i += 1
            }
        }
        offset += n
    }

    /// Ends the stream. - Throws: `TextDecodingIssue` when it stops inside a character.
    public func finish() throws(TextDecodingIssue) {
        if need > 0 { throw TextDecodingIssue(offset: sequenceStart, detail: "the input ends inside a UTF-8 character") }
    }
}

/// A byte source that reads UTF-16 (LE or BE), Windows-1252 or Latin-1 bytes from `source` and
/// hands out UTF-8, so every later step (line splitting, line numbers) sees one encoding.
public struct TranscodingByteSource: ByteSource {
    private var source: any ByteSource
    private let encoding: TextEncoding
    private var input = [UInt8](repeating: 0, count: 64 * 1024)
    private var output: [UInt8] = []
    private var outputStart = 0
    private var carry: [UInt8] = []       // a UTF-16 unit or surrogate pair split across reads
    private var consumed: Int             // offset in the input of the next byte to decode
    private var ended = false

    /// Creates a source decoding `source` (whose first `skipping` bytes, a BOM, were read already).
    public init(_ source: any ByteSource, encoding: TextEncoding, startOffset: Int = 0) {
        self.source = source
        self.encoding = encoding
        consumed = startOffset
    }

    /// - Throws: `TextDecodingIssue` naming the offset of bytes the encoding cannot read, and
    ///   what the underlying source throws.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while outputStart == output.count {
            if ended { return 0 }
            output.removeAll(keepingCapacity: true)
            outputStart = 0
            let n = try input.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 {
                ended = true
                if !carry.isEmpty {
                    throw TextDecodingIssue(offset: consumed - carry.count, detail: "the input ends inside a UTF-16 character")
                }
                return 0
            }
            try decode(n)
        }
        let n = min(buffer.count, output.count - outputStart)
        output.withUnsafeBytes { src in
            buffer.baseAddress!.copyMemory(from: src.baseAddress! + outputStart, byteCount: n)
        }
        outputStart += n
        return n
    }

    private mutating func decode(_ n: Int) throws(TextDecodingIssue) {
        switch encoding {
        case .utf8:
            output.append(contentsOf: input[0..<n])
            consumed += n
        case .latin1:
            for b in input[0..<n] { appendScalar(UInt32(b)) }
            consumed += n
        case .windows1252:
            for k in 0..<n {
                let b = input[k]
                if b >= 0x80 && b < 0xA0 {
                    let scalar = Self.cp1252[Int(b - 0x80)]
                    guard scalar != 0 else {
                        throw TextDecodingIssue(offset: consumed + k, detail: "byte \(hexByte(b)) has no character in windows-1252")
                    }
                    appendScalar(UInt32(scalar))
                } else {
                    appendScalar(UInt32(b))
                }
            }
            consumed += n
        case .utf16LE, .utf16BE:
            var bytes = carry
            bytes.append(contentsOf: input[0..<n])
            let base = consumed - carry.count
            carry = []
            var k = 0
            func unit(_ at: Int) -> UInt32 {
                encoding == .utf16LE ? UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 : UInt32(bytes[at]) << 8 | UInt32(bytes[at + 1])
            }
            while k + 1 < bytes.count {
                let u = unit(k)
                if u >= 0xD800 && u <= 0xDBFF {
                    guard k + 3 < bytes.count else { break }
                    let low = unit(k + 2)
                    guard low >= 0xDC00 && low <= 0xDFFF else {
                        throw TextDecodingIssue(offset: base + k, detail: "an unpaired UTF-16 surrogate")
                    }
                    appendScalar(0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00))
                    k += 4
                } else if u >= 0xDC00 && u <= 0xDFFF {
                    throw TextDecodingIssue(offset: base + k, detail: "an unpaired UTF-16 surrogate")
                } else {
                    appendScalar(u)
                    k += 2
                }
            }
            carry = Array(bytes[k...])
            consumed += n
        }
    }

    private mutating func appendScalar(_ v: UInt32) {
        switch v {
        case 0..<0x80: output.append(UInt8(v))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | (v >> 6))); output.append(UInt8(0x80 | (v & 0x3F)))
        case 0x800..<0x10000:
            output.append(UInt8(0xE0 | (v >> 12))); output.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            output.append(UInt8(0x80 | (v & 0x3F)))
        default:
            output.append(UInt8(0xF0 | (v >> 18))); output.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
            output.append(UInt8(0x80 | ((v >> 6) & 0x3F))); output.append(UInt8(0x80 | (v & 0x3F)))
        }
    }

    /// Windows-1252 0x80-0x9F (0 = no character; those five bytes are refused). Source:
    /// Microsoft's code page 1252 table (unicode.org MAPPINGS/VENDORS/MICSFT/WINDOWS/CP1252.TXT).
    static let cp1252: [UInt16] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]
}

/// `0xE9`.
func hexByte(_ b: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return "0x" + String(digits[Int(b >> 4)]) + String(digits[Int(b & 15)])
}
