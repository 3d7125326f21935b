// SPDX-License-Identifier: Apache-2.0
import EscapeConsole
import EscapeContent
import EscapeCore
import EscapeRuntime
import EscapeSaves
import EscapeTestSupport
import Foundation
import Testing

/// The whole game in French at a real terminal: every word the console adds is French.
@Suite(.enabled(if: TmuxTerminal.executable != nil, "tmux is not installed: run scripts/install-deps to install it"))
struct TerminalFrenchTests {
    static let french: Adventure = {
        do {
            return try AdventureLoader.bundled(locale: "fr")
        } catch {
            fatalError("the shipped adventure must load: \(error)")
        }
    }()

    /// The French command words the solver types.
    static func say(_ command: String) -> String {
        switch command {
        case "escape": "échap"
        case "activate": "activer"
        case "type": "répondre"
        case "rotor": "rotor"
        case "item": "bas"
        case "magic": "magique"
        default: command
        }
    }

    /// The words of the English catalogue that French never uses: neither the French catalogue, nor the
    /// engine's French words, nor the French story hold them.
    static let englishOnlyWords: Set<String> = {
        func words(_ text: String) -> [String] {
            var said = text
            for name in EngineWords.placeholders(in: text) {
                said = said.replacingOccurrences(of: "{\(name)}", with: " ")
            }
            return said.lowercased().split { !$0.isLetter }.map(String.init)
        }
        var english = Set(ConsoleWords.Key.allCases.flatMap { words(ConsoleWords(.english).template($0)) })
        english.subtract(ConsoleWords.Key.allCases.flatMap { words(ConsoleWords(.french).template($0)) })
        english.subtract(EngineWords.Key.allCases.flatMap { words(EngineWords(.french).template($0)) })
        english.subtract(SessionWords.Key.allCases.flatMap { words(SessionWords(.french).template($0)) })
        english.subtract(story.flatMap(words))
        // Placeholders' names, the options the help names, and one-letter forms are not words said.
        english.subtract(["clock", "virtual"])
        return english.filter { $0.count > 1 }
    }()

    /// The French adventure's texts: the string values of its JSON, not its keys, which are English.
    static let story: [String] = {
        let url = packageRoot.appendingPathComponent("Sources/EscapeContent/Adventures/fr.json")
        return strings(in: (try? Data(contentsOf: url)).flatMap { try? JSONSerialization.jsonObject(with: $0) })
    }()

    /// Every string value of a JSON value, keys left out.
    static func strings(in value: Any?) -> [String] {
        switch value {
        case let text as String: [text]
        case let array as [Any]: array.flatMap { strings(in: $0) }
        case let object as [String: Any]: object.values.flatMap { strings(in: $0) }
        default: []
        }
    }

    @Test func theWholeGameInFrenchWithNoEnglishWordOfTheConsole() throws {
        #expect(
            Self.englishOnlyWords.isSuperset(of: ["item", "items", "button", "heading", "correct", "progress", "hint"])
        )
        var console = SteppedConsole(
            host: SessionHost(
                adventure: Self.french,
                options: EngineOptions(hintInterval: 30_000, seed: 1),
                store: InMemorySaveStore(),
                clock: VirtualClock()
            )
        )
        let opening = console.start().map(\.text)
        let steps = ConsoleSolver(adventure: Self.french, say: Self.say).play(&console)
        #expect(console.host.engine.screen.kind == .end)

        let terminal = try TmuxTerminal(command: efbCommand("play --seed 1 --clock virtual --memory-save --locale fr"))
        defer { terminal.stop() }
        try terminal.waitFor(opening.last ?? "")
        try terminal.type("aide")
        try terminal.waitFor(
            "q, qu, quitter\u{00A0}: arrêter de jouer. La progression est enregistrée à chaque porte ouverte."
        )
        try terminal.type("sauter")
        try terminal.waitFor(
            "Commande inconnue\u{00A0}: «\u{00A0}sauter\u{00A0}». Tape aide pour la liste des commandes."
        )
        var hinted = false
        for step in steps {
            try terminal.type(step.typed)
            if let last = step.answer.last { try terminal.waitFor(last) }
            // On the first level: a hint, numbered by the story itself, is not prefixed a second time.
            if !hinted, step.answer.contains("La Première Porte, 6 éléments\u{00A0}:") {
                hinted = true
                try terminal.type("attendre 30")
                try terminal.waitFor("Un nouvel indice est prêt. Demande-le quand tu veux.")
                // The notice is no hint: no « Indice : » before it (issue 23, item 7).
                #expect(!terminal.lines().contains { $0.hasPrefix("Indice : Un nouvel indice") })
                try terminal.type("indice")
                try terminal.waitFor("Indice 1 sur 2\u{00A0}: ")
            }
        }
        #expect(hinted)
        try terminal.waitFor("Te voilà dehors\u{00A0}: la partie est terminée.")
        try terminal.type("état")
        try terminal.waitFor("25 niveaux résolus sur 25.")
        try terminal.type("quitter")
        try terminal.waitFor("Au revoir.", "[exited with status 0]")

        let screen = terminal.lines().filter { !$0.hasPrefix("[exited with status") }
        let english = screen.filter { line in
            line.lowercased().split { !$0.isLetter }.contains { Self.englishOnlyWords.contains(String($0)) }
        }
        #expect(english.isEmpty, "English words on the screen:\n\(english.joined(separator: "\n"))")
        #expect(!screen.contains { $0.contains("Indice : Indice") })
        #expect(screen.contains { $0.contains("1 sur ") })
        // Words that agree with the object: « l'échelle » is feminine, « le verrou » masculine.
        #expect(screen.contains { $0.contains("Échelle en bois, pas encore manipulée, bouton") })
        #expect(screen.contains { $0.contains("Verrou de fer, pas encore manipulé, bouton") })
    }
}
