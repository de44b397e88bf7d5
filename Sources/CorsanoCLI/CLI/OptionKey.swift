/// The name of every option in the command table, as a typed key: handlers read option values
/// by key (`parsed.flag(.deriveMap)`), so a misspelt option cannot compile. The raw
/// value is the long name without dashes. Adding an option to the table starts with a case here.
enum OptionKey: String, CaseIterable, Sendable {
    case abandon
    case adapter
    case anchorDevice = "anchor-device"
    case anchorPhone = "anchor-phone"
    case auditKey = "audit-key"
    case backdate
    case bail
    case birthdate
    case bracelet
    case bundle
    case categories
    case clock
    case column
    case columns
    case commitBytes = "commit-bytes"
    case commitInterval = "commit-interval"
    case count
    case criteria
    case cuff
    case cuffCmd = "cuff-cmd"
    case cuffId = "cuff-id"
    case cuffPairedCmd = "cuff-paired-cmd"
    case cuffTimeout = "cuff-timeout"
    case dateOrder = "date-order"
    case deriveMap = "derive-map"
    case device
    case deviceOut = "device-out"
    case due
    case durability
    case encoding
    case expect
    case feedFlagged = "feed-flagged"
    case first
    case fleet
    case fleetScenarios = "fleet-scenarios"
    case force
    case format
    case from
    case gateway
    case gender
    case hairDensity = "hair-density"
    case hashesOnly = "hashes-only"
    case headerLine = "header-line"
    case height
    case help
    case ieee1708Grade = "ieee1708-grade"
    case json
    case kind
    case lang
    case lease
    case limit
    case listen
    case live
    case maxAttempts = "max-attempts"
    case maxClockSkew = "max-clock-skew"
    case maxReadingAge = "max-reading-age"
    case maxSetGap = "max-set-gap"
    case meaning
    case metrics
    case minSubjects = "min-subjects"
    case name
    case noPreparation = "no-preparation"
    case noReplayFilter = "no-replay-filter"
    case noState = "no-state"
    case now
    case operatorName = "operator"
    case output
    case outputDir = "output-dir"
    case pair
    case pairing
    case pairs
    case printUnverified = "print-unverified"
    case report
    case pairCmd = "pair-cmd"
    case paper
    case plan
    case position
    case profile
    case calibrationProtocol = "protocol"
    case quiet
    case readingsPerSet = "readings-per-set"
    case referenceOut = "reference-out"
    case rejects
    case requestTimeout = "request-timeout"
    case requestedAt = "requested-at"
    case run
    case scenario
    case scope
    case seed
    case sequence
    case setClock = "set-clock"
    case setInterval = "set-interval"
    case sets
    case since
    case skinTone = "skin-tone"
    case spot
    case state
    case stdio
    case stored
    case storeWait = "store-wait"
    case storedFrom = "stored-from"
    case strict
    case subject
    case subjectId = "subject-id"
    case subjectIdentifier = "subject-identifier"
    case subjects
    case text
    case threshold
    case timeout
    case to
    case tokenFile = "token-file"
    case tz
    case until
    case unit
    case verbose
    case verify
    case version
    case weight
    case window
    case wrist

    /// `--name`, as messages write it.
    var flag: String { "--" + rawValue }
}
