/// The stable exit statuses scripts depend on (docs/design.md "Exit status").
enum ExitStatus: Int32 {
    case success = 0
    /// The flow ran and ended failedAfterRetries; validate: a chosen criterion fails.
    case failedAfterRetries = 1
    /// validate: the criteria cannot be assessed (fewer subjects or pairs than required).
    case notAssessable = 2
    /// cuffError; replay-filter --first with nothing kept.
    case cuffError = 3
    case braceletDisconnected = 4
    case usage = 64
    /// Some record was rejected.
    case dataError = 65
    case noInput = 66
    /// Bracelet unavailable at start (connect, model, firmware).
    case unavailable = 69
    case ioError = 74
    /// Not yet: e.g. signing a run that has not ended (sign it when it ends).
    case notYet = 75
    /// Not permitted: BlueZ's D-Bus policy refuses the user.
    case notPermitted = 77
    /// SIGHUP: the terminal closed (cancelledByUser).
    case hangup = 129
    case interrupted = 130
    /// stdout closed by the reader.
    case brokenPipe = 141
    case terminated = 143
}
