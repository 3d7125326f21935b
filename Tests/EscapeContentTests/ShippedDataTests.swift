// SPDX-License-Identifier: Apache-2.0
import EscapeContent
import Foundation
import Testing

/// Where the game finds its adventures, sound pack and web page: `../share/games/efb` from its binary, as
/// Debian has a game's data, or SwiftPM's resource folders beside it; without its own path (no `/proc`),
/// under the package's prefix.
@Suite struct ShippedDataTests {
    /// A fresh folder holding `paths` (folders, made with their parents) and an empty file `games/efb`.
    private func tree(_ paths: [String]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("efb-shipped-\(UUID().uuidString)")
        for path in paths + ["games"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(path),
                withIntermediateDirectories: true
            )
        }
        try Data().write(to: root.appendingPathComponent("games/efb"))
        // The temporary folder may itself be reached through a link; the answers name the real path.
        return URL(fileURLWithPath: root.path).resolvingSymlinksInPath().path
    }

    @Test func anInstalledBinaryFindsItsDataInShareGamesEfb() throws {
        let root = try tree(["share/games/efb/adventures", "share/games/efb/sounds", "share/games/efb/web"])
        #expect(
            ShippedData.folder(.adventures, forExecutable: "\(root)/games/efb") == "\(root)/share/games/efb/adventures"
        )
        #expect(ShippedData.folder(.sounds, forExecutable: "\(root)/games/efb") == "\(root)/share/games/efb/sounds")
        #expect(ShippedData.folder(.page, forExecutable: "\(root)/games/efb") == "\(root)/share/games/efb/web")
    }

    @Test func theWholeProgramInLibexecFindsTheDataInShareGamesEfb() throws {
        let root = try tree(["share/games/efb/adventures", "share/games/efb/web", "libexec/efb"])
        #expect(
            ShippedData.folder(.adventures, forExecutable: "\(root)/libexec/efb/efb-full")
                == "\(root)/share/games/efb/adventures"
        )
        #expect(
            ShippedData.folder(.page, forExecutable: "\(root)/libexec/efb/efb-full") == "\(root)/share/games/efb/web"
        )
        #expect(ShippedData.folder(.sounds, forExecutable: "\(root)/libexec/efb/efb-full") == nil)
    }

    @Test func aBuiltBinaryFindsSwiftPMsResourceFoldersBesideItself() throws {
        let root = try tree([
            "games/EscapeFromBlindness_EscapeContent.resources/Adventures",
            "games/EscapeFromBlindness_EscapeSound.resources/Sounds",
            "games/EscapeFromBlindness_EscapeWeb.resources/Page",
        ])
        #expect(
            ShippedData.folder(.adventures, forExecutable: "\(root)/games/efb")
                == "\(root)/games/EscapeFromBlindness_EscapeContent.resources/Adventures"
        )
        #expect(
            ShippedData.folder(.sounds, forExecutable: "\(root)/games/efb")
                == "\(root)/games/EscapeFromBlindness_EscapeSound.resources/Sounds"
        )
        #expect(
            ShippedData.folder(.page, forExecutable: "\(root)/games/efb")
                == "\(root)/games/EscapeFromBlindness_EscapeWeb.resources/Page"
        )
    }

    @Test func aLinkToTheBinaryFindsTheDataOfTheBinaryItPointsTo() throws {
        let root = try tree(["share/games/efb/adventures", "elsewhere"])
        try FileManager.default.createSymbolicLink(
            atPath: "\(root)/elsewhere/efb",
            withDestinationPath: "\(root)/games/efb"
        )
        #expect(
            ShippedData.folder(.adventures, forExecutable: "\(root)/elsewhere/efb")
                == "\(root)/share/games/efb/adventures"
        )
    }

    @Test func withoutDataThereIsNoFolder() throws {
        let root = try tree(["share/games/efb/sounds"])
        #expect(ShippedData.folder(.adventures, forExecutable: "\(root)/games/efb") == nil)
        #expect(ShippedData.folder(.sounds, forExecutable: "/nonexistent/games/efb") == nil)
        #expect(ShippedData.folder(.page, forExecutable: "\(root)/games/efb") == nil)
    }

    /// Before: the data was found only from the binary's path, so without /proc every command failed.
    @Test func withoutItsOwnPathTheGameLooksWhereThePackageInstallsItsData() {
        #expect(ShippedData.installedData == "/usr/share/games/efb")
        #expect(ShippedData.places(.adventures, forExecutable: nil) == ["/usr/share/games/efb/adventures"])
        #expect(ShippedData.places(.sounds, forExecutable: nil) == ["/usr/share/games/efb/sounds"])
        #expect(ShippedData.places(.page, forExecutable: nil) == ["/usr/share/games/efb/web"])
    }

    /// Before: "the shipped adventures are not at ../share/efb/adventures", one of the places searched.
    @Test func theMessageForMissingDataNamesEveryPlaceSearched() throws {
        let root = try tree(["share/games/efb/sounds"])
        let message = ShippedData.notFound(.adventures, forExecutable: "\(root)/games/efb")
        #expect(message.contains("\(root)/share/games/efb/adventures"), "\(message)")
        #expect(message.contains("\(ShippedData.parent(of: root))/share/games/efb/adventures"), "\(message)")
        #expect(
            message.contains("\(root)/games/EscapeFromBlindness_EscapeContent.resources/Adventures"),
            "\(message)"
        )
        let withoutProc = ShippedData.notFound(.page, forExecutable: nil)
        #expect(withoutProc.contains("/usr/share/games/efb/web"), "\(withoutProc)")
        #expect(withoutProc.contains("/proc/self/exe"), "\(withoutProc)")
    }

    @Test func theRunningTestsFindTheBuildsResources() throws {
        // The test bundle sits where SwiftPM puts efb, so it finds the same resource folders.
        let folder = try #require(ShippedData.folder(.adventures))
        #expect(FileManager.default.fileExists(atPath: "\(folder)/en.json"))
        #expect(FileManager.default.fileExists(atPath: "\(folder)/fr.json"))
        let sounds = try #require(ShippedData.folder(.sounds))
        #expect(FileManager.default.fileExists(atPath: "\(sounds)/cues"))
        let page = try #require(ShippedData.folder(.page))
        #expect(FileManager.default.fileExists(atPath: "\(page)/index.html"))
    }
}
