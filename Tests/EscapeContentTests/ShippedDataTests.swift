import EscapeContent
import Foundation
import Testing

/// Where the game finds its adventures, sound pack and web page: `../share/efb` from its binary, or SwiftPM's
/// resource folders beside it.
@Suite struct ShippedDataTests {
    /// A fresh folder holding `paths` (folders, made with their parents) and an empty file `bin/efb`.
    private func tree(_ paths: [String]) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("efb-shipped-\(UUID().uuidString)")
        for path in paths + ["bin"] {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(path),
                withIntermediateDirectories: true
            )
        }
        try Data().write(to: root.appendingPathComponent("bin/efb"))
        // The temporary folder may itself be reached through a link; the answers name the real path.
        return URL(fileURLWithPath: root.path).resolvingSymlinksInPath().path
    }

    @Test func anInstalledBinaryFindsItsDataInShareEfb() throws {
        let root = try tree(["share/efb/adventures", "share/efb/sounds", "share/efb/web"])
        #expect(ShippedData.folder(.adventures, forExecutable: "\(root)/bin/efb") == "\(root)/share/efb/adventures")
        #expect(ShippedData.folder(.sounds, forExecutable: "\(root)/bin/efb") == "\(root)/share/efb/sounds")
        #expect(ShippedData.folder(.page, forExecutable: "\(root)/bin/efb") == "\(root)/share/efb/web")
    }

    @Test func theWholeProgramInLibexecFindsTheDataInShareEfb() throws {
        let root = try tree(["share/efb/adventures", "share/efb/web", "libexec/efb"])
        #expect(
            ShippedData.folder(.adventures, forExecutable: "\(root)/libexec/efb/efb-full")
                == "\(root)/share/efb/adventures"
        )
        #expect(ShippedData.folder(.page, forExecutable: "\(root)/libexec/efb/efb-full") == "\(root)/share/efb/web")
        #expect(ShippedData.folder(.sounds, forExecutable: "\(root)/libexec/efb/efb-full") == nil)
    }

    @Test func aBuiltBinaryFindsSwiftPMsResourceFoldersBesideItself() throws {
        let root = try tree([
            "bin/EscapeFromBlindness_EscapeContent.resources/Adventures",
            "bin/EscapeFromBlindness_EscapeSound.resources/Sounds",
            "bin/EscapeFromBlindness_EscapeWeb.resources/Page",
        ])
        #expect(
            ShippedData.folder(.adventures, forExecutable: "\(root)/bin/efb")
                == "\(root)/bin/EscapeFromBlindness_EscapeContent.resources/Adventures"
        )
        #expect(
            ShippedData.folder(.sounds, forExecutable: "\(root)/bin/efb")
                == "\(root)/bin/EscapeFromBlindness_EscapeSound.resources/Sounds"
        )
        #expect(
            ShippedData.folder(.page, forExecutable: "\(root)/bin/efb")
                == "\(root)/bin/EscapeFromBlindness_EscapeWeb.resources/Page"
        )
    }

    @Test func aLinkToTheBinaryFindsTheDataOfTheBinaryItPointsTo() throws {
        let root = try tree(["share/efb/adventures", "elsewhere"])
        try FileManager.default.createSymbolicLink(
            atPath: "\(root)/elsewhere/efb",
            withDestinationPath: "\(root)/bin/efb"
        )
        #expect(
            ShippedData.folder(.adventures, forExecutable: "\(root)/elsewhere/efb") == "\(root)/share/efb/adventures"
        )
    }

    @Test func withoutDataThereIsNoFolder() throws {
        let root = try tree(["share/efb/sounds"])
        #expect(ShippedData.folder(.adventures, forExecutable: "\(root)/bin/efb") == nil)
        #expect(ShippedData.folder(.sounds, forExecutable: "/nonexistent/bin/efb") == nil)
        #expect(ShippedData.folder(.page, forExecutable: "\(root)/bin/efb") == nil)
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
