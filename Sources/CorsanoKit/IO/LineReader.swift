#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a byte stream into `\n`-terminated lines with bounded memory (in the style of
/// swift-nio's line decoders): reads chunks (64 KiB) from a `ByteSource` into one buffer of at
/// most `maxLineLength + chunkSize` bytes and hands out each line in place.
///
/// A trailing `\r` is dropped (CRLF input); a last line without `\n` is still a line; a line
/// longer than `maxLineLength` is reported as `.tooLong` with its number and skipped, never
/// buffered whole. `willRead` runs before every read of the source, the moment where a caller must
/// flush output and commit pending work (docs/design.md "Data on the wire": flush before every read that could block).
public final class LineReader {
    /// One step of the stream.
    public enum Item {
        /// A line without its terminator; `bytes` are valid only until the next call to `next()`.
        case line(number: Int, bytes: UnsafeRawBufferPointer)
        /// A line over `maxLineLength`; its bytes were skipped. `byteCount` excludes the `\n`.
        case tooLong(number: Int, byteCount: Int)
    }

    /// Default read size, bytes.
    public static let defaultChunkSize = 64 * 1024
    /// Default longest line kept, bytes (1 MiB).
    public static let defaultMaxLineLength = 1 << 20

    /// Lines longer than this (bytes, terminator excluded) are reported and skipped.
    public let maxLineLength: Int
    /// Called before each read of the source, which may block.
    public var willRead: (() throws -> Void)?

    private var source: any ByteSource
    private let chunkSize: Int
    private let capacity: Int
    private let storage: UnsafeMutableRawPointer
    private var start = 0, end = 0, scanned = 0
    /// The `\n` `bufferedLineAvailable` found at or after `scanned` (-1: none known), so
    /// `next()` does not search the line again.
    private var knownNewline = -1
    private var atEnd = false
    private var skipping = false, skipped = 0
    private var lineNumber = 0

    /// Creates a reader over `source`.
    public init(source: any ByteSource, chunkSize: Int = LineReader.defaultChunkSize,
                maxLineLength: Int = LineReader.defaultMaxLineLength) {
        self.source = source
        self.chunkSize = max(1, chunkSize)
        self.maxLineLength = max(0, maxLineLength)
        capacity = self.maxLineLength + 2 + self.chunkSize
        storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit { storage.deallocate() }

    /// True when the next `next()` can answer without reading the source (a whole line is
    /// buffered, or input has ended).
    public var bufferedLineAvailable: Bool {
        if atEnd || knownNewline >= scanned { return true }
        guard end > scanned, let hit = memchr(storage + scanned, 0x0A, end - scanned) else { return false }
        knownNewline = storage.distance(to: hit)
        return true
    }

    /// The next line or over-long line; nil at end of input.
    /// - Throws: what the source or `willRead` throws.
    public func next() throws -> Item? {
        while true {
            if let newline = nextNewline() {
                lineNumber += 1
                defer { start = newline + 1; scanned = start }
                if skipping {
                    skipping = false
                    return .tooLong(number: lineNumber, byteCount: skipped + newline - start)
                }
                return item(upTo: newline)
            }
            scanned = end
            if skipping {
                skipped += end - start
                (start, end, scanned, knownNewline) = (0, 0, 0, -1)
            } else if end - start > maxLineLength + 1 {
                // +1: the byte may be the `\r` of a CRLF line of exactly maxLineLength.
                skipping = true
                skipped = end - start
                (start, end, scanned, knownNewline) = (0, 0, 0, -1)
            }
            if atEnd {
                if skipping {
                    skipping = false
                    lineNumber += 1
                    return .tooLong(number: lineNumber, byteCount: skipped)
                }
                guard start < end else { return nil }
                lineNumber += 1
                defer { start = end; scanned = end }
                return item(upTo: end)
            }
            try fill()
        }
    }

    /// The next `\n` at or after `scanned` in the buffer, if any.
    @inline(__always) private func nextNewline() -> Int? {
        if knownNewline >= scanned { return knownNewline }
        guard end > scanned, let hit = memchr(storage + scanned, 0x0A, end - scanned) else { return nil }
        return storage.distance(to: hit)
    }

    private func item(upTo lineEnd: Int) -> Item {
        var last = lineEnd
        if last > start, storage.load(fromByteOffset: last - 1, as: UInt8.self) == 0x0D { last -= 1 }
        if last - start > maxLineLength { return .tooLong(number: lineNumber, byteCount: last - start) }
        return .line(number: lineNumber, bytes: UnsafeRawBufferPointer(start: storage + start, count: last - start))
    }

    private func fill() throws {
        if start > 0 {
            if end > start { memmove(storage, storage + start, end - start) }
            knownNewline = -1
            end -= start
            scanned -= start
            start = 0
        }
        try willRead?()
        let room = UnsafeMutableRawBufferPointer(start: storage + end, count: min(chunkSize, capacity - end))
        let n = try source.read(into: room)
        if n == 0 { atEnd = true } else { end += n }
    }
}
