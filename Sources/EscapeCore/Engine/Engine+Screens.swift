// SPDX-License-Identifier: Apache-2.0
extension Engine {
    static let titleID = "title"
    static let textID = "text"
    static let storyID = "story"
    static let questionID = "question"
    static let answerFieldID = "answer"
    static let doorID = "door"
    static let continueID = "continue"
    static let beginID = "begin"
    static let backID = "back"
    static let resumeID = "resume"
    static let replayID = "replay"
    static let promptID = "prompt"
    static let tryID = "try"
    static let menuLevelPrefix = "level-"
    static let menuChapterPrefix = "chapter-"

    /// Builds the screen a frame shows.
    ///
    /// Screens are derived from the state, never stored.
    func makeScreen(for frame: Frame) -> Screen {
        let messages = adventure.messages
        switch frame.place {
        case .intro(let page):
            let content = adventure.intro[page]
            return Screen(
                id: "intro-\(page + 1)",
                kind: .intro,
                title: content.title,
                elements: [
                    Element(id: Self.titleID, label: content.title, traits: [.header]),
                    Element(id: Self.textID, label: content.text, traits: [.staticText]),
                    Element(id: Self.continueID, label: messages.continueButton, traits: [.button]),
                ],
                magicTap: ScreenGesture(action: .continueIntro, label: messages.continueGesture),
                escape: ScreenGesture(action: .skipIntro, label: messages.skipIntroGesture)
            )
        case .chapter(let index):
            let chapter = adventure.chapters[index]
            let heading = Messages.format(messages.chapterHeading, ["n": "\(index + 1)", "title": chapter.title])
            return Screen(
                id: "chapter-\(chapter.id)",
                kind: .chapter,
                title: heading,
                elements: [
                    Element(id: Self.titleID, label: heading, traits: [.header]),
                    Element(id: Self.textID, label: teachingText(chapter), traits: [.staticText]),
                    Element(id: Self.beginID, label: messages.beginButton, traits: [.button]),
                ],
                magicTap: ScreenGesture(action: .begin, label: messages.beginGesture),
                escape: ScreenGesture(action: .menu, label: messages.menuGesture),
                chapterID: chapter.id
            )
        case .level(let position, let levelState):
            // The parts a level's screen always has come made; its puzzle's elements and the hints
            // unlocked are added.
            var screen = levelScreens[position.chapter][position.level]
            let levels = adventure.chapters[position.chapter].levels
            screen.elements.append(contentsOf: kindElements(levels[position.level].puzzle, levelState.puzzle))
            let hints = levels[position.level].hints.count
            screen.hints = HintCount(
                total: hints,
                unlocked: options.hintsAtOnce ? hints : min(levelState.hintsNoticed, hints)
            )
            return screen
        case .menu:
            return Screen(
                id: "menu",
                kind: .menu,
                title: messages.menuTitle,
                elements: menuElements(),
                magicTap: nil,
                escape: ScreenGesture(action: .back, label: messages.backGesture)
            )
        case .assistive:
            return Screen(
                id: "assistive",
                kind: .assistive,
                title: messages.assistiveTitle,
                elements: [
                    Element(id: Self.titleID, label: messages.assistiveTitle, traits: [.header]),
                    Element(id: Self.textID, label: messages.assistiveText, traits: [.staticText]),
                    Element(id: Self.resumeID, label: messages.resumeButton, traits: [.button]),
                ],
                magicTap: nil,
                escape: nil
            )
        case .end:
            return Screen(
                id: "end",
                kind: .end,
                title: adventure.ending.title,
                elements: [
                    Element(id: Self.titleID, label: adventure.ending.title, traits: [.header]),
                    Element(id: Self.textID, label: closingText(), traits: [.staticText]),
                    Element(id: Self.replayID, label: messages.replayButton, traits: [.button]),
                ],
                magicTap: ScreenGesture(action: .replay, label: messages.replayGesture),
                escape: ScreenGesture(action: .menu, label: messages.menuGesture)
            )
        }
    }

    /// The adventure's ending, followed by every key the front end named, so the player keeps them.
    private func closingText() -> String {
        let messages = adventure.messages
        guard !keyNames.isEmpty, let sentence = messages.allKeysSentence, !adventure.gestureWords.isEmpty else {
            return adventure.ending.text
        }
        let keys = keyEntries(Gesture.allCases)
        guard !keys.isEmpty else { return adventure.ending.text }
        return adventure.ending.text + " " + Messages.format(sentence, ["keys": keys.joined(separator: ", ")])
    }

    /// A chapter's description, ending with the keys its interaction needs when the front end named them.
    private func teachingText(_ chapter: Chapter) -> String {
        let messages = adventure.messages
        guard !keyNames.isEmpty, let sentence = messages.keysSentence, !adventure.gestureWords.isEmpty,
            let puzzle = chapter.levels.first?.puzzle
        else { return chapter.description }
        let keys = keyEntries(type(of: puzzle.content).gestures + [.hint, .menu])
        guard !keys.isEmpty else { return chapter.description }
        return chapter.description + " " + Messages.format(sentence, ["keys": keys.joined(separator: ", ")])
    }

    /// "gesture: key" for each of `gestures` that has both a key name and a word in the adventure.
    private func keyEntries(_ gestures: [Gesture]) -> [String] {
        gestures.compactMap { gesture -> String? in
            guard let key = keyNames[gesture], let name = adventure.gestureWords[gesture] else { return nil }
            return Messages.format(adventure.messages.keyEntry ?? "{gesture}: {key}", ["gesture": name, "key": key])
        }
    }

    private func menuElements() -> [Element] {
        let messages = adventure.messages
        var elements = [Element(id: Self.titleID, label: messages.menuTitle, traits: [.header])]
        let playing = playingPosition
        let firstUnsolved = firstUnsolved
        for (chapterIndex, chapter) in adventure.chapters.enumerated() {
            let statuses = chapter.levels.indices.map {
                status(
                    of: LevelPosition(chapter: chapterIndex, level: $0),
                    playing: playing,
                    firstUnsolved: firstUnsolved
                )
            }
            elements.append(
                Element(
                    id: Self.menuChapterPrefix + chapter.id,
                    label: menuLabels.chapters[chapterIndex],
                    value: statuses.allSatisfy({ $0 == .complete }) ? messages.statusComplete : nil,
                    traits: [.header]
                )
            )
            for (levelIndex, level) in chapter.levels.enumerated() {
                let position = LevelPosition(chapter: chapterIndex, level: levelIndex)
                let status = statuses[levelIndex]
                var traits: [Trait] = [.button]
                if status == .locked { traits.append(.notEnabled) }
                if position == playing { traits.append(.selected) }
                elements.append(
                    Element(
                        id: Self.menuLevelPrefix + level.id,
                        label: menuLabels.levels[chapterIndex][levelIndex],
                        value: status.word(in: messages),
                        traits: traits
                    )
                )
            }
        }
        elements.append(Element(id: Self.backID, label: messages.backButton, traits: [.button]))
        return elements
    }

    /// What every level's screen has whatever the puzzle's state: its id, title, gestures and
    /// chapter, and its title and story elements; by chapter, then level.
    static func levelScreens(_ adventure: Adventure) -> [[Screen]] {
        let messages = adventure.messages
        return adventure.chapters.map { chapter in
            chapter.levels.map { level in
                var elements: [Element] = []
                elements.reserveCapacity(8)
                elements.append(Element(id: Self.titleID, label: level.title, traits: [.header]))
                elements.append(Element(id: Self.storyID, label: level.story, traits: [.staticText]))
                return Screen(
                    id: "level-\(level.id)",
                    kind: .level,
                    title: level.title,
                    elements: elements,
                    magicTap: type(of: level.puzzle.content).magicTapTries
                        ? ScreenGesture(action: .tryPuzzle, label: messages.tryGesture ?? messages.hintGesture)
                        : ScreenGesture(action: .hint, label: messages.hintGesture),
                    escape: ScreenGesture(action: .menu, label: messages.menuGesture),
                    hints: HintCount(total: level.hints.count, unlocked: 0),
                    chapterID: chapter.id
                )
            }
        }
    }

    /// The level menu's labels, which depend on the adventure alone.
    struct MenuLabels: Sendable {
        /// Each chapter's label, by chapter.
        var chapters: [String]
        /// Each level's label, by chapter then level.
        var levels: [[String]]

        init(_ adventure: Adventure) {
            let messages = adventure.messages
            chapters = adventure.chapters.enumerated().map { index, chapter in
                Messages.format(messages.menuChapter, ["n": "\(index + 1)", "title": chapter.title])
            }
            levels = adventure.chapters.enumerated().map { chapterIndex, chapter in
                chapter.levels.enumerated().map { levelIndex, level in
                    Messages.format(
                        messages.menuLevel,
                        ["chapter": "\(chapterIndex + 1)", "n": "\(levelIndex + 1)", "title": level.title]
                    )
                }
            }
        }
    }

    /// The level the player is on under the menu, or the one they would carry on with.
    var playingPosition: LevelPosition? {
        for frame in state.stack.reversed() {
            if case .level(let position, _) = frame.place { return position }
        }
        return state.progress.current
    }

    enum LevelStatus {
        case complete, current, open, locked

        func word(in messages: Messages) -> String {
            switch self {
            case .complete: messages.statusComplete
            case .current: messages.statusCurrent
            case .open: messages.statusOpen
            case .locked: messages.statusLocked
            }
        }
    }

    func status(of position: LevelPosition, playing: LevelPosition?, firstUnsolved: LevelPosition?) -> LevelStatus {
        if position == playing { return .current }
        if state.progress.completed.contains(level(at: position).id) { return .complete }
        return isUnlocked(position, firstUnsolved: firstUnsolved) ? .open : .locked
    }
}
