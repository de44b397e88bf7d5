/// A 256-byte scratch area on the stack, filled left to right and appended to an array in one
/// call: per-byte appends to an array cost more than composing a reading line (the `cuff
/// ingest` hot path). Valid only inside `ByteBlock.with`.
struct ByteBlock {
    /// Bytes a block holds.
    static let capacity = 256
    private let base: UnsafeMutableRawPointer
    /// Bytes written so far.
    private(set) var count = 0

    /// Runs `body` with an empty block in temporary (stack) memory.
    static func with<R>(_ body: (inout ByteBlock) -> R) -> R {
        withUnsafeTemporaryAllocation(byteCount: capacity, alignment: 16) { raw in
            var block = ByteBlock(base: raw.baseAddress!)
            return body(&block)
        }
    }

    private init(base: UnsafeMutableRawPointer) { self.base = base }

    /// Room left, bytes.
    var room: Int { Self.capacity - count }

    /// Appends ASCII `text` (static keys; callers keep the total within `capacity`).
    mutating func write(_ text: StaticString) {
        let n = text.utf8CodeUnitCount
        precondition(n <= room, "ByteBlock overflow")
        (base + count).copyMemory(from: text.utf8Start, byteCount: n)
        count += n
    }

    /// Appends `value` in decimal (at most 20 bytes).
    mutating func write(_ value: Int) {
        precondition(room >= 20, "ByteBlock overflow")
        var v = value.magnitude
        var digits = 0
        repeat { digits += 1; v /= 10 } while v > 0
        let n = digits + (value < 0 ? 1 : 0)
        if value < 0 { base.storeBytes(of: UInt8(ascii: "-"), toByteOffset: count, as: UInt8.self) }
        v = value.magnitude
        var at = count + n
        repeat {
            at -= 1
            base.storeBytes(of: UInt8(48 + v % 10), toByteOffset: at, as: UInt8.self)
            v /= 10
        } while v > 0
        count += n
    }

    /// Appends `instant` in RFC 3339 UTC; false (nothing written) when it needs the general
    /// path (a year outside 0...9999) or the block lacks room.
    mutating func write(_ instant: Instant) -> Bool {
        guard room >= RFC3339.maxInstantBytes, let n = RFC3339.write(instant, to: base + count) else { return false }
        count += n
        return true
    }

    /// Appends `stamp` as `YYYY-MM-DDTHH:MM:SS`.
    mutating func write(_ stamp: NaiveDateTime) {
        precondition(room >= 19, "ByteBlock overflow")
        RFC3339.writeStamp(stamp.year, stamp.month, stamp.day, stamp.hour, stamp.minute, stamp.second, to: base + count)
        count += 19
    }

    /// Appends the block's bytes to `out` and empties it.
    mutating func flush(to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeRawBufferPointer(start: base, count: count))
        count = 0
    }
}
