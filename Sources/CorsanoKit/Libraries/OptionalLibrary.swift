import CDBus
import CPostgres

/// A shared library corsano opens only when a command needs it (docs/design.md
/// "Optional libraries"; issue 22): libpq for the PostgreSQL store, libdbus-1 for BlueZ. The binary does
/// not link them, so every other command runs on a machine without them; a command that needs
/// one checks it with `require(for:)` before any connection or bus lookup and fails closed,
/// naming the Debian package to install.
public enum OptionalLibrary: Sendable, Equatable, CaseIterable {
    /// libpq.so.5 (Debian libpq5): the PostgreSQL state store.
    case libpq
    /// libdbus-1.so.3 (Debian libdbus-1-3): Bluetooth cuffs through BlueZ on the system bus.
    case libdbus

    /// The soname opened, e.g. `libpq.so.5`.
    public var soname: String {
        switch self {
        case .libpq: return String(cString: corsano_libpq_soname())
        case .libdbus: return String(cString: corsano_libdbus_soname())
        }
    }

    /// The Debian package that ships it, e.g. `libpq5`.
    public var debianPackage: String {
        switch self {
        case .libpq: return String(cString: corsano_libpq_package())
        case .libdbus: return String(cString: corsano_libdbus_package())
        }
    }

    /// What it gives, as messages name it.
    public var feature: String {
        switch self {
        case .libpq: return "PostgreSQL support"
        case .libdbus: return "Bluetooth (BlueZ over D-Bus) support"
        }
    }

    /// Opens the library (once per process) and looks up every function corsano declares for it.
    /// - Returns: nil when loaded, else why not (the loader's text: no such file, a function missing).
    public func load() -> String? {
        let loaded: Bool
        switch self {
        case .libpq: loaded = corsano_libpq_load() == 0
        case .libdbus: loaded = corsano_libdbus_load() == 0
        }
        if loaded { return nil }
        switch self {
        case .libpq: return String(cString: corsano_libpq_error())
        case .libdbus: return String(cString: corsano_libdbus_error())
        }
    }

    /// Loads the library or refuses the work on `subject`.
    /// - Parameter subject: what needed it, as the message starts (a store URI without its
    ///   password, a bus address).
    /// - Throws: `OptionalLibraryError` (exit 69) when it cannot be loaded.
    public func require(for subject: String) throws(OptionalLibraryError) {
        if let reason = load() { throw OptionalLibraryError(subject: subject, library: self, reason: reason) }
    }
}

/// A command needs a library that is not installed (or cannot be loaded): exit 69, "service
/// unavailable" (docs/design.md "Exit status"), naming the package that brings it.
public struct OptionalLibraryError: Error, Equatable, Sendable, DiagnosticError {
    /// What needed the library (never a password).
    public var subject: String
    public var library: OptionalLibrary
    /// The loader's text (`libpq.so.5: cannot open shared object file: …`), for debugging.
    public var reason: String

    /// `SUBJECT: PostgreSQL support needs libpq5 (apt-get install libpq5)`.
    public var message: String {
        "\(subject): \(library.feature) needs \(library.debianPackage) (apt-get install \(library.debianPackage))"
    }
}
