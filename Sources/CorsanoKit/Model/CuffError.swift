/// Why a calibration ended on the cuff side, as the SDK's `CuffError`.
///
/// Source: seeds/bp-initialization.txt ("Result handling", "Replayed and stale readings").
public enum CuffError: Error, Equatable, Sendable {
    /// The cuff source returned no reading (end of input, timeout, failed command).
    case noReading
    /// The cuff is not paired or dropped its link.
    case cuffDisconnected
    /// The reading's `measuredAt` is further from now than maxReadingAge; age in seconds,
    /// negative when dated in the future.
    case staleReading(age: Double)
    /// Any other cuff failure, with its text.
    case unknown(String)
}
