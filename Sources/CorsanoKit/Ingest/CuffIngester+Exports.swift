/// The whole-document formats: Apple Health export.xml / export.zip and Google Fit Takeout JSON
/// (docs/design.md "Cuff input formats").
extension CuffIngester {
    /// The entry of an Apple Health export.zip that holds the records.
    static let appleHealthEntry = "apple_health_export/export.xml"

    /// export.xml from `input`. With `file` (a regular file): the blood-pressure readings are
    /// held (memory bounded by their number, not the file's size), a second pass reads the
    /// heart-rate records of their sources, and each reading gets the pulse of the same source
    /// at the same instant. Without (stdin): one pass, no pulse, and the run says so.
    func ingestAppleHealth(_ input: any ByteSource, name: String, file: (any RandomAccessSource)?) throws {
        try ingestAppleHealth(name: name, firstPass: input, secondPass: file.map { f in { f.stream() } })
    }

    /// export.zip: its `apple_health_export/export.xml` inflated in place, twice (pulse join).
    /// - Throws: `IngestError.malformed` when the input is not a regular file, not a readable
    ///   ZIP, or has no export.xml.
    func ingestAppleHealthZip(_ file: (any RandomAccessSource)?, name: String) throws {
        guard let file else {
            throw IngestError.malformed(source: name, line: nil,
                                        detail: "a ZIP (export.zip) is read only from a regular file, not a pipe: give its path, or unzip it and pipe export.xml")
        }
        do {
            let archive = try ZipArchive(file)
            let candidates = archive.entries.filter { $0.name == Self.appleHealthEntry || $0.name == "export.xml" || $0.name.hasSuffix("/export.xml") }
            guard let entry = candidates.first(where: { $0.name == Self.appleHealthEntry }) ?? (candidates.count == 1 ? candidates[0] : nil) else {
                throw ZipError(candidates.isEmpty ? "no \(Self.appleHealthEntry) in the archive (not an Apple Health export.zip)"
                               : "several export.xml entries (" + candidates.map(\.name).joined(separator: ", ") + ")")
            }
            try ingestAppleHealth(name: name + ":" + entry.name, firstPass: try archive.open(entry),
                                  secondPass: { try archive.open(entry) })
        } catch let error as ZipError {
            throw IngestError.malformed(source: name, line: nil, detail: error.reason)
        }
    }

    private func ingestAppleHealth(name: String, firstPass: any ByteSource, secondPass: (() throws -> any ByteSource)?) throws {
        let willRead = { [sink] in try sink.willRead() }
        var held: [AppleHealthReader.Item] = []
        var unjoined = 0
        let tally: AppleHealthReader.Tally
        do {
            tally = try AppleHealthReader.readBloodPressure(firstPass, willRead: willRead) { item in
                if secondPass != nil { held.append(item); return }
                if case .success = item.result { unjoined += 1 }
                try emit(item, pulse: nil, source: name)
            }
            counts.read += tally.correlationCopies + tally.heartRates + tally.other
            counts.skipped[.correlationCopy, default: 0] += tally.correlationCopies
            counts.skipped[.notBloodPressure, default: 0] += tally.heartRates + tally.other
            guard let secondPass else {
                try sink.note(source: name, line: 1, message: "pulse not joined for \(unjoined) readings (read from a pipe: "
                              + "the heart-rate records of the same source and instant are found by reading the file twice; give its path)")
                return
            }
            let wanted = Set(held.compactMap { item -> AppleHealthReader.JoinKey? in
                guard case .success = item.result else { return nil }
                return item.joinKey
            })
            let pulses = try AppleHealthReader.heartRates(try secondPass(), wanted: wanted, willRead: willRead)
            var joined = 0, ambiguous = 0
            for item in held where !stopped {
                let pulse = item.joinKey.flatMap { pulses[$0] }
                if case .bpm = pulse { joined += 1 }
                if pulse == .ambiguous { ambiguous += 1 }
                try emit(item, pulse: pulse, source: name)
            }
            let readings = held.filter { if case .success = $0.result { true } else { false } }.count
            var message = "pulse from a heart-rate record of the same source at the same instant: \(joined) of \(readings) readings"
            if ambiguous > 0 { message += "; \(ambiguous) left without: heart-rate records of that instant disagree" }
            try sink.note(source: name, line: 1, message: message)
        } catch let error as HealthXMLError {
            // Readings read before the construct are not written half-joined: nothing is guessed.
            throw IngestError.malformed(source: name, line: error.line, detail: error.reason)
        } catch let error as ZipError {
            throw IngestError.malformed(source: name, line: nil, detail: error.reason)
        }
    }

    private func emit(_ item: AppleHealthReader.Item, pulse: AppleHealthReader.Pulse?, source: String) throws {
        guard !stopped else { return }
        switch item.result {
        case .success(var reading):
            if case .bpm(let bpm) = pulse { reading.pulse = bpm }
            try accept(&reading, source: source, line: item.line) { item.raw }
        case .failure(let issue):
            counts.read += 1
            try reject(issue, source: source, line: item.line) { item.raw }
        }
    }

    /// A Google Fit Takeout file, read point by point (`GoogleFitReader.stream`: memory bounded
    /// by the largest point), each blood-pressure data point a reading in order.
    func ingestGoogleFit(_ input: any ByteSource, name: String) throws {
        var source = input
        do {
            try GoogleFitReader.stream(&source, maxValueBytes: GoogleFitReader.defaultMaxValueBytes, willRead: { try sink.willRead() }) { line, point in
                try ingest(point, line: line, name: name)
                return !stopped
            }
        } catch let error as GoogleFitError {
            throw IngestError.malformed(source: name, line: error.line, detail: error.reason)
        }
    }

    private func ingest(_ point: GoogleFitReader.Point, line: Int, name: String) throws {
        switch point {
        case .reading(var reading):
            let raw = reading.json(includeDerivedMAP: false).serialized
            try accept(&reading, source: name, line: line) { raw }
        case .otherType:
            counts.read += 1
            counts.skipped[.notBloodPressure, default: 0] += 1
        case .issue(let issue):
            counts.read += 1
            try reject(issue, source: name, line: line) { "" }
        }
    }
}
