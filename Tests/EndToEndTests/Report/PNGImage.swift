import CZlib

/// A PNG decoded to RGB pixels (PNG spec, W3C 2003: IHDR, IDAT, zlib, the five filter types),
/// enough for Chromium's screenshots: 8-bit RGB or RGBA, not interlaced. Tests look for drawn
/// pixels of a given colour in it.
struct PNGImage {
    let width: Int, height: Int
    /// RGB triples, row by row.
    private let rgb: [UInt8]

    struct Failure: Error, CustomStringConvertible { let description: String }

    init(_ bytes: [UInt8]) throws {
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw Failure(description: "not a PNG") }
        var at = 8, width = 0, height = 0, channels = 0, data: [UInt8] = []
        func u32(_ i: Int) -> Int { Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]) }
        while at + 8 <= bytes.count {
            let length = u32(at), type = String(decoding: bytes[at + 4 ..< at + 8], as: UTF8.self)
            let body = Array(bytes[at + 8 ..< min(at + 8 + length, bytes.count)])
            switch type {
            case "IHDR":
                width = u32(at + 8)
                height = u32(at + 12)
                guard body.count >= 13, body[8] == 8, body[12] == 0 else { throw Failure(description: "not 8-bit or interlaced") }
                switch body[9] {
                case 2: channels = 3
                case 6: channels = 4
                default: throw Failure(description: "colour type \(body[9])")
                }
            case "IDAT": data += body
            default: break
            }
            at += 12 + length
        }
        let stride = width * channels
        let raw = try Self.inflate(data, expected: height * (stride + 1))
        var pixels = [UInt8](repeating: 0, count: height * stride)
        for y in 0..<height {
            let filter = raw[y * (stride + 1)]
            for x in 0..<stride {
                let value = raw[y * (stride + 1) + 1 + x]
                let a = x >= channels ? Int(pixels[y * stride + x - channels]) : 0
                let b = y > 0 ? Int(pixels[(y - 1) * stride + x]) : 0
                let c = x >= channels && y > 0 ? Int(pixels[(y - 1) * stride + x - channels]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: throw Failure(description: "filter \(filter)")
                }
                pixels[y * stride + x] = UInt8(truncatingIfNeeded: Int(value) + predictor)
            }
        }
        self.width = width
        self.height = height
        rgb = channels == 3 ? pixels : stride == 0 ? [] : (0 ..< width * height).flatMap { pixels[$0 * 4 ..< $0 * 4 + 3] }
    }

    /// The pixel at (x, y) as 0xRRGGBB.
    func pixel(_ x: Int, _ y: Int) -> UInt32 {
        let i = (y * width + x) * 3
        return UInt32(rgb[i]) << 16 | UInt32(rgb[i + 1]) << 8 | UInt32(rgb[i + 2])
    }

    /// The smallest box holding every pixel of `colour`, nil when there is none.
    func box(of colour: UInt32) -> (left: Int, top: Int, right: Int, bottom: Int)? {
        var box: (left: Int, top: Int, right: Int, bottom: Int)?
        for y in 0..<height {
            for x in 0..<width where pixel(x, y) == colour {
                box = box.map { (min($0.left, x), min($0.top, y), max($0.right, x), max($0.bottom, y)) } ?? (x, y, x, y)
            }
        }
        return box
    }

    /// How many pixels of `colour` lie strictly inside `box`.
    func count(_ colour: UInt32, inside box: (left: Int, top: Int, right: Int, bottom: Int)) -> Int {
        var n = 0
        for y in box.top + 1 ..< max(box.bottom, box.top + 1) {
            for x in box.left + 1 ..< max(box.right, box.left + 1) where pixel(x, y) == colour { n += 1 }
        }
        return n
    }

    private static func inflate(_ data: [UInt8], expected: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: expected)
        var length = uLongf(expected)
        let status = data.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                uncompress(output.baseAddress, &length, input.baseAddress, uLong(input.count))
            }
        }
        guard status == Z_OK, Int(length) == expected else { throw Failure(description: "zlib status \(status), \(length) of \(expected) bytes") }
        return out
    }
}
