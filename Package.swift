// swift-tools-version:6.1
// SPDX-License-Identifier: Apache-2.0
import PackageDescription

/// Settings every target of ours shares, one line each with the reason.
let strictSettings: [SwiftSetting] = [
    // SE-0335: `any` spelled out for existential types.
    .enableUpcomingFeature("ExistentialAny"),
    // SE-0409: imports say what they re-export.
    .enableUpcomingFeature("InternalImportsByDefault"),
    // SE-0444: members come from the modules a file imports, not from any module in the target.
    .enableUpcomingFeature("MemberImportVisibility"),
]

/// The settings of a target with resources.
///
/// SwiftPM gives such a target an accessor (`Bundle.module`, unused: the data is found by ShippedData) that
/// imports all of Foundation; the optimizer drops the accessor, but its autolink of Foundation stayed, and
/// with it the linker took part of Foundation for a symbol FoundationEssentials also has, then the rest of
/// Foundation and ICU with its 34 MB of data: efb-full was 70.9 MB, 27.7 MB without. An unsafe flag: a
/// package may depend on this one by path or branch, not by version.
let resourceTargetSettings: [SwiftSetting] =
    strictSettings + [
        .unsafeFlags(
            ["-Xfrontend", "-disable-autolink-library", "-Xfrontend", "Foundation"],
            // In a debug build the accessor stays, and needs Foundation.
            .when(configuration: .release)
        )
    ]

let package = Package(
    name: "EscapeFromBlindness",
    products: [
        // `efb`: the pipe, started in milliseconds; every other command line runs `efb-full`, the whole program.
        .executable(name: "efb", targets: ["efb"]),
        .executable(name: "efb-full", targets: ["efb-full"]),
        // The game for programs that embed it: adventures, the typed session, saves, the clock (docs/EMBEDDING.md).
        // The one library: front ends, the event loop, listeners and signals are `package`, not promises.
        .library(name: "EscapeFromBlindness", targets: ["EscapeFromBlindness"]),
    ],
    traits: [
        .trait(
            name: "BrlAPI",
            description: "Play on Braille displays through BRLTTY's BrlAPI (needs Debian's libbrlapi-dev)."
        ),
        .trait(
            name: "Louis",
            description: "Contracted Braille through liblouis (needs Debian's liblouis-dev)."
        ),
        .trait(
            name: "Speech",
            description: "Speak with --speech through Speech Dispatcher's libspeechd (needs Debian's libspeechd-dev)."
        ),
        .trait(
            name: "Web",
            description: "Play in a web browser with efb web (builds Hummingbird and hummingbird-websocket)."
        ),
        .default(enabledTraits: ["BrlAPI", "Louis", "Speech", "Web"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // Already in Hummingbird's graph; named for the types the web front end uses directly.
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // Already in Hummingbird's graph; the HTTP parts the web server's connection limit watches.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
        // `swift package generate-documentation`: the library's DocC catalog (scripts/test builds it).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The pure game: content model, flow, level kinds. No I/O, no clock, no global randomness.
        .target(name: "EscapeCore", swiftSettings: strictSettings),
        // A strict JSON reader, a sorted-keys writer, and Codable over their values. No Foundation.
        .target(name: "EscapeJSON", swiftSettings: strictSettings),
        // NDJSON framing and the wire form of commands and events.
        .target(name: "EscapeProtocol", dependencies: ["EscapeCore", "EscapeJSON"], swiftSettings: strictSettings),
        // Adventure files: the bundled ones, loading and validation with precise error paths; gestures by
        // their protocol names.
        .target(
            name: "EscapeContent",
            dependencies: ["EscapeCore", "EscapeJSON", "EscapeProtocol"],
            resources: [.copy("Adventures")],
            swiftSettings: resourceTargetSettings
        ),
        // Progress files: versioned, written atomically; an in-memory store for tests and bots.
        .target(name: "EscapeSaves", dependencies: ["EscapeCore", "EscapeJSON"], swiftSettings: strictSettings),
        // The seam every front end uses: engine + clock + saves, commands in, stamped events out.
        .target(
            name: "EscapeRuntime",
            dependencies: ["EscapeCore", "EscapeJSON", "EscapeProtocol", "EscapeSaves", "EscapeContent"],
            swiftSettings: strictSettings
        ),
        // The embeddable game: re-exports what a program that plays in process needs, and no front end.
        .target(
            name: "EscapeFromBlindness",
            dependencies: ["EscapeCore", "EscapeProtocol", "EscapeContent", "EscapeSaves", "EscapeRuntime"],
            swiftSettings: strictSettings
        ),
        // BrlAPI, the C library BRLTTY's clients use; it ships no pkg-config file, so a module map and a shim.
        .systemLibrary(name: "CBrlAPI", path: "Sources/CBrlAPI"),
        // liblouis, the Braille translator (contracted Braille); like BrlAPI, a module map and a shim.
        .systemLibrary(name: "CLouis", path: "Sources/CLouis"),
        // The Braille front end: the view (rendering, panning, messages, editing), the key map, and the
        // one type that calls BrlAPI, built only with the BrlAPI trait; the one that calls liblouis, only
        // with the Louis trait.
        .target(
            name: "EscapeBraille",
            dependencies: [
                "EscapeCore", "EscapeProtocol", "EscapeRuntime",
                .target(name: "CBrlAPI", condition: .when(traits: ["BrlAPI"])),
                .target(name: "CLouis", condition: .when(traits: ["Louis"])),
            ],
            swiftSettings: strictSettings
        ),
        // libedit, the BSD-licensed line editor (Debian's libedit-dev), through its readline interface.
        .systemLibrary(name: "CEdit", path: "Sources/CEdit"),
        // libspeechd, Speech Dispatcher's client library (Debian's libspeechd-dev): one connection, SSIP priorities.
        .systemLibrary(name: "CSpeechd", path: "Sources/CSpeechd"),
        // The console front end: typed commands in, plain lines for any screen reader out, optional speech,
        // line editing and history at a terminal.
        .target(
            name: "EscapeConsole",
            dependencies: [
                "EscapeCore", "EscapeProtocol", "EscapeRuntime", "CEdit",
                .target(name: "CSpeechd", condition: .when(traits: ["Speech"])),
            ],
            swiftSettings: strictSettings
        ),
        // Sound for the console and Braille front ends: our own pack (made by scripts/make-sounds), played
        // through pw-play, paplay or aplay in child processes the event loop never waits for.
        .target(
            name: "EscapeSound",
            dependencies: ["EscapeCore", "EscapeProtocol", "EscapeRuntime", "EscapeContent"],
            resources: [.copy("Sounds")],
            swiftSettings: resourceTargetSettings
        ),
        // The browser front end (`efb web`): a Hummingbird server on its own threads, the page as resources, and
        // a front end that carries the page's commands to the one event loop and its events back. Only with the
        // Web trait: without it the module is empty and Hummingbird is not built.
        .target(
            name: "EscapeWeb",
            dependencies: [
                "EscapeCore", "EscapeProtocol", "EscapeRuntime", "EscapeSound", "EscapeContent",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Web"])),
                // The server's child channel, wrapped to hold connections within the descriptor limit.
                .product(name: "HummingbirdCore", package: "hummingbird", condition: .when(traits: ["Web"])),
                .product(
                    name: "HummingbirdWebSocket",
                    package: "hummingbird-websocket",
                    condition: .when(traits: ["Web"])
                ),
                .product(name: "HTTPTypes", package: "swift-http-types", condition: .when(traits: ["Web"])),
                .product(name: "Logging", package: "swift-log", condition: .when(traits: ["Web"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Web"])),
                .product(name: "NIOWebSocket", package: "swift-nio", condition: .when(traits: ["Web"])),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras", condition: .when(traits: ["Web"])),
            ],
            resources: [.copy("Page")],
            swiftSettings: resourceTargetSettings
        ),
        // The program's arguments handed to the Swift runtime as the C library gives them, so that
        // CommandLine.arguments does not depend on /proc (the static runtime reads /proc/self/cmdline).
        .target(name: "CArguments"),
        // What `efb` and `efb-full` share: the game settings, making a game, `efb pipe`'s own command-line
        // reader and the pipe it starts, the crash line. No Foundation, no ArgumentParser.
        .target(
            name: "EscapeLaunch",
            dependencies: [
                "CArguments", "EscapeContent", "EscapeCore", "EscapeJSON", "EscapeProtocol", "EscapeRuntime",
                "EscapeSaves",
            ],
            swiftSettings: strictSettings
        ),
        // `efb`: starts the pipe itself and hands every other command line to `efb-full`.
        .executableTarget(name: "efb", dependencies: ["EscapeLaunch"], swiftSettings: strictSettings),
        // `efb-full`: every subcommand, through ArgumentParser, and every front end.
        .executableTarget(
            name: "efb-full",
            dependencies: [
                "EscapeCore",
                "EscapeJSON",
                "EscapeLaunch",
                "EscapeProtocol",
                "EscapeRuntime",
                "EscapeConsole",
                "EscapeContent",
                "EscapeSaves",
                "EscapeBraille",
                "EscapeSound",
                "EscapeWeb",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        // The fuzz target: libFuzzer's entry point under scripts/fuzz, a corpus replayer otherwise.
        .executableTarget(
            name: "efb-fuzz",
            dependencies: [
                "EscapeCore", "EscapeJSON", "EscapeProtocol", "EscapeContent", "EscapeSaves", "EscapeRuntime",
            ],
            swiftSettings: strictSettings
        ),
        // The C-boundary fuzz targets (libedit, liblouis, BrlAPI keys and frames, speech-dispatcher strings)
        // and the driver they share: libFuzzer's entry point under scripts/fuzz, a corpus replayer otherwise.
        .target(name: "EscapeFuzzDriver", swiftSettings: strictSettings),
        .executableTarget(
            name: "efb-fuzz-edit",
            dependencies: ["CEdit", "EscapeConsole", "EscapeFuzzDriver"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "efb-fuzz-louis",
            dependencies: ["EscapeBraille", "EscapeFuzzDriver"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "efb-fuzz-braille",
            dependencies: [
                "EscapeBraille", "EscapeContent", "EscapeCore", "EscapeFuzzDriver", "EscapeProtocol", "EscapeRuntime",
                "EscapeSaves",
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "efb-fuzz-speech",
            dependencies: ["EscapeConsole", "EscapeFuzzDriver"],
            swiftSettings: strictSettings
        ),
        // Helpers every test target shares: the built efb, running it, draining pipes, waiting for conditions.
        .target(name: "EscapeTestSupport", path: "Tests/Support", swiftSettings: strictSettings),
        .testTarget(
            name: "EscapeCoreTests",
            dependencies: ["EscapeCore", "EscapeContent"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EscapeContentTests",
            dependencies: ["EscapeContent", "EscapeCore"],
            swiftSettings: strictSettings
        ),
        .testTarget(name: "EscapeJSONTests", dependencies: ["EscapeJSON"], swiftSettings: strictSettings),
        .testTarget(name: "EscapeProtocolTests", dependencies: ["EscapeProtocol"], swiftSettings: strictSettings),
        .testTarget(
            name: "EscapeSavesTests",
            dependencies: ["EscapeSaves", "EscapeCore", "EscapeTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EscapeBrailleTests",
            dependencies: [
                "EscapeBraille", "EscapeCore", "EscapeProtocol", "EscapeRuntime", "EscapeContent", "EscapeSaves", "efb",
                "efb-full",
                "EscapeTestSupport", .target(name: "CBrlAPI", condition: .when(traits: ["BrlAPI"])),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EscapeRuntimeTests",
            dependencies: [
                "EscapeCore", "EscapeJSON", "EscapeRuntime", "EscapeContent", "EscapeProtocol", "EscapeSaves", "efb",
                "efb-full",
                "EscapeTestSupport",
            ],
            swiftSettings: strictSettings
        ),
        // The conformance suite: one test per rule of Protocol/README.md, run against the built `efb pipe`.
        .testTarget(
            name: "ConformanceTests",
            dependencies: [
                "EscapeJSON", "EscapeLaunch", "EscapeRuntime", "EscapeTestSupport", "efb", "efb-full",
            ],
            exclude: ["README.md"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EscapeConsoleTests",
            dependencies: [
                "EscapeConsole", "EscapeCore", "EscapeProtocol", "EscapeRuntime", "EscapeContent", "EscapeSaves", "efb",
                "efb-full",
                "EscapeTestSupport", "CEdit",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EscapeSoundTests",
            dependencies: [
                "EscapeSound", "EscapeCore", "EscapeProtocol", "EscapeRuntime", "EscapeContent", "EscapeConsole",
                "EscapeBraille", "EscapeSaves", "efb", "efb-full", "EscapeTestSupport",
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EscapeWebTests",
            dependencies: [
                "EscapeWeb", "EscapeCore", "EscapeProtocol", "EscapeRuntime", "EscapeContent", "EscapeSaves",
                "EscapeTestSupport", "efb", "efb-full",
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Web"])),
                .product(name: "HummingbirdTesting", package: "hummingbird", condition: .when(traits: ["Web"])),
                .product(
                    name: "HummingbirdWSClient",
                    package: "hummingbird-websocket",
                    condition: .when(traits: ["Web"])
                ),
                .product(
                    name: "HummingbirdWSTesting",
                    package: "hummingbird-websocket",
                    condition: .when(traits: ["Web"])
                ),
                .product(
                    name: "HummingbirdWebSocket",
                    package: "hummingbird-websocket",
                    condition: .when(traits: ["Web"])
                ),
            ],
            swiftSettings: strictSettings
        ),
    ]
)
