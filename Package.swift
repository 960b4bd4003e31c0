// swift-tools-version:6.0
import PackageDescription

// Modules depend downwards only, and each declares every module it imports (docs/architecture.md
// has the map):
// dynamic-home → HomeApp → {HomeLayouts → ScreenKit, MicroHTTP → CMicroHTTPD, FeatureToggles,
//   ReportDatabase → {CPostgres, Reporting}, CSHA256} → Basics
/// This file's folder: the linker reads the symbol order from there whatever folder it runs in.
let packageRoot = #filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")

let package = Package(
    name: "DynamicHomeScreen",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "dynamic-home", targets: ["dynamic-home"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // zlib and brotli from Debian (zlib1g-dev, libbrotli-dev).
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CDeflate", providers: [.apt(["libdeflate-dev"])]),
        .systemLibrary(name: "CBrotli", pkgConfig: "libbrotlienc", providers: [.apt(["libbrotli-dev"])]),
        // libpq, PostgreSQL's C client (libpq-dev): the shared report database, loaded when one
        // is connected to.
        .target(name: "CPostgres"),
        // What several modules need: services, worker threads and the work pool, signals, files
        // (stamps, reloading, bounded and EINTR-safe reads and writes), JSON values, the stable
        // hash, token buckets, the safe log handler.
        .target(name: "Basics", dependencies: [
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "MicroHTTP", dependencies: [
            "CMicroHTTPD", "CZlib", "CBrotli", "Basics",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // SHA-256 and HMAC in C with the x86 SHA extensions: every home page signs a CSRF token.
        .target(name: "CSHA256"),
        .target(name: "ScreenKit"),
        .target(name: "HomeLayouts", dependencies: ["ScreenKit"]),
        .target(name: "FeatureToggles", dependencies: ["Basics"]),
        .target(name: "Reporting", dependencies: [
            "Basics", "CZlib", "CDeflate",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The report log shipped into PostgreSQL, and read back for the report pages.
        .target(name: "ReportDatabase", dependencies: [
            "CPostgres", "Basics", "Reporting",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "HomeApp", dependencies: [
            "Basics", "MicroHTTP", "ScreenKit", "HomeLayouts", "FeatureToggles", "Reporting", "ReportDatabase", "CSHA256",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // A release build lays the functions the server runs side by side, in the order of
        // Linker/symbol-order.txt (scripts/symbol-order writes it): fewer pages of code resident.
        .executableTarget(name: "dynamic-home", dependencies: [
            "HomeApp", "MicroHTTP", "Basics", "Reporting",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ], linkerSettings: [
            .unsafeFlags(["-use-ld=lld", "-Xlinker", "--symbol-ordering-file=\(packageRoot)/Linker/symbol-order.txt",
                          "-Xlinker", "--no-warn-symbol-ordering"], .when(platforms: [.linux], configuration: .release)),
        ]),
        .executableTarget(name: "bench-server", dependencies: ["MicroHTTP", "Basics"], path: "Benchmarks/BenchServer"),
        .executableTarget(name: "render-bench", dependencies: ["ScreenKit", "HomeLayouts"], path: "Benchmarks/RenderBench"),
        .executableTarget(name: "report-bench", dependencies: ["Reporting"], path: "Benchmarks/ReportBench"),
        .executableTarget(name: "ship-bench", dependencies: [
            "ReportDatabase", "Reporting", .product(name: "Logging", package: "swift-log"),
        ], path: "Benchmarks/ShipBench"),
        .executableTarget(name: "home-bench", dependencies: ["HomeApp", "MicroHTTP"], path: "Benchmarks/HomeBench"),
        .executableTarget(name: "play-bench", dependencies: ["HomeApp", "Reporting"], path: "Benchmarks/PlayBench"),

        .target(name: "TestSupport", dependencies: ["MicroHTTP"], path: "Tests/TestSupport"),
        .testTarget(name: "MicroHTTPTests", dependencies: ["MicroHTTP", "Basics", "TestSupport", "CMicroHTTPD", "CZlib", "CBrotli"]),
        .testTarget(name: "ScreenKitTests", dependencies: ["ScreenKit", "TestSupport"]),
        .testTarget(name: "HomeLayoutsTests", dependencies: ["HomeLayouts", "ScreenKit", "TestSupport"]),
        .testTarget(name: "FeatureTogglesTests", dependencies: ["FeatureToggles", "Basics", "TestSupport"]),
        .testTarget(name: "BasicsTests", dependencies: ["Basics", "TestSupport", .product(name: "Logging", package: "swift-log")]),
        .target(name: "ReportFixtures", dependencies: ["Reporting", "TestSupport", .product(name: "Logging", package: "swift-log")],
                path: "Tests/ReportFixtures"),
        // Fixtures/: JSON read at run time by path (gbstats.json comes from scripts/gbstats-fixtures.py).
        .testTarget(name: "ReportingTests", dependencies: ["Reporting", "Basics", "TestSupport", "ReportFixtures", "report-harness",
                                                          .product(name: "Logging", package: "swift-log")],
                    exclude: ["Fixtures"]),
        // Written to and killed by the report store's crash tests.
        .executableTarget(name: "report-harness", dependencies: ["Reporting"], path: "Tests/ReportHarness"),
        .testTarget(name: "ReportDatabaseTests", dependencies: ["ReportDatabase", "Reporting", "TestSupport", "ReportFixtures",
                                                                .product(name: "Logging", package: "swift-log")]),
        .target(name: "HomeAppTestSupport", dependencies: [
            "HomeApp", "HomeLayouts", "Reporting", "MicroHTTP", "TestSupport",
            .product(name: "Logging", package: "swift-log"),
        ], path: "Tests/HomeAppTestSupport"),
        .testTarget(name: "HomeAppTests", dependencies: [
            "HomeApp", "Basics", "HomeLayouts", "FeatureToggles", "Reporting", "MicroHTTP", "TestSupport", "HomeAppTestSupport",
            "ReportDatabase", "CSHA256", .product(name: "Crypto", package: "swift-crypto"), .product(name: "Logging", package: "swift-log"),
        ]),
        // A third layout added through the factory alone, served by the unchanged container.
        .testTarget(name: "ThirdLayoutTests", dependencies: [
            "HomeApp", "HomeLayouts", "ScreenKit", "MicroHTTP", "TestSupport", "HomeAppTestSupport",
        ]),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
