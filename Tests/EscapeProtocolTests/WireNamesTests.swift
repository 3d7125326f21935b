// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeJSON
import EscapeProtocol
import Testing

/// Gestures and commands have one wire name each, defined once, that reads back as what wrote it.
@Suite struct WireNamesTests {
    /// One command of each kind, with whatever fields it needs.
    static let gameCommands: [GameCommand] = [
        .next, .previous, .first, .last, .focus(element: "door"), .activate(element: nil), .activate(element: "door"),
        .rotor(.next), .rotorItem(.previous), .action(.name("open")), .action(.index(2)), .adjust(.increment),
        .input(text: "water", element: nil), .magicTap, .escape, .hint, .menu, .goto(chapter: 1, level: 2), .replay,
        .assistive(active: false), .repeatAnnouncement,
    ]

    static let commands: [Command] =
        gameCommands.map(Command.game) + [
            .hello(ClientHello(client: "test", acceptedVersions: .versions([.v1_1]), keys: [.next: "N"])), .state,
            .ping, .wait(milliseconds: 10), .quit, .onElement(element: "dial", .adjust(.decrement)),
            .validActions(ifChanged: false),
            .snapshot, .restore(blob: "efb-snapshot-1.e30.0"), .batch([BatchEntry(.game(.next), ifGen: 1)]),
            .cancel(target: .int(3)),
        ]

    @Test func everyGestureReadsBackFromItsWireName() {
        for gesture in Gesture.allCases {
            #expect(Gesture(wireName: gesture.wireName) == gesture, "\(gesture)")
        }
        #expect(Gesture(wireName: "zz") == nil)
        #expect(Gesture(wireName: "MagicTap") == nil)
        #expect(Gesture(wireName: "focus") == nil)
    }

    @Test func wireNamesAreUnique() {
        let gestureNames = Gesture.allCases.map(\.wireName)
        #expect(Set(gestureNames).count == Gesture.allCases.count)
        // The sample holds every one of the protocol's 29 commands (two `activate`s, two `action`s and two
        // `adjust`s, one of them aimed), and no two of them share a name.
        let commandNames = Set(Self.commands.map(\.wireName))
        #expect(commandNames.count == 29)
        #expect(commandNames.isSuperset(of: gestureNames.filter { $0 != Gesture.pan.wireName }))
    }

    @Test func aGestureCommandIsNamedAsItsGesture() {
        for command in Self.gameCommands {
            if let gesture = command.gesture {
                #expect(command.wireName == gesture.wireName, "\(command)")
            } else {
                #expect(Gesture(wireName: command.wireName) == nil, "\(command)")
            }
        }
        // Every gesture but panning, a front end's own, is sent as a command.
        let sent = Set(Self.gameCommands.compactMap(\.gesture))
        #expect(Set(Gesture.allCases).subtracting(sent) == [.pan])
    }

    @Test func everyCommandReadsBackFromItsLine() throws {
        for command in Self.commands {
            var line: [UInt8] = []
            RequestEncoder.encode(Request(command: command), into: &line)
            guard case .request(let request) = CommandDecoder.decode(Array(line.dropLast())) else {
                Issue.record("\(command) does not read back")
                continue
            }
            #expect(request.command == command)
            let value = try JSONReader.read(line.dropLast())
            guard case .object(let object) = value else {
                Issue.record("\(command) is no object")
                continue
            }
            #expect(object["type"] == .string(command.wireName))
        }
    }

    @Test func helloKeysAreByGestureAndNamesOfNoGestureAreLeftOut() throws {
        let line = #"{"type":"hello","protocol":1,"keys":{"magicTap":"M","rotorItem":"I","zz":"q"}}"#
        guard case .request(let request) = CommandDecoder.decode(Array(line.utf8)),
            case .hello(let hello) = request.command
        else {
            Issue.record("the hello does not read")
            return
        }
        #expect(hello.keys == [.magicTap: "M", .rotorItem: "I"])
        let written = JSONWriter.string(RequestEncoder.json(Request(command: .hello(hello))))
        #expect(written == #"{"keys":{"magicTap":"M","rotorItem":"I"},"protocol":[1,0],"type":"hello"}"#)
    }

    @Test func whatChangesTheGameAndWhatOnlyAsks() {
        let questions = Self.commands.filter(\.isQuestion).map(\.wireName)
        #expect(questions == ["repeat", "state", "ping", "validActions", "snapshot"])
        let unchanging = Self.commands.filter { !$0.changesGame }.map(\.wireName)
        #expect(unchanging == ["repeat", "hello", "state", "ping", "quit", "validActions", "snapshot"])
        // A question never changes the game; an aimed gesture does, even one that only reads.
        for command in Self.commands where command.isQuestion { #expect(!command.changesGame, "\(command)") }
        #expect(Command.onElement(element: "door", .repeatAnnouncement).changesGame)
        #expect(!Command.onElement(element: "door", .repeatAnnouncement).isQuestion)
    }
}
