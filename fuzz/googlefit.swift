// libFuzzer target: a Google Fit Takeout document through `GoogleFitReader`. Must never trap;
// every data point gives exactly one outcome with a line inside the document.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGoogleFit(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let points = try? GoogleFitReader.read(bytes) else { return 0 }
    let lines = 1 + bytes.count { $0 == 10 }
    for (line, point) in points {
        precondition(line >= 1 && line <= lines, "line \(line) outside the document's \(lines)")
        if case .reading(let r) = point { _ = ReadingValidator.standard.validate(r) }
    }
    return 0
}
