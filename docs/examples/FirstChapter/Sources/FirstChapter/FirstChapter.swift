// SPDX-License-Identifier: Apache-2.0
// The first chapter of the shipped English adventure, played in process by a scripted player: it reads
// each screen the game sends, finds the button whose label is the answer it knows, and activates it.
// It exits 0 once the game says the chapter is complete, and 1 with the reason otherwise.
import EscapeFromBlindness

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@main
enum FirstChapter {
    static func main() {
        do {
            print(try play())
        } catch {
            let message = Array("FirstChapter: \(error)\n".utf8)
            _ = message.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            exit(1)
        }
    }

    /// The most commands the player may send: the chapter takes six.
    static let commandBudget = 20

    /// What the player's program says of itself: its name, and the protocol versions it reads.
    static let hello = ClientHello(client: "FirstChapter", acceptedVersions: .versions([.v1_2]))

    /// Plays the chapter, then checks that a new game on the same save starts where it ended.
    ///
    /// - Returns: What happened, for standard output.
    static func play() throws -> String {
        let adventure = try AdventureLoader.bundled(locale: "en")
        // The seed shuffles the answers; the virtual clock makes time move only with `wait`. With both
        // fixed, the same commands give the same events every time.
        let options = EngineOptions(seed: 7)
        let store = InMemorySaveStore()
        let host = SessionHost(adventure: adventure, options: options, store: store, clock: VirtualClock())

        var game = PlayerView()
        try game.read(host.start())
        // The session speaks protocol 1.0 until a `hello` agrees on another; 1.2 adds each chapter's progress.
        try game.read(host.handle(Request(id: .string("hello"), command: .hello(hello))))
        var lines: [String] = []
        var sent = 0
        while !game.chapterIsComplete(1) {
            guard sent < commandBudget else {
                throw Failure("chapter 1 is not complete after \(sent) commands; the game is on \(game.position)")
            }
            guard let screen = game.screen else { throw Failure("the game showed no screen") }
            let command = try ScriptedPlayer.command(on: screen)
            sent += 1
            try game.read(host.handle(Request(id: .int(sent), command: .game(command))))
            if case .activate(let element?) = command, let verdict = game.lastResult {
                lines.append("\(screen.title): \(element) is \(verdict.outcome.rawValue)")
            }
        }

        let goodbye = host.handle(Request(id: .string("quit"), command: .quit))
        guard goodbye.last?.event == .bye else { throw Failure("the game did not say goodbye after quit") }

        // The progress was saved as the chapter went: a new game on the same store carries on from there.
        let again = SessionHost(adventure: adventure, options: options, store: store, clock: VirtualClock())
        var resumed = PlayerView()
        try resumed.read(again.start())
        try resumed.read(again.handle(Request(id: .string("hello"), command: .hello(hello))))
        guard let progress = resumed.progress, progress.chapter == 2, progress.level == 1 else {
            throw Failure("a new game on the save starts on \(resumed.position), not on chapter 2, level 1")
        }
        lines.append("Chapter 1 complete in \(sent) commands; a new game on the save starts on chapter 2, level 1.")
        return lines.joined(separator: "\n")
    }
}

/// A player who knows the first chapter's answers, by the title of their level, and nothing else.
enum ScriptedPlayer {
    /// The right answer of each level, as its button reads.
    static let answers = [
        "The First Door": "My other senses",
        "The Singing Wall": "Running water",
        "The Three Jars": "The jar that smells of lamp oil",
        "The Stair of Notes": "Lower than the third",
    ]

    /// What to do on a screen: skip the introduction, begin the chapter, or activate the answer.
    static func command(on screen: Screen) throws -> GameCommand {
        switch screen.kind {
        case .intro where screen.escape?.action == .skipIntro:
            return .escape
        case .chapter where screen.magicTap?.action == .begin:
            return .magicTap
        case .level:
            guard let answer = answers[screen.title] else {
                throw Failure("the player does not know the answer on \"\(screen.title)\"")
            }
            // The buttons are shuffled by the seed: the answer is found by its label, then named by its id.
            guard let button = screen.elements.first(where: { $0.label == answer && $0.traits.contains(.button) })
            else {
                throw Failure("no button reads \"\(answer)\" on \"\(screen.title)\"")
            }
            return .activate(element: button.id)
        case .intro, .chapter, .menu, .assistive, .end:
            throw Failure("the player did not expect the screen \"\(screen.id)\"")
        }
    }
}

/// What the player knows of the game: what the events said last.
struct PlayerView {
    var screen: Screen?
    var progress: ProgressSummary?
    var lastResult: AnswerResult?

    /// Takes in the events of one request; a refusal is a failure of the script.
    mutating func read(_ events: [StampedEvent]) throws {
        lastResult = nil
        for stamped in events {
            switch stamped.event {
            case .game(.screen(let screen)):
                self.screen = screen
            case .game(.result(let result)):
                lastResult = result
            case .progress(let summary, _):
                progress = summary
            case .error(let error):
                throw Failure("the game refused a command: \(error.message) (\(error.code.rawValue))")
            default:
                // Focus, announcements, sounds, `done`...: a player with a screen reader would hear them.
                continue
            }
        }
    }

    /// Whether the game says every level of the chapter numbered `number` (from 1) is solved.
    func chapterIsComplete(_ number: Int) -> Bool {
        guard let progress, progress.chapters.indices.contains(number - 1) else { return false }
        let chapter = progress.chapters[number - 1]
        return chapter.completed == chapter.total
    }

    /// Where the game stands, for a message.
    var position: String {
        let place = screen.map { "the screen \"\($0.id)\"" } ?? "no screen"
        guard let progress else { return place }
        return
            "\(place), chapter \(progress.chapter.map(String.init) ?? "-"), level \(progress.level.map(String.init) ?? "-")"
    }
}

/// Why the script failed.
struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
