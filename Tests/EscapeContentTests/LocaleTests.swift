// SPDX-License-Identifier: Apache-2.0
import EscapeContent
import EscapeCore
import Testing

/// Every shipped translation is the same adventure: same chapters, levels, kinds, element ids and
/// answers where they are not words. (The solver test plays each one to its end.)
@Suite struct LocaleTests {
    private func shape(_ adventure: Adventure) -> [String] {
        var lines = ["id \(adventure.id)", "intro \(adventure.intro.count)"]
        for chapter in adventure.chapters {
            lines.append("chapter \(chapter.id) ambient \(chapter.ambient?.name ?? "-")")
            for level in chapter.levels {
                lines.append(
                    "level \(level.id) \(level.puzzle.kind) time \(level.timeLimit ?? 0) hints \(level.hints.count)"
                )
                switch level.puzzle.content {
                case let question as ClosedQuestion:
                    lines += question.answers.map { "answer \($0.id) \($0.correct == true)" }
                case let question as OpenQuestion:
                    lines.append("accepted \(question.accepted.isEmpty ? 0 : 1)")
                case let rotor as RotorPuzzle:
                    lines.append("codes \(rotor.codes) answer \(rotor.answer) clues \(rotor.clues.count)")
                case let puzzle as CustomActionPuzzle:
                    lines += puzzle.objects.map { object in
                        "object \(object.id) actions \(object.actions.count) right \(object.actions.firstIndex { $0.name == object.correct } ?? -1)"
                    }
                case let lock as DialsPuzzle:
                    lines += lock.dials.map { "dial \($0.id) values \($0.values.count)" }
                    lines.append(
                        "combination \(zip(lock.dials, lock.combination).map { dial, value in dial.values.firstIndex(of: value) ?? -1 })"
                    )
                default:
                    lines.append("unknown kind")
                }
            }
        }
        return lines
    }

    @Test(arguments: AdventureLoader.bundledLocales.filter { $0 != "en" })
    func aTranslationHasTheSameStructureAsTheEnglish(locale: String) throws {
        let english = try AdventureLoader.bundled(locale: "en")
        let translation = try AdventureLoader.bundled(locale: locale)
        #expect(translation.locale == locale)
        let expected = shape(english)
        let found = shape(translation)
        #expect(found.count == expected.count)
        for (line, (want, got)) in zip(expected, found).enumerated() where want != got {
            Issue.record("line \(line): \(want) vs \(got)")
            break
        }
    }

    @Test func theLocaleComesFromTheEnvironmentsLanguage() throws {
        #expect(try AdventureLoader.bundled(locale: "en_GB.UTF-8").locale == "en")
        #expect(try AdventureLoader.bundled(locale: "xx_YY").locale == "en")
        if AdventureLoader.bundledLocales.contains("fr") {
            #expect(try AdventureLoader.bundled(locale: "fr_FR.UTF-8").locale == "fr")
        }
    }
}
