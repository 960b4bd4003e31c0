// swift-tools-version:6.0
// The peer scripts/bench measures our home page against: the same grid page from Hummingbird 2,
// rendered per request with swift-mustache templates. Its own package, so the project's build
// and CI never resolve or build Hummingbird.
import PackageDescription

let package = Package(
    name: "HummingbirdPeer",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "hummingbird-peer", targets: ["HummingbirdPeer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        // Both already in Hummingbird's graph: named here for the event loop group behind
        // --threads and for the header names.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.0.0"),
    ],
    targets: [
        .executableTarget(
            name: "HummingbirdPeer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            resources: [.copy("Templates")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
