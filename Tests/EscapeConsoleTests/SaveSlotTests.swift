// SPDX-License-Identifier: Apache-2.0
import EscapeConsole
import EscapeContent
import EscapeCore
import EscapeRuntime
import EscapeSaves
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Named saves (`save NAME`, `restore NAME`) and the game kept before `replay`: real sessions, and real
/// files in a fresh folder standing for the save's.
@Suite struct SaveSlotTests {
    /// A fresh folder with the path a save file in it would have; the named saves go in `slots` there.
    private final class SaveFolder {
        let url: URL
        let save: String

        init() throws {
            url = try temporaryFolder("slots")
            save = url.appendingPathComponent("progress.json").path
        }

        deinit {
            try? FileManager.default.removeItem(at: url)
        }

        var slots: String { url.appendingPathComponent("slots").path }
        func slot(_ name: String) -> String { "\(slots)/\(name).snapshot" }
    }

    private static let nameUsage =
        "A save's name may hold the letters a to z, digits, - and _, at most 40 characters, such as save door-2."

    /// The permission bits of `path`, without following a link.
    private static func mode(_ path: String) -> mode_t {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode & 0o777 : 0
    }

    @Test func aNamedSaveBringsBackTheLevelItWasKeptOn() throws {
        let folder = try SaveFolder()
        var (driver, _) = Support.console(at: "cellar-door", savePlace: .file(folder.save))
        #expect(
            driver.enter("save Door").map(\.text) == [
                "Saved as door, in \(folder.slot("door")). Type restore door to bring it back."
            ]
        )
        #expect(Self.mode(folder.slots) == 0o700)
        #expect(Self.mode(folder.slot("door")) == 0o600)
        _ = driver.enter("a 4")
        #expect(driver.context.screen?.id != "level-cellar-door")
        let restored = driver.enter("restore DOOR").map(\.text)
        #expect(
            restored.first == "Restored door. It goes into your progress file the next time a door opens.",
            "\(restored)"
        )
        #expect(restored.contains("The First Door, 6 items:"), "\(restored)")
        #expect(driver.context.screen?.id == "level-cellar-door")
        // The game goes on from there.
        _ = driver.enter("a 4")
        #expect(driver.context.screen?.id != "level-cellar-door")
        #expect(driver.enter("load door").first?.text.hasPrefix("Restored door.") == true)
    }

    @Test func aNameThatIsNotOneSaysWhatANameMayBe() throws {
        let folder = try SaveFolder()
        var (driver, _) = Support.console(at: "cellar-door", savePlace: .file(folder.save))
        let long = String(repeating: "a", count: 41)
        for line in [
            "save ../up", "save two words", "save \(long)", "save café", "restore ../../etc/passwd", "load a/b",
        ] {
            #expect(driver.enter(line).map(\.text) == [Self.nameUsage], "\(line)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.slots))
        let longest = String(repeating: "z", count: 40)
        #expect(driver.enter("save \(longest)").first?.text.hasPrefix("Saved as \(longest),") == true)
    }

    @Test func aMissingDamagedOrOversizedSaveSaysSoAndTheGameGoesOnUntouched() throws {
        let folder = try SaveFolder()
        var (driver, _) = Support.console(at: "cellar-door", savePlace: .file(folder.save))
        #expect(
            driver.enter("restore nothing").map(\.text) == [
                "There is no save named nothing. Type restore to list your saves."
            ]
        )
        _ = driver.enter("save good")
        let blob = try String(contentsOfFile: folder.slot("good"), encoding: .utf8)
        _ = driver.enter("n")
        let focus = driver.context.focus

        try Data("not a game\n".utf8).write(to: URL(fileURLWithPath: folder.slot("junk")))
        #expect(
            driver.enter("restore junk").map(\.text) == [
                "The save junk is damaged: it holds no game. The game goes on as it was."
            ]
        )
        try Data(repeating: 0x41, count: SaveSlots.maximumSize + 1).write(to: URL(fileURLWithPath: folder.slot("big")))
        #expect(
            driver.enter("restore big").map(\.text) == [
                "The save big is larger than 1 MiB, so it is not a save of this game. The game goes on as it was."
            ]
        )
        // One character of the game changed: the engine's checksum refuses it.
        var altered = Array(blob.utf8)
        let middle = altered.count / 2
        altered[middle] = altered[middle] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        try Data(altered).write(to: URL(fileURLWithPath: folder.slot("altered")))
        let refused = driver.enter("restore altered").map(\.text)
        #expect(refused.count == 1, "\(refused)")
        #expect(refused.first?.hasPrefix("The game refused the save altered (") == true, "\(refused)")
        #expect(refused.first?.hasSuffix("). The game goes on as it was.") == true, "\(refused)")
        // A link planted in the folder is not followed.
        try FileManager.default.createSymbolicLink(
            atPath: folder.slot("link"),
            withDestinationPath: folder.slot("good")
        )
        let link = driver.enter("restore link").map(\.text)
        #expect(
            link == [
                "The save link cannot be restored: \(folder.slot("link")) is a link, not a plain file or folder, or someone else's, so it is left alone. The game goes on as it was."
            ]
        )
        #expect(driver.context.focus == focus)
        #expect(driver.context.screen?.id == "level-cellar-door")
        _ = driver.enter("a 4")
        #expect(driver.context.screen?.id != "level-cellar-door")
    }

    @Test func aSlotsFolderPlantedAsALinkIsNeverWrittenThrough() throws {
        let folder = try SaveFolder()
        let elsewhere = folder.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.slots, withDestinationPath: elsewhere.path)
        var (driver, _) = Support.console(at: "cellar-door", savePlace: .file(folder.save))
        #expect(
            driver.enter("save here").map(\.text) == [
                "here could not be saved: \(folder.slots) is a link, not a plain file or folder, or someone else's, so it is left alone. The game goes on."
            ]
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path).isEmpty)
    }

    @Test func restoreAloneListsTheSavesNewestFirst() throws {
        let folder = try SaveFolder()
        var (driver, _) = Support.console(at: "cellar-door", savePlace: .file(folder.save))
        let comesBack =
            "Your progress also comes back by itself when efb starts again; to play an earlier room, open the level menu with m."
        #expect(
            driver.enter("restore").map(\.text) == [
                "You have no saves yet. Type save and a name, such as save door, to keep one.", comesBack,
            ]
        )
        _ = driver.enter("save older")
        _ = driver.enter("save newer")
        let now = Date()
        try FileManager.default.setAttributes(
            [.modificationDate: now.addingTimeInterval(-60)],
            ofItemAtPath: folder.slot("older")
        )
        try FileManager.default.setAttributes([.modificationDate: now], ofItemAtPath: folder.slot("newer"))
        try Data("ignored".utf8).write(to: URL(fileURLWithPath: "\(folder.slots)/notes.txt"))
        #expect(
            driver.enter("restore").map(\.text) == [
                "Your saves, newest first: newer, older. Type restore and a name to bring one back.", comesBack,
            ]
        )
    }

    @Test func replayKeepsTheGameBeforeItAndRestoringItBringsBackTheLevelsReached() throws {
        let folder = try SaveFolder()
        var (driver, _) = Support.console(at: "stones-memory", savePlace: .file(folder.save))
        let menu = driver.enter("m").map(\.text)
        _ = driver.enter("esc")
        #expect(driver.context.screen?.id == "level-stones-memory")
        _ = driver.enter("replay")
        let replayed = driver.enter("yes").map(\.text)
        #expect(replayed.contains("A new game begins. Your earlier progress has been cleared."), "\(replayed)")
        #expect(
            replayed.last == "Your game before replay is kept: restore before-replay brings it back.",
            "\(replayed)"
        )
        #expect(FileManager.default.fileExists(atPath: folder.slot("before-replay")))
        #expect(driver.enter("m").map(\.text) != menu)
        _ = driver.enter("esc")

        let restored = driver.enter("restore before-replay").map(\.text)
        #expect(restored.first?.hasPrefix("Restored before-replay.") == true, "\(restored)")
        #expect(driver.context.screen?.id == "level-stones-memory")
        #expect(driver.enter("m").map(\.text) == menu)
    }

    @Test func aFinishedGameIsKeptBeforePlayAgainAndComesBackWhole() throws {
        let game = try SavedGame(at: nil)
        let result = try runEFB(
            ["play", "--clock", "virtual", "--locale", "en", "--save", game.path],
            input: "magic\nyes\nrestore before-replay\ns\nq\n"
        )
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let kept = try #require(
            lines.firstIndex(of: "Your game before replay is kept: restore before-replay brings it back."),
            "\(result.stdout)"
        )
        let cleared = try #require(lines.firstIndex(of: "A new game begins. Your earlier progress has been cleared."))
        #expect(cleared < kept)
        let restored = try #require(lines.firstIndex { $0.hasPrefix("Restored before-replay.") }, "\(result.stdout)")
        #expect(lines[restored...].contains { $0.contains("25 of 25 levels solved.") }, "\(result.stdout)")
        let slot = URL(fileURLWithPath: game.path).deletingLastPathComponent().appendingPathComponent(
            "slots/before-replay.snapshot"
        )
        #expect(FileManager.default.fileExists(atPath: slot.path))
    }

    @Test func memorySaveKeepsNamedSavesUntilTheGameEnds() {
        var (driver, _) = Support.console(at: "cellar-door", savePlace: .nowhere)
        #expect(
            driver.enter("save").map(\.text) == [
                "This game keeps no save (it was started with --memory-save): progress ends with it. To keep this moment under a name, type save and a name, such as save door; restore door brings it back."
            ]
        )
        #expect(
            driver.enter("save first").map(\.text) == [
                "Saved as first. Type restore first to bring it back. This game keeps no files (--memory-save): its saves last until it ends."
            ]
        )
        _ = driver.enter("save second")
        #expect(
            driver.enter("restore").map(\.text).first
                == "Your saves, newest first: second, first. Type restore and a name to bring one back."
        )
        _ = driver.enter("a 4")
        #expect(driver.enter("restore first").map(\.text).first == "Restored first.")
        #expect(driver.context.screen?.id == "level-cellar-door")
        _ = driver.enter("replay")
        #expect(
            driver.enter("y").map(\.text).last
                == "Your game before replay is kept: restore before-replay brings it back."
        )
        #expect(driver.enter("restore before-replay").map(\.text).first == "Restored before-replay.")
        #expect(driver.context.screen?.id == "level-cellar-door")
    }

    @Test func aSharedGameSaysNamedSavesAreNotAvailableAndWhy() {
        var (driver, _) = Support.console(at: "cellar-door", savePlace: .server)
        let shared =
            "Named saves are not available in a shared game: everyone attached to efb serve plays the same game, and bringing back an old moment would change it for all of them."
        #expect(driver.enter("save mine").map(\.text) == [shared])
        #expect(driver.enter("restore mine").map(\.text) == [shared])
        #expect(driver.enter("restore").map(\.text) == [shared])
        #expect(
            driver.enter("save").map(\.text) == [
                "This game is shared: the efb serve that runs it saves the progress each time a door opens."
            ]
        )
        _ = driver.enter("replay")
        #expect(!driver.enter("yes").map(\.text).contains { $0.contains("before-replay") })
    }

    @Test func frenchWordsSaveAndRestoreInFrench() throws {
        let folder = try SaveFolder()
        let french = try AdventureLoader.bundled(locale: "fr")
        let session = SessionHost(
            adventure: french,
            options: EngineOptions(hintInterval: 30_000, seed: 1),
            store: InMemorySaveStore(SaveData(adventureID: french.id, completed: [], current: "cellar-door")),
            clock: VirtualClock()
        )
        var driver = SteppedConsole(host: session, savePlace: .file(folder.save))
        _ = driver.start()
        _ = driver.enter("échap")
        _ = driver.enter("magique")
        #expect(driver.context.screen?.id == "level-cellar-door")
        #expect(
            driver.enter("sauvegarder Porte").map(\.text) == [
                "Sauvegardé sous le nom porte, dans \(folder.slot("porte")). Tape restaurer porte pour le ramener."
            ]
        )
        #expect(
            driver.enter("enregistrer porte!").map(\.text) == [
                "Le nom d'une sauvegarde peut contenir les lettres a à z sans accent, des chiffres, - et _, 40 caractères au plus, par exemple sauvegarder porte-2."
            ]
        )
        _ = driver.enter("a 4")
        #expect(driver.context.screen?.id != "level-cellar-door")
        #expect(
            driver.enter("charger porte").map(\.text).first
                == "Sauvegarde porte restaurée. Elle entre dans ton fichier de progression à la prochaine porte ouverte."
        )
        #expect(
            driver.enter("restaurer").map(\.text) == [
                "Tes sauvegardes, de la plus récente à la plus ancienne\u{A0}: porte. Tape restaurer et un nom pour en ramener une.",
                "Ta progression revient aussi toute seule quand tu relances efb\u{202F}; pour rejouer une salle, ouvre le menu des niveaux avec m.",
            ]
        )
        #expect(
            driver.enter("restaurer rien").map(\.text) == [
                "Aucune sauvegarde ne s'appelle rien. Tape restaurer pour lister tes sauvegardes."
            ]
        )
        _ = driver.enter("rejouer")
        #expect(
            driver.enter("oui").map(\.text).last
                == "Ta partie d'avant est gardée\u{A0}: restaurer before-replay la ramène."
        )
    }

    @Test func efbPlayKeepsNamedSavesBesideItsSaveFile() throws {
        let folder = try SaveFolder()
        let result = try runEFB(
            ["play", "--seed", "1", "--clock", "virtual", "--locale", "en", "--save", folder.save],
            input: "save start\nrestore\nrestore start\nq\n"
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("Saved as start, in \(folder.slot("start")). Type restore start to bring it back."),
            "\(result.stdout)"
        )
        #expect(result.stdout.contains("Your saves, newest first: start."), "\(result.stdout)")
        #expect(result.stdout.contains("Restored start."), "\(result.stdout)")
        #expect(FileManager.default.fileExists(atPath: folder.slot("start")))
    }
}
