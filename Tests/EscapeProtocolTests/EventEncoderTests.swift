// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeJSON
import EscapeProtocol
import Testing

/// The events written straight to bytes are byte for byte what the general path writes.
@Suite struct EventEncoderTests {
    /// Texts that need every kind of escape the writer knows.
    static let texts = [
        "", "Plain", #"Quote " and \ backslash"#, "Line\nbreak\ttab\u{7}bell\u{7F}", "Café, naïve — “curly”",
        "Line separator \u{2028} paragraph \u{2029} next line \u{85}", "🔦 emoji",
    ]

    static let elements: [Element] = texts.flatMap { text in
        [
            Element(id: "plain", label: text, traits: [.staticText]),
            Element(
                id: "full-\(text.count)",
                label: text,
                hint: text,
                value: text,
                traits: [.button, .adjustable],
                rotors: ["Codes", text],
                actions: [text, "Pump"]
            ),
            // A dial: its range is written in protocol 1.3 only, between `label` and `rotors`.
            Element(
                id: "dial-\(text.count)",
                label: text,
                value: text,
                traits: [.adjustable],
                range: ElementRange(position: text.count + 1, count: text.count + 12)
            ),
            Element(
                id: "all",
                label: text,
                hint: text,
                value: text,
                traits: [.adjustable],
                rotors: [text],
                actions: [text],
                range: ElementRange(position: 1, count: 1)
            ),
        ]
    }

    /// Every kind of game command, with and without an element of its own.
    static let commands: [GameCommand] = [
        .next, .previous, .first, .last, .magicTap, .escape, .hint, .menu, .replay, .repeatAnnouncement,
        .focus(element: "f"), .activate(element: nil), .activate(element: "a"), .rotor(.next), .rotorItem(.previous),
        .action(.name("Pull \"it\"")), .action(.index(2)), .adjust(.increment), .adjust(.decrement), .adjust(.first),
        .adjust(.last),
        .input(text: "", element: nil), .input(text: "café ✓", element: "field"), .goto(chapter: 3, level: 4),
        .assistive(active: true), .assistive(active: false),
    ]

    /// An element with every trait, each written as its raw value.
    static let everyTrait = Element(id: "every-trait", label: "All", traits: Trait.allCases)

    /// The engine's introductions: plain, and with everything a client's `hello` can be granted (an
    /// empty `omit` is left out).
    static let hellos: [ServerHello] = [
        ServerHello(
            protocolVersion: 1,
            engineVersion: "1.2.3",
            locale: "en",
            adventureID: "escape",
            adventureTitle: texts[2],
            capabilities: ServerHello.gameCapabilities
        ),
        ServerHello(
            protocolVersion: 1,
            version: .v1_3,
            versions: [.v1_0, .v1_1, .v1_2, .v1_3],
            grantedWant: [],
            grantedOmit: [],
            engineVersion: texts[4],
            locale: "fr",
            adventureID: texts[3],
            adventureTitle: "Évasion",
            capabilities: [],
            games: 64
        ),
        ServerHello(
            protocolVersion: 1,
            version: .v1_1,
            versions: [.v1_0, .v1_1],
            grantedWant: ["observation", texts[2]],
            grantedOmit: ["sound", "idle"],
            engineVersion: "0",
            locale: "en",
            adventureID: "a",
            adventureTitle: "",
            capabilities: ["batch"],
            games: 1
        ),
    ]

    static let events: [Event] =
        [.done, .bye, .snapshot(blob: "AAEC/+8="), .snapshot(blob: texts[2])]
        + hellos.map { .hello($0) }
        + ErrorCode.allCases.flatMap { code in
            [Event.error(ProtocolError(code, texts[2])), .error(ProtocolError(code, "Not now", field: texts[3]))]
        }
        + ClientRole.allCases.flatMap { [Event.role($0, controlFree: true), .role($0, controlFree: false)] }
        + EndReason.allCases.map { .game(.ended($0)) }
        + [.game(.focus(FocusState(screen: "s", element: everyTrait, index: 1, count: 1)))]
        + texts.flatMap { text in
            Priority.allCases.flatMap { priority in
                AnnouncementCategory.allCases.map {
                    .game(.announce(Announcement(text, priority: priority, category: $0)))
                }
            }
        }
        + SoundCue.allCases.map { .game(.sound($0)) }
        + Outcome.allCases.map { .game(.result(AnswerResult(outcome: $0, level: "cellar-door"))) }
        + elements.map { .game(.focus(FocusState(screen: "level-x", element: $0, index: 2, count: 5))) }
        + elements.map { .game(.elementChanged($0)) }
        + [.idle]
        + [
            .game(.actions(ActionList(element: "bellows", actions: ["Pump", texts[2], texts[6]]))),
            .game(.actions(ActionList(element: texts[3], actions: []))),
            .game(.timer(TimerState(limitMs: 90_000, remainingMs: 0, paused: false))),
            .game(.timer(TimerState(limitMs: 60_000, remainingMs: 12_345, paused: true))),
        ]
        + ["cellar-drip", "wind"].compactMap(Ambience.init).map { .game(.ambient($0)) }
        + EndReason.allCases.flatMap { [Event.ended(reason: $0, cutShort: true), .ended(reason: $0, cutShort: false)] }
        + [
            .validActions(screen: "level-x", actions: []),
            .validActions(
                screen: texts[2],
                actions: commands.map { ValidAction(element: nil, command: $0, label: texts[1]) }
            ),
            .validActions(
                screen: "level-x",
                actions: commands.map { ValidAction(element: "dial \"2\"", command: $0, label: "L", needsText: true) }
            ),
        ]
        + ScreenKind.allCases.map { kind in
            .observation(
                Observation(
                    screen: "level-\(kind)",
                    kind: kind,
                    focus: texts[1],
                    text: texts[3] + "\n> " + texts[2],
                    heard: kind == .level ? [] : texts,
                    completed: 3,
                    total: 25
                )
            )
        }
        + ScreenKind.allCases.flatMap { kind in
            [
                .game(
                    .screen(
                        Screen(id: "s", kind: kind, title: "Title \"quoted\"", elements: [], magicTap: nil, escape: nil)
                    )
                ),
                .game(
                    .screen(
                        Screen(
                            id: "level-\(kind)",
                            kind: kind,
                            title: texts[3],
                            elements: elements,
                            magicTap: ScreenGesture(action: .continueIntro, label: texts[4]),
                            escape: ScreenGesture(action: .skipIntro, label: "Skip"),
                            hints: HintCount(total: 3, unlocked: 1)
                        )
                    )
                ),
                // A chapter's id (protocol 1.2), on the screens that have one.
                .game(
                    .screen(
                        Screen(
                            id: "chapter-\(kind)",
                            kind: kind,
                            title: "T",
                            elements: [Self.elements[1]],
                            magicTap: nil,
                            escape: ScreenGesture(action: .menu, label: texts[2]),
                            chapterID: texts[2]
                        )
                    )
                ),
            ]
        }
        + [
            .game(
                .rotor(
                    RotorState(
                        element: "door",
                        rotor: "Codes",
                        rotorIndex: 1,
                        rotorCount: 2,
                        item: "123",
                        itemIndex: 1,
                        itemCount: 5
                    )
                )
            ),
            .game(
                .rotor(
                    RotorState(
                        element: "door",
                        rotor: texts[2],
                        rotorIndex: 2,
                        rotorCount: 2,
                        item: nil,
                        itemIndex: nil,
                        itemCount: 0
                    )
                )
            ),
        ]
        + [
            ProgressSummary(chapter: 1, level: 2, completed: [], total: 25, onScreen: nil),
            ProgressSummary(
                chapter: nil,
                level: nil,
                completed: ["cellar-door", texts[2]],
                total: 25,
                onScreen: LevelNumber(chapter: 3, level: 1)
            ),
            // Protocol 1.2's chapter id and chapters, written only in 1.2.
            ProgressSummary(
                chapter: 2,
                level: 1,
                completed: ["cellar-door"],
                total: 25,
                onScreen: LevelNumber(chapter: 2, level: 1),
                chapterID: texts[2],
                chapters: [
                    ChapterProgress(id: "cellar", completed: 4, total: 4),
                    ChapterProgress(id: texts[2], completed: 0, total: 12),
                ]
            ),
            ProgressSummary(
                chapter: nil,
                level: nil,
                completed: [],
                total: 0,
                onScreen: nil,
                chapterID: nil,
                chapters: []
            ),
        ].flatMap { summary in [Event.progress(summary, saved: true), .progress(summary, saved: false)] }

    static let replies: [RequestID?] = [nil, .int(7), .int(-9_007_199_254_740_991), .string("a \"quoted\" id")]

    /// Every kind of event, in every minor version, with and without `game` (an engine hosting many
    /// games): the line's members are the value's, in the order ``JSONWriter`` sorts them, each once.
    @Test(arguments: [0, 1, 2, 3], [nil, 0, 1023])
    func directLinesMatchTheGeneralPath(protocolMinor: Int, game: Int?) {
        for event in Self.events {
            for replyTo in Self.replies {
                var stamped = StampedEvent(
                    seq: 41,
                    replyTo: replyTo,
                    generation: 12,
                    event: event,
                    protocolMinor: protocolMinor
                )
                stamped.game = game
                var direct: [UInt8] = []
                EventEncoder.encode(stamped, into: &direct)
                var general: [UInt8] = []
                JSONWriter.write(EventEncoder.json(stamped), into: &general)
                general.append(UInt8(ascii: "\n"))
                #expect(
                    direct == general,
                    "\(String(decoding: direct, as: UTF8.self)) != \(String(decoding: general, as: UTF8.self))"
                )
            }
        }
    }

    /// Every line reads back as an event that writes the same line again, and says the event's type.
    @Test(arguments: [0, 1, 2, 3])
    func everyLineReadsBackToItself(protocolMinor: Int) throws {
        for event in Self.events {
            for replyTo in Self.replies {
                var stamped = StampedEvent(
                    seq: 41,
                    replyTo: replyTo,
                    generation: 12,
                    event: event,
                    protocolMinor: protocolMinor
                )
                // In one of the versions, a line of an engine hosting many games.
                stamped.game = protocolMinor == 2 ? 5 : nil
                var line: [UInt8] = []
                EventEncoder.encode(stamped, into: &line)
                let decoded = try EventDecoder.decode(line.dropLast(), protocolMinor: protocolMinor)
                var again: [UInt8] = []
                EventEncoder.encode(decoded, into: &again)
                #expect(again == line, "\(String(decoding: line, as: UTF8.self))")
                #expect(decoded.event.type == event.type)
                guard case .object(let members) = EventEncoder.json(stamped) else {
                    Issue.record("\(event) is not written as an object")
                    continue
                }
                #expect(members["type"] == .string(event.type.wireName))
            }
        }
    }

    /// Each event type has its own wire name, which names it back; other names name no event.
    @Test func everyEventTypeIsNamedOnce() throws {
        let names = EventType.allCases.map(\.wireName)
        #expect(Set(names).count == EventType.allCases.count)
        for type in EventType.allCases { #expect(EventType(wireName: type.wireName) == type) }
        #expect(EventType(wireName: "ambient") == nil)
        #expect(EventType(wireName: "Done") == nil)
        #expect(Event.game(.ambient(try #require(Ambience("wind")))).type == .sound)
        #expect(Event.game(.ended(.quit)).type == .ended)
    }

    /// A dial's `range` is protocol 1.3's: before it the element is written as it always was.
    @Test(arguments: [0, 1, 2, 3])
    func aDialsRangeIsWrittenIn13Only(protocolMinor: Int) {
        let dial = Element(
            id: "left-wheel",
            label: "Left wheel",
            value: "7",
            traits: [.adjustable],
            range: ElementRange(position: 8, count: 10)
        )
        for event in [
            Event.game(.focus(FocusState(screen: "s", element: dial, index: 1, count: 1))),
            .game(.elementChanged(dial)),
        ] {
            let stamped = StampedEvent(seq: 1, replyTo: nil, generation: 2, event: event, protocolMinor: protocolMinor)
            var direct: [UInt8] = []
            EventEncoder.encode(stamped, into: &direct)
            let line = String(decoding: direct, as: UTF8.self)
            let element = #"{"id":"left-wheel","label":"Left wheel","#
            let expected =
                protocolMinor >= 3
                ? element + #""range":{"count":10,"position":8},"traits":["adjustable"],"value":"7"}"#
                : element + #""traits":["adjustable"],"value":"7"}"#
            #expect(line.contains(expected), "\(line)")
        }
    }

    static let button = Element(id: "e", label: "E", traits: [.button])

    /// Numbers are written straight as digits, never through a string: every width, both signs, the ends.
    @Test(arguments: [0, 1, 9, 10, 99, 100, 12_345, 1_000_000_007, Int.max, -1, -10, -9_007_199_254_740_991, Int.min])
    func numbersAreWrittenAsTheirDigits(number: Int) {
        let stamped = StampedEvent(
            seq: number.magnitude > Int.max.magnitude / 2 ? 1 : abs(number) + 1,
            replyTo: .int(number),
            generation: max(number, 0),
            event: .game(.focus(FocusState(screen: "s", element: Self.button, index: 1, count: 1))),
            protocolMinor: 1
        )
        var direct: [UInt8] = []
        EventEncoder.encode(stamped, into: &direct)
        let text = String(decoding: direct, as: UTF8.self)
        #expect(text.contains("\"replyTo\":\(number),"), "\(text)")
        #expect(text.contains("\"gen\":\(max(number, 0)),"), "\(text)")
        var general: [UInt8] = []
        JSONWriter.write(EventEncoder.json(stamped), into: &general)
        general.append(UInt8(ascii: "\n"))
        #expect(direct == general, "\(text)")
    }

    @Test func encodingAppendsToWhatIsThere() {
        var output = Array("{\"before\":1}\n".utf8)
        EventEncoder.encode(StampedEvent(seq: 1, replyTo: nil, generation: 0, event: .done), into: &output)
        EventEncoder.encode(StampedEvent(seq: 2, replyTo: nil, generation: 0, event: .bye), into: &output)
        #expect(
            String(decoding: output, as: UTF8.self)
                == "{\"before\":1}\n{\"gen\":0,\"seq\":1,\"type\":\"done\"}\n{\"seq\":2,\"type\":\"bye\"}\n"
        )
    }

    /// A batch's lines are the lines its events make one by one, the general path's among them.
    @Test func aBatchWritesWhatEachEventWrites() {
        let events = Self.events + [.bye, .error(ProtocolError(.notNow, "Not now \"here\"")), .idle]
        let stamped = events.enumerated().map { offset, event in
            StampedEvent(seq: offset + 1, replyTo: Self.replies[offset % 4], generation: offset, event: event)
        }
        var batch = Array("kept\n".utf8)
        EventEncoder.encode(stamped, into: &batch)
        var single = Array("kept\n".utf8)
        for event in stamped { EventEncoder.encode(event, into: &single) }
        #expect(batch == single)
    }

    /// The direct path checks eight bytes at a time whether a text needs an escape: each character that
    /// does, at every place in and across those eight, and every text longer than the writer's first
    /// buffer, is written as the general path writes it.
    @Test func everyEscapeIsFoundWhereverItIs() {
        let needing = [
            "\"", "\\", "\n", "\u{1}", "\u{1F}", "\u{7F}", "\u{85}", "\u{2028}", "\u{2029}", "é", "€", "🔦", " ", "~",
        ]
        var texts: [String] = []
        for special in needing {
            for length in [0, 1, 7, 8, 9, 15, 16, 17, 24] {
                for place in 0...length {
                    texts.append(
                        String(repeating: "a", count: place) + special + String(repeating: "b", count: length - place)
                    )
                }
            }
        }
        texts.append(String(repeating: "The long dark. ", count: 2_000))
        texts.append(String(repeating: "é\"", count: 3_000))
        for text in texts {
            let stamped = StampedEvent(
                seq: 1,
                replyTo: nil,
                generation: 0,
                event: .game(.announce(Announcement(text, category: .narrative)))
            )
            var direct: [UInt8] = []
            EventEncoder.encode(stamped, into: &direct)
            var general: [UInt8] = []
            JSONWriter.write(EventEncoder.json(stamped), into: &general)
            general.append(UInt8(ascii: "\n"))
            #expect(direct == general, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}
