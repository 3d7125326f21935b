// swift-tools-version:6.1
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

// Plays the first chapter of the shipped English adventure in process, with a scripted player, through
// the EscapeFromBlindness library. See docs/EMBEDDING.md.
let package = Package(
    name: "FirstChapter",
    dependencies: [
        // The game's repository, three folders up (named, as a folder may be called anything); a program
        // of your own would name its URL and a version.
        // No trait: the library needs none, so neither BrlAPI, liblouis nor Hummingbird is built.
        .package(name: "EscapeFromBlindness", path: "../../..", traits: [])
    ],
    targets: [
        .executableTarget(
            name: "FirstChapter",
            dependencies: [.product(name: "EscapeFromBlindness", package: "EscapeFromBlindness")],
            swiftSettings: [
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("InternalImportsByDefault"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        )
    ]
)
