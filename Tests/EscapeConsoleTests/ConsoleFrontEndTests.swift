// SPDX-License-Identifier: Apache-2.0
import EscapeConsole
import EscapeRuntime
import EscapeTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The console's loop in process, and `efb play` as a program.
struct ConsoleFrontEndTests {
    /// Says nothing aloud; keeps what it was asked to say.
    final class RecordingSpeaker: Speaker {
        var said: [(text: String, language: String?)] = []
        var priorities: [SpeechPriority] = []
        var stops = 0

        func speak(_ text: String, language: String?, priority: SpeechPriority) {
            said.append((text, language))
            priorities.append(priority)
        }

        func stop() {
            stops += 1
        }
    }

    /// Runs a console over a pipe holding `input` and a file for its output; returns what it wrote.
    private func play(
        _ input: String,
        options: ConsoleFrontEnd.Options,
        speaker: RecordingSpeaker? = nil
    ) throws
        -> String
    {
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        let bytes = Array(input.utf8)
        try #require(bytes.count < 4096, "the input must fit in the pipe")
        try #require(write(descriptors[1], bytes, bytes.count) == bytes.count)
        close(descriptors[1])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("efb-console-\(UUID().uuidString)")
        let output = open(file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(output >= 0)
        defer { try? FileManager.default.removeItem(at: file) }
        let frontEnd = ConsoleFrontEnd(
            options: options,
            speaker: speaker,
            input: descriptors[0],
            output: output
        )
        #expect(EventLoop(host: Support.session(), frontEnd: frontEnd).run() == .finished)
        close(descriptors[0])
        close(output)
        return try String(contentsOf: file, encoding: .utf8)
    }

    @Test func theLoopWritesWhatTheDriverSaysAndEndsAtEndOfInput() throws {
        let input = "n\nmagic\nesc\nbogus\n"
        let text = try play(input, options: ConsoleFrontEnd.Options())
        var (driver, opening) = Support.console()
        var expected = opening
        for line in ["n", "magic", "esc", "bogus"] { expected += driver.enter(line).map(\.text) }
        expected += driver.finish().map(\.text)
        #expect(text == expected.joined(separator: "\n") + "\n")
        #expect(text.hasSuffix("Goodbye.\n"))
        #expect(!text.contains("{"))
    }

    /// A terminal that takes nothing for a while (a non-blocking one that is full) never holds the loop:
    /// what it did not take waits, no key is read before it is out, and once the terminal reads again
    /// every line arrives, in order.
    @Test func aFullTerminalNeverHoldsTheLoopAndLosesNothing() throws {
        let lines = Array(repeating: ["n", "magic", "esc", "bogus"], count: 30).flatMap { $0 }
        var (driver, expected) = Support.console()
        for line in lines { expected += driver.enter(line).map(\.text) }
        expected += driver.finish().map(\.text)
        let expectedText = expected.joined(separator: "\n") + "\n"
        try #require(expectedText.utf8.count > 3 * 4096, "the output must overflow the terminal")

        var input: [Int32] = [0, 0]
        try #require(pipe(&input) == 0)
        let typed = Array(lines.map { $0 + "\n" }.joined().utf8)
        try #require(typed.count < 4096, "the input must fit in the pipe")
        try #require(write(input[1], typed, typed.count) == typed.count)
        close(input[1])
        defer { close(input[0]) }
        let terminal = Pipe()
        let output = terminal.fileHandleForWriting.fileDescriptor
        _ = fcntl(output, 1031, 4096)  // F_SETPIPE_SZ: the smallest a pipe holds
        try #require(fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK) == 0)
        // The terminal reads nothing until the loop came back; were the loop stuck writing, the
        // terminal would start reading after ten seconds, so the test fails instead of hanging.
        let loopCameBack = Locked(false)
        let read = Locked((bytes: [UInt8](), ended: false))
        let reader = Thread {
            _ = poll(seconds: 10) { loopCameBack.withLock { $0 } }
            let handle = terminal.fileHandleForReading
            while true {
                let data = handle.availableData
                read.withLock {
                    if data.isEmpty { $0.ended = true } else { $0.bytes += Array(data) }
                }
                if data.isEmpty { break }
            }
        }
        reader.start()

        let frontEnd = ConsoleFrontEnd(input: input[0], output: output)
        let host = Support.session()
        let first = EventLoop(host: host, frontEnd: frontEnd, pauseWhen: { !frontEnd.writeDescriptors.isEmpty }).run()
        #expect(first == .paused, "the loop came back while output waited for the terminal")
        #expect(frontEnd.descriptors.isEmpty, "no key is read while output waits")
        loopCameBack.withLock { $0 = true }
        #expect(EventLoop(host: host, frontEnd: frontEnd).run() == .finished)
        try terminal.fileHandleForWriting.close()
        try waitUntil("the terminal to read everything") { read.withLock { $0.ended } }
        #expect(String(decoding: read.withLock { $0.bytes }, as: UTF8.self) == expectedText)
    }

    @Test func aPromptWaitsForEachCommandAndColourIsOptIn() throws {
        let text = try play("n\nq\n", options: ConsoleFrontEnd.Options(color: true, prompt: true))
        #expect(
            text.hasSuffix(
                "1 of 3: Darkness, heading\n> 2 of 3: You wake on cold stone. "
                    + "Your lantern lies beside you, its glass cracked and its flame long gone. Somewhere above, wind moves "
                    + "through a passage you cannot see. You will never see this place. You will hear it, touch it, and think "
                    + "your way out of it.\n> Goodbye.\n"
            )
        )
        #expect(text.hasPrefix("\u{1B}[1mEscape From Blindness\u{1B}[0m\n"))
    }

    @Test func theSpeakerHearsTheSpokenLinesOfEachTurnAtOnce() throws {
        let speaker = RecordingSpeaker()
        _ = try play("n\n", options: ConsoleFrontEnd.Options(), speaker: speaker)
        #expect(speaker.said.count == 3)
        #expect(speaker.said.first?.text.hasPrefix("Escape From Blindness\nType help for the commands") == true)
        #expect(speaker.said.first?.text.hasSuffix("3. Continue, button\n1 of 3: Darkness, heading") == true)
        #expect(speaker.said.allSatisfy { $0.language == "en" })
        #expect(speaker.said.last?.text == "Goodbye.")
    }

    @Test func efbPlayNeverWritesJSON() throws {
        let result = try runEFB(
            ["play", "--seed", "1", "--clock", "virtual", "--memory-save"],
            input: "n\nesc\nl\n\nwhere\nq\n"
        )
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.contains("2 of 3: You wake on cold stone."))
        #expect(result.stdout.contains("The First Door, 6 items:"))
        #expect(result.stdout.contains("Chapter 1, level 1. 0 of 25 levels solved."))
        #expect(result.stdout.hasSuffix("Goodbye.\n"))
        #expect(!result.stdout.contains("{"))
    }

    @Test func plainEfbIsStillThePipeWhenInputIsNotATerminal() throws {
        let result = try runEFB(["--seed", "1", "--clock", "virtual", "--memory-save"], input: "")
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix(#"{"adventure":"#))
    }

    @Test func aHintUnlockingIsWrittenWithoutBeingAsked() throws {
        let game = try RunningEFB(["play", "--memory-save", "--hint-interval", "0.2"])
        game.write(Array("esc\nmagic\n".utf8))
        let announced = poll {
            game.output.text.contains("A new hint is ready. Ask for it whenever you like.")
        }
        game.finish()
        #expect(announced, "\(game.output.text)")
        #expect(game.process.terminationStatus == 0)
    }

    @Test func speechWithoutSpeechDispatcherSaysSoInOneLineAndTheGamePlaysOn() throws {
        let folder = try temporaryFolder("speech")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A runtime folder with no server in it, and no way to start one (no speech-dispatcher on PATH).
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = folder.path
        environment["HOME"] = folder.path
        environment["PATH"] = folder.appendingPathComponent("nothing-here").path
        environment["SPEECHD_ADDRESS"] = "unix_socket:" + folder.appendingPathComponent("none.sock").path
        let arguments = ["play", "--seed", "1", "--clock", "virtual", "--memory-save", "--speech"]
        let silent = try runEFB(arguments, input: "n\nq\n", environment: environment)
        #expect(silent.status == 0)
        let lines = silent.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(silent.stderr)")
        #if Speech
        #expect(lines.first?.hasPrefix("efb: --speech: cannot reach Speech Dispatcher") == true, "\(silent.stderr)")
        #else
        // Built without the Speech trait (libspeechd), it says so the same way.
        #expect(lines.first?.hasPrefix("efb: --speech: this efb was built without the Speech trait") == true)
        #endif
        #expect(lines.first?.hasSuffix("Playing on without speech.") == true, "\(silent.stderr)")
        #expect(silent.stdout.contains("2 of 3: You wake on cold stone."))
        #expect(silent.stdout.hasSuffix("Goodbye.\n"))
    }

    @Test func answersAreMessagesAndEveryLineTypedStopsSpeechFirst() throws {
        let speaker = RecordingSpeaker()
        _ = try play("n\nq\n", options: ConsoleFrontEnd.Options(), speaker: speaker)
        #expect(speaker.priorities.allSatisfy { $0 == .message })
        #expect(speaker.stops == 2)
    }
}
