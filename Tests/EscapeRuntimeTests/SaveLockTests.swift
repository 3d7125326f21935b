// SPDX-License-Identifier: Apache-2.0
import EscapeJSON
import EscapeProtocol
import EscapeSaves
import EscapeTestSupport
import Foundation
import Testing

/// Two games on one save file: the second never writes over the first.
@Suite struct SaveLockTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("efb-lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aSecondStoreOnTheSameFileIsRefusedUntilTheFirstGoes() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("saves/progress.json").path
        var first: FileSaveStore? = FileSaveStore(path: path)
        try first?.acquire()
        try first?.acquire()  // again: harmless
        let second = FileSaveStore(path: path)
        #expect(throws: SaveError.locked(path: path)) { try second.acquire() }
        first = nil
        try second.acquire()
        // The folder was made for the lock, user-only.
        let attributes = try FileManager.default.attributesOfItem(
            atPath: directory.appendingPathComponent("saves").path
        )
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
    }

    /// The console and the Braille front end stop with a plain message, or run read-only when asked;
    /// the pipe always runs read-only and says so with `save_locked` (errors never end the pipe).
    @Test func aSecondGameStopsOrRunsReadOnly() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let save = directory.appendingPathComponent("progress.json").path

        // The first game stays open on its standard input.
        let first = try RunningEFB(["pipe", "--seed", "1", "--clock", "virtual", "--save", save])
        defer { first.finish() }
        // Once its hello is out it holds the lock.
        try first.waitForOutput(containing: "\n")

        let refused = try runEFB(["play", "--clock", "virtual", "--save", save], input: [])
        #expect(refused.status == 75)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.contains("another game is already playing with the save"))

        for flags in [[], ["--read-only-save"]] {
            let readOnly = try runEFB(
                ["pipe", "--clock", "virtual", "--save", save] + flags,
                input: Array(#"{"type":"escape","id":1}"#.utf8) + [10]
            )
            try expectReadOnly(readOnly)
        }
    }

    private func expectReadOnly(_ readOnly: EFBResult<[UInt8]>) throws {
        #expect(readOnly.status == 0)
        let events = try Support.events(readOnly.stdout)
        let error = events.first { $0["type"] == .string("error") }
        #expect(error?["code"] == .string("save_locked"))
        #expect(events.last?["type"] == .string("bye"))
        let validation = try Support.validate("events", readOnly.stdout)
        #expect(validation.ok, "\(validation.report)")
    }

    @Test func aDamagedSaveAnotherGameHoldsIsLeftWhereItIs() throws {
        let directory = try folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let save = directory.appendingPathComponent("progress.json").path

        // The first game holds the save once its hello is out; then its file gets damaged.
        let first = try RunningEFB(["pipe", "--seed", "1", "--clock", "virtual", "--save", save])
        defer { first.finish() }
        try first.waitForOutput(containing: "\n")
        let damaged = Data([0x7B, 0xFF, 0x00, 0x13, 0x37])
        try damaged.write(to: URL(fileURLWithPath: save))

        let second = try runEFB(
            ["pipe", "--clock", "virtual", "--save", save, "--read-only-save"],
            input: Array(#"{"type":"quit","id":1}"#.utf8) + [10]
        )
        #expect(second.status == 0)
        let errors = try Support.events(second.stdout).filter { $0["type"] == .string("error") }
        #expect(errors.map { $0["code"] } == [.string("save_locked"), .string("save_unreadable")])
        guard case .string(let message) = errors.last?["message"] else {
            Issue.record("no save_unreadable message in \(errors)")
            return
        }
        #expect(message.contains("left untouched because another game holds it"), "\(message)")
        // The first game's file is where it was, as it was: nothing renamed it.
        #expect(try Data(contentsOf: URL(fileURLWithPath: save)) == damaged)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!names.contains { $0.contains("unreadable") }, "\(names)")
        let validation = try Support.validate("events", second.stdout)
        #expect(validation.ok, "\(validation.report)")
    }
}
