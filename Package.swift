// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "corsano",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "corsano", targets: ["corsano"]),
        .library(name: "CorsanoKit", targets: ["CorsanoKit"]),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .systemLibrary(name: "CReadline", path: "Sources/CReadline"),
        // libpq (PostgreSQL store) and libdbus-1 (BlueZ) are optional: opened with dlopen when a
        // command first needs them, declared by corsano itself (no -dev package, nothing linked;
        // issue 22, docs/design.md "Optional libraries").
        .target(name: "COptionalLibrary"),
        .target(name: "CPostgres", dependencies: ["COptionalLibrary"]),
        .target(name: "CDBus", dependencies: ["COptionalLibrary"]),
        // zlib, linked dynamically (libz.so.1): inflating an Apple Health export.zip in place.
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        .target(
            name: "CorsanoKit",
            dependencies: ["CSQLite", "CDBus", "CPostgres", "CZlib"]
        ),
        // The command layer (issue 23): argument parsing, the commands, the REPL; the executable's
        // main.swift only calls it.
        .target(
            name: "CorsanoCLI",
            dependencies: ["CorsanoKit", "CReadline"]
        ),
        .executableTarget(
            name: "corsano",
            dependencies: ["CorsanoCLI"]
        ),
        // What both test targets share: waits on a condition with a deadline, process probes,
        // the throwaway PostgreSQL server the tests start (issue 16).
        .target(
            name: "TestSupport",
            dependencies: ["CPostgres"],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "CorsanoKitTests",
            dependencies: ["CorsanoKit", "TestSupport"]
        ),
        // The command layer called in process (the table, help, text layout, completion).
        .testTarget(
            name: "CorsanoCLITests",
            dependencies: ["CorsanoKit", "CorsanoCLI", "TestSupport"]
        ),
        // The built binary run as a user runs it (and a few in-process checks beside those runs).
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["CorsanoKit", "CorsanoCLI", "corsano", "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
