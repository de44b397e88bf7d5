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
        .target(
            name: "CorsanoKit",
            dependencies: ["CSQLite"]
        ),
        .executableTarget(
            name: "corsano",
            dependencies: ["CorsanoKit", "CReadline"]
        ),
        .testTarget(
            name: "CorsanoKitTests",
            dependencies: ["CorsanoKit"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["CorsanoKit", "corsano"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
