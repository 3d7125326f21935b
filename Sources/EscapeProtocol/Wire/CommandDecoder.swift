// SPDX-License-Identifier: Apache-2.0
import EscapeCore
public import EscapeJSON

/// Turns one framed line into a request, or into why the protocol refuses it.
///
/// Its failures are ``DecodingFailure``s, phrases of the engine's words rather than sentences: the
/// session says them in its adventure's language.
public enum CommandDecoder {
    /// The longest text `input` accepts, in characters: Unicode scalars (code points), as JSON Schema counts.
    public static let maximumInputLength = 1000

    /// The length of `text` as `input` counts it against ``maximumInputLength``: in Unicode scalars (code
    /// points), the protocol's one definition of a character, not in grapheme clusters (`"é"` written `e`
    /// and a combining accent is 2).
    public static func inputLength(of text: String) -> Int {
        text.unicodeScalars.count
    }
    /// The largest integer a command may carry, either sign: 2^53 − 1, the largest one every JSON
    /// library (JavaScript's included) reads exactly.
    public static let maximumInteger = 9_007_199_254_740_991
    /// The longest `wait`, in milliseconds: one day.
    public static let maximumWait = 86_400_000

    /// What a line turned out to be.
    public enum Outcome: Sendable, Hashable {
        /// A request to carry out.
        case request(Request)
        /// An empty line or one of blanks: ignored, no reply.
        case blank
        /// A line answered with an error; `replyTo` is its id when one could be read.
        case failure(DecodingFailure, replyTo: RequestID?)
    }

    /// Decodes one line (without its terminator) for an engine that hosts one game.
    ///
    /// - Parameter line: The line's bytes.
    /// - Returns: The request, or why there is none.
    public static func decode(_ line: [UInt8]) -> Outcome {
        // The outcome made where it is returned, not taken out of a routed copy.
        var game: Int?
        return decode(line, games: 1, game: &game)
    }

    /// A line decoded for an engine that hosts many games, and the game it is for.
    public struct Routed: Sendable, Hashable {
        /// The request, or why there is none.
        public var outcome: Outcome
        /// The game the line names in `game` (0 when it names none), or `nil` when that cannot be read:
        /// the line is not an object, or its `game` is refused.
        public var game: Int?
    }

    /// Decodes one line (without its terminator) for an engine that hosts `games` games, numbered from
    /// 0: a `game` field must name one of them.
    ///
    /// `game` is checked right after `id`, so a failure in a later field still tells the game.
    ///
    /// - Parameters:
    ///   - line: The line's bytes.
    ///   - games: How many games the engine hosts (at least 1).
    /// - Returns: The request, or why there is none, and its game.
    public static func decode(_ line: [UInt8], games: Int) -> Routed {
        var game: Int?
        let outcome = decode(line, games: games, game: &game)
        return Routed(outcome: outcome, game: game)
    }

    /// The outcome of ``decode(_:games:)``, and in `game` the game it is for.
    private static func decode(_ line: [UInt8], games: Int, game: inout Int?) -> Outcome {
        guard isASCII(line) || String(validating: line, as: UTF8.self) != nil else {
            let failure = DecodingFailure(.invalidUTF8, EngineWords.Phrase(.decodeInvalidUTF8))
            return .failure(failure, replyTo: nil)
        }
        var bytes = line[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return .blank }
        var fields: Fields
        if let members = JSONReader.readFlatObject(bytes) {
            // Nearly every line: its members read straight from its bytes.
            fields = Fields(members: members)
        } else {
            let value: JSONValue
            do {
                value = try JSONReader.read(bytes)
            } catch {
                let code: ErrorCode = error.kind == .tooDeep ? .tooDeep : .malformedJSON
                return .failure(DecodingFailure(code, .notJSON(error)), replyTo: nil)
            }
            guard case .object(let object) = value else {
                let reason = EngineWords.Phrase(.decodeNotAnObject, phrases: ["found": .kind(of: value)])
                return .failure(DecodingFailure(.notAnObject, reason), replyTo: nil)
            }
            fields = Fields(object: object)
        }
        do {
            let id = try fields.requestID()
            fields.replyTo = id
            let named = try fields.optionalInt("game", in: 0...max(0, games - 1))
            game = named ?? 0
            let ifGen = try fields.optionalInt("ifGen", in: 0...maximumInteger)
            let command = try decodeCommand(&fields)
            return .request(Request(id: id, ifGen: ifGen, command: command, game: named))
        } catch {
            return .failure(error, replyTo: fields.replyTo)
        }
    }

    /// Whether every byte of `line` is ASCII (then it is valid UTF-8), eight bytes at a time.
    private static func isASCII(_ line: [UInt8]) -> Bool {
        line.withUnsafeBytes { raw in
            var index = 0
            while raw.count - index >= 8 {
                guard raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 else {
                    return false
                }
                index += 8
            }
            return raw[index...].allSatisfy { $0 < 0x80 }
        }
    }

    /// Why a request naming `game` is refused by an engine that hosts `games` games, as a line naming it
    /// would be.
    ///
    /// - Parameters:
    ///   - game: The game named, outside `0..<games`.
    ///   - games: How many games the engine hosts.
    /// - Returns: The refusal, for field `game`.
    public static func refusal(game: Int, games: Int) -> DecodingFailure {
        do {
            _ = try Fields.int(.int(game), named: "game", in: 0...max(0, games - 1))
        } catch {
            return error
        }
        preconditionFailure("game \(game) is one of the \(games) games")
    }

    /// Decodes one command object without its envelope, as `validActions` lists them.
    ///
    /// - Parameter object: The command's members.
    /// - Returns: The command.
    /// - Throws: Why the object is not a command.
    public static func command(from object: [String: JSONValue]) throws(DecodingFailure) -> Command {
        var fields = Fields(object: object)
        return try decodeCommand(&fields)
    }

    private static func decodeCommand(_ fields: inout Fields) throws(DecodingFailure) -> Command {
        let name = try fields.string("type")
        guard let type = CommandType(wireName: name) else {
            throw DecodingFailure(
                .unknownCommand,
                EngineWords.Phrase(.decodeUnknownCommand, ["type": name]),
                field: "type"
            )
        }
        switch type {
        case .hello:
            return .hello(
                ClientHello(
                    client: try fields.optionalString("client"),
                    acceptedVersions: try fields.versionRequest("protocol"),
                    capabilities: try fields.optionalStrings("capabilities") ?? [],
                    keys: Gesture.fromWireNamed(try fields.optionalStringMap("keys") ?? [:]),
                    want: try fields.optionalStrings("want") ?? [],
                    omit: try fields.optionalStrings("omit") ?? [],
                    timePressure: try fields.optionalBool("timePressure"),
                    locale: try fields.optionalString("locale"),
                    role: try fields.optionalEnumeration("role", ClientRole.self)
                )
            )
        case .next: return .game(.next)
        case .previous: return .game(.previous)
        case .first: return .game(.first)
        case .last: return .game(.last)
        case .focus: return .game(.focus(element: try fields.string("element")))
        case .activate: return .game(.activate(element: try fields.optionalString("element")))
        case .rotor: return try aimed(.rotor(try fields.enumeration("direction", Direction.self)), fields)
        case .rotorItem: return try aimed(.rotorItem(try fields.enumeration("direction", Direction.self)), fields)
        case .action:
            // Both are checked when both are given; the index wins.
            let index = try fields.optionalInt("index", in: 1...maximumInteger)
            let name = try fields.optionalString("name")
            if let index { return try aimed(.action(.index(index)), fields) }
            if let name { return try aimed(.action(.name(name)), fields) }
            throw DecodingFailure(.invalidParams, EngineWords.Phrase(.decodeActionTarget), field: "name")
        case .adjust: return try aimed(.adjust(try fields.enumeration("direction", AdjustDirection.self)), fields)
        case .input:
            let text = try fields.string("text")
            let length = inputLength(of: text)
            guard length <= maximumInputLength else {
                throw DecodingFailure(
                    .inputTooLong,
                    EngineWords.Phrase(.decodeInputTooLong, ["length": "\(length)", "limit": "\(maximumInputLength)"]),
                    field: "text"
                )
            }
            return .game(.input(text: text, element: try fields.optionalString("element")))
        case .magicTap: return .game(.magicTap)
        case .escape: return .game(.escape)
        case .hint: return .game(.hint)
        case .menu: return .game(.menu)
        case .goto:
            return .game(
                .goto(
                    chapter: try fields.int("chapter", in: 1...maximumInteger),
                    level: try fields.int("level", in: 1...maximumInteger)
                )
            )
        case .replay: return .game(.replay)
        case .assistive: return .game(.assistive(active: try fields.bool("active")))
        case .repeat: return .game(.repeatAnnouncement)
        case .state: return .state
        case .ping: return .ping
        case .wait: return .wait(milliseconds: try fields.int("ms", in: 0...maximumWait))
        case .quit: return .quit
        case .validActions: return .validActions(ifChanged: try fields.optionalBool("ifChanged") ?? false)
        case .observe: return .observe(maxActions: try fields.optionalInt("maxActions", in: 0...maximumInteger))
        case .snapshot: return .snapshot
        case .restore: return .restore(blob: try fields.string("blob"))
        case .cancel: return .cancel(target: try fields.requiredRequestID("target"))
        case .batch: return .batch(try decodeBatch(fields))
        }
    }

    /// A decoded line as a version before 1.3 takes it: an `adjust` to the `first` or `last` value (in a
    /// `batch` too) is refused as a bad `direction`, and a bad `direction` names only the two steps, as
    /// those versions always said.
    ///
    /// - Parameter outcome: The line as ``decode(_:)`` read it, for the newest version.
    /// - Returns: The outcome for a version whose `adjust` only steps.
    public static func steppingOnly(_ outcome: Outcome) -> Outcome {
        switch outcome {
        case .blank:
            return outcome
        case .failure(let failure, let replyTo):
            return .failure(steppingOnly(failure), replyTo: replyTo)
        case .request(let request):
            if adjustsToAnEnd(request.command) {
                return .failure(stepsOnly, replyTo: request.id)
            }
            if case .batch(let entries) = request.command,
                let index = entries.firstIndex(where: { adjustsToAnEnd($0.command) })
            {
                return .failure(stepsOnly.inBatch(at: index), replyTo: request.id)
            }
            return outcome
        }
    }

    /// Whether `command` adjusts to the first or last value.
    private static func adjustsToAnEnd(_ command: Command) -> Bool {
        switch command {
        case .game(.adjust(let direction)), .onElement(_, .adjust(let direction)): !direction.isStep
        default: false
        }
    }

    /// A bad `direction` for an `adjust` that only steps.
    private static let stepsOnly = oneOf("direction", AdjustDirection.steps)

    /// `field must be A or B or ...`.
    private static func oneOf(_ field: String, _ choices: [AdjustDirection]) -> DecodingFailure {
        var reason = EngineWords.Phrase(.decodeOneOf, ["field": field])
        reason.list("choices", alternatives: choices.map(\.rawValue))
        return DecodingFailure(.invalidParams, reason, field: field)
    }

    /// The failure a version whose `adjust` only steps gives for `failure`: a bad adjust `direction`
    /// names the steps alone; any other failure is itself.
    private static func steppingOnly(_ failure: DecodingFailure) -> DecodingFailure {
        let anyDirection = oneOf("direction", AdjustDirection.allCases)
        if failure == anyDirection { return stepsOnly }
        if failure.reason.key == .decodeInBatch, failure.field?.hasSuffix(".direction") == true,
            failure.reason.phrases["message"] == anyDirection.reason, let index = failure.reason.values["index"],
            let number = Int(index)
        {
            return stepsOnly.inBatch(at: number)
        }
        return failure
    }

    /// The most commands a `batch` holds.
    public static let maximumBatch = 1000

    /// A batch's commands: each decoded like a command of its own, without `id`, with its own `ifGen`.
    ///
    /// An error about a command names it: its message starts with `commands[i]: ` and its field is
    /// `commands[i]` or `commands[i].FIELD`.
    private static func decodeBatch(_ fields: Fields) throws(DecodingFailure) -> [BatchEntry] {
        let items = try fields.array("commands")
        guard items.count <= maximumBatch else {
            throw DecodingFailure(
                .invalidParams,
                EngineWords.Phrase(.decodeBatchTooLarge, ["limit": "\(maximumBatch)", "count": "\(items.count)"]),
                field: "commands"
            )
        }
        var entries: [BatchEntry] = []
        for (index, item) in items.enumerated() {
            do throws(DecodingFailure) {
                guard case .object(let object) = item else {
                    var reason = EngineWords.Phrase(.decodeBatchedNotAnObject)
                    reason.describe("found", as: item)
                    throw DecodingFailure(.invalidParams, reason)
                }
                var inner = Fields(object: object)
                if object["id"] != nil {
                    throw DecodingFailure(.invalidParams, EngineWords.Phrase(.decodeBatchedID), field: "id")
                }
                if object["game"] != nil {
                    throw DecodingFailure(.invalidParams, EngineWords.Phrase(.decodeBatchedGame), field: "game")
                }
                let ifGen = try inner.optionalInt("ifGen", in: 0...maximumInteger)
                let command = try decodeCommand(&inner)
                switch command {
                case .batch, .hello, .restore, .cancel:
                    throw DecodingFailure(.invalidParams, EngineWords.Phrase(.decodeBatchedForbidden))
                case .game, .onElement, .state, .ping, .wait, .quit, .validActions, .observe, .snapshot:
                    entries.append(BatchEntry(command, ifGen: ifGen))
                }
            } catch {
                throw error.inBatch(at: index)
            }
        }
        return entries
    }

    /// A gesture aimed at the element named in `element`, when there is one: it is focused first.
    private static func aimed(_ command: GameCommand, _ fields: Fields) throws(DecodingFailure) -> Command {
        guard let element = try fields.optionalString("element") else { return .game(command) }
        return .onElement(element: element, command)
    }
}

/// A command object's members: read the general way, or straight from a flat line's bytes.
private enum Members {
    case dictionary([String: JSONValue])
    /// A flat object's members in their order, no name twice (``JSONReader/readFlatObject(_:)``).
    case list([(name: String, value: JSONValue)])

    subscript(name: String) -> JSONValue? {
        switch self {
        case .dictionary(let object): object[name]
        case .list(let members): members.first { $0.name == name }?.value
        }
    }
}

/// Reads a command's fields, naming the field in every error.
private struct Fields {
    let object: Members
    var replyTo: RequestID?

    init(object: [String: JSONValue]) {
        self.object = .dictionary(object)
    }

    init(members: [(name: String, value: JSONValue)]) {
        object = .list(members)
    }

    /// A request id in `name` (`id`, or `cancel`'s `target`): a string, or an integral number within
    /// ±``CommandDecoder/maximumInteger``, read as the integer it is (`1e3` is 1000).
    func requestID(_ name: String = "id") throws(DecodingFailure) -> RequestID? {
        let limit = CommandDecoder.maximumInteger
        switch object[name] {
        case nil:
            return nil
        case .string(let value):
            return .string(value)
        case .some(let value):
            switch Self.integer(value) {
            case .integral(let integer?) where (-limit...limit).contains(integer):
                return .int(integer)
            case .integral:
                let reason = EngineWords.Phrase(
                    .decodeBetween,
                    ["field": name, "lowest": "-\(limit)", "highest": "\(limit)"]
                )
                throw DecodingFailure(.invalidParams, reason, field: name)
            case .fractional, .notANumber:
                throw Self.mismatch(name, .valueStringOrInteger, value)
            }
        }
    }

    /// A request id that must be there.
    func requiredRequestID(_ name: String) throws(DecodingFailure) -> RequestID {
        guard let id = try requestID(name) else { throw missing(name) }
        return id
    }

    /// What a JSON value is as an integer.
    private enum Integral {
        /// A number with an integral value: the value when a 64-bit integer holds it, else `nil`.
        case integral(Int?)
        /// A number with a fraction.
        case fractional
        /// Not a number.
        case notANumber
    }

    /// Reads any JSON number with an integral value as an integer: `1000`, `1000.0`, `1e3` and `1E3` alike
    /// (the reader makes them all `.int`).
    private static func integer(_ value: JSONValue) -> Integral {
        switch value {
        case .int(let integer): .integral(integer)
        case .uint: .integral(nil)
        // The reader decides integrality on the digits: a `.double` below 2^63 has a fraction, even
        // when it is nearest to an integer (`1e-400`, `9007199254740991.0000000001`).
        case .double(let number) where number.magnitude >= 0x1p63: .integral(nil)
        case .double: .fractional
        case .null, .bool, .string, .array, .object: .notANumber
        }
    }

    /// `name` is not what it must be: `expected`, a `value…` phrase.
    private static func mismatch(
        _ name: String,
        _ expected: EngineWords.Key,
        _ found: JSONValue
    ) -> DecodingFailure {
        var reason = EngineWords.Phrase(.decodeWrongType, ["field": name], phrases: ["expected": .init(expected)])
        reason.describe("found", as: found)
        return DecodingFailure(.invalidParams, reason, field: name)
    }

    private func missing(_ name: String) -> DecodingFailure {
        DecodingFailure(.invalidParams, EngineWords.Phrase(.decodeMissingField, ["field": name]), field: name)
    }

    func array(_ name: String) throws(DecodingFailure) -> [JSONValue] {
        switch object[name] {
        case nil: throw missing(name)
        case .array(let items): return items
        case .some(let other): throw Self.mismatch(name, .valueArrayOfObjects, other)
        }
    }

    func optionalString(_ name: String) throws(DecodingFailure) -> String? {
        switch object[name] {
        case nil: return nil
        case .string(let value): return value
        case .some(let other): throw Self.mismatch(name, .valueString, other)
        }
    }

    func string(_ name: String) throws(DecodingFailure) -> String {
        guard let value = try optionalString(name) else { throw missing(name) }
        return value
    }

    /// An integer field: any JSON number with an integral value (`1000`, `1000.0`, `1e3`) within `range`.
    func optionalInt(_ name: String, in range: ClosedRange<Int>) throws(DecodingFailure) -> Int? {
        guard let value = object[name] else { return nil }
        return try Self.int(value, named: name, in: range)
    }

    /// `value` as an integer within `range`, or the error naming `name`.
    static func int(_ value: JSONValue, named name: String, in range: ClosedRange<Int>) throws(DecodingFailure) -> Int {
        switch integer(value) {
        case .integral(let integer?) where range.contains(integer):
            return integer
        case .integral(let integer):
            let lowest = "\(range.lowerBound)"
            let highest = "\(range.upperBound)"
            let reason: EngineWords.Phrase
            if range.upperBound != CommandDecoder.maximumInteger {
                reason = EngineWords.Phrase(.decodeBetween, ["field": name, "lowest": lowest, "highest": highest])
            } else if let integer, integer < range.lowerBound {
                reason = EngineWords.Phrase(.decodeAtLeast, ["field": name, "lowest": lowest])
            } else if integer == nil, case .double(let number) = value, number < 0 {
                reason = EngineWords.Phrase(.decodeAtLeast, ["field": name, "lowest": lowest])
            } else {
                reason = EngineWords.Phrase(.decodeAtMost, ["field": name, "highest": highest])
            }
            throw DecodingFailure(.invalidParams, reason, field: name)
        case .fractional, .notANumber:
            throw Self.mismatch(name, .valueInteger, value)
        }
    }

    /// The protocol versions of a `hello`: `1` (1.0), `[1, 1]`, `[[1, 0], [1, 1]]` or
    /// `{"min": [1, 0], "max": [1, 1]}`.
    func versionRequest(_ name: String) throws(DecodingFailure) -> VersionRequest {
        switch object[name] {
        case nil:
            throw missing(name)
        case .array(let items) where items.first.map({ if case .array = $0 { true } else { false } }) ?? false:
            var versions: [ProtocolVersion] = []
            for (index, item) in items.enumerated() {
                versions.append(try Self.version(item, named: "\(name)[\(index)]"))
            }
            return .versions(versions)
        case .array(let items) where items.isEmpty:
            throw DecodingFailure(.invalidParams, EngineWords.Phrase(.decodeNoVersion, ["field": name]), field: name)
        case .array(let items):
            return .versions([try Self.version(.array(items), named: name)])
        case .object(let members):
            let range = Fields(object: members)
            guard let min = range.object["min"] else { throw missing("\(name).min") }
            guard let max = range.object["max"] else { throw missing("\(name).max") }
            let lowest = try Self.version(min, named: "\(name).min")
            let highest = try Self.version(max, named: "\(name).max")
            // A range whose min is above its max holds no version: unsupported, not malformed.
            return .range(min: lowest, max: highest)
        case .some(let value):
            if case .notANumber = Self.integer(value) {
                var reason = EngineWords.Phrase(
                    .decodeWrongType,
                    ["field": name],
                    phrases: ["expected": EngineWords.Phrase(.valueVersions, ["range": "{min, max}"])]
                )
                reason.describe("found", as: value)
                throw DecodingFailure(.invalidParams, reason, field: name)
            }
            let major = try Self.int(value, named: name, in: 0...CommandDecoder.maximumInteger)
            return .versions([ProtocolVersion(major: major, minor: 0)])
        }
    }

    /// A `[major, minor]` pair.
    private static func version(_ value: JSONValue, named name: String) throws(DecodingFailure) -> ProtocolVersion {
        guard case .array(let parts) = value, parts.count == 2 else {
            guard case .array(let parts) = value else { throw Self.mismatch(name, .valueVersionPair, value) }
            let reason = EngineWords.Phrase(
                .decodeWrongType,
                ["field": name],
                phrases: [
                    "expected": EngineWords.Phrase(.valueVersionPair),
                    "found": EngineWords.Phrase(.valueItems, ["count": "\(parts.count)"]),
                ]
            )
            throw DecodingFailure(.invalidParams, reason, field: name)
        }
        return ProtocolVersion(
            major: try int(parts[0], named: "\(name)[0]", in: 0...CommandDecoder.maximumInteger),
            minor: try int(parts[1], named: "\(name)[1]", in: 0...CommandDecoder.maximumInteger)
        )
    }

    func int(_ name: String, in range: ClosedRange<Int>) throws(DecodingFailure) -> Int {
        guard let value = try optionalInt(name, in: range) else { throw missing(name) }
        return value
    }

    func bool(_ name: String) throws(DecodingFailure) -> Bool {
        guard let value = try optionalBool(name) else { throw missing(name) }
        return value
    }

    func optionalBool(_ name: String) throws(DecodingFailure) -> Bool? {
        switch object[name] {
        case nil: return nil
        case .bool(let value): return value
        case .some(let other): throw Self.mismatch(name, .valueBoolean, other)
        }
    }

    func enumeration<Value: RawRepresentable & CaseIterable>(
        _ name: String,
        _ type: Value.Type
    ) throws(DecodingFailure) -> Value where Value.RawValue == String {
        let raw = try string(name)
        guard let value = Value(rawValue: raw) else {
            var reason = EngineWords.Phrase(.decodeOneOf, ["field": name])
            reason.list("choices", alternatives: Value.allCases.map(\.rawValue))
            throw DecodingFailure(.invalidParams, reason, field: name)
        }
        return value
    }

    func optionalEnumeration<Value: RawRepresentable & CaseIterable>(
        _ name: String,
        _ type: Value.Type
    ) throws(DecodingFailure) -> Value? where Value.RawValue == String {
        object[name] == nil ? nil : try enumeration(name, type)
    }

    func optionalStrings(_ name: String) throws(DecodingFailure) -> [String]? {
        switch object[name] {
        case nil: return nil
        case .array(let values):
            var strings: [String] = []
            for value in values {
                guard case .string(let text) = value else { throw Self.mismatch(name, .valueArrayOfStrings, value) }
                strings.append(text)
            }
            return strings
        case .some(let other): throw Self.mismatch(name, .valueArrayOfStrings, other)
        }
    }

    func optionalStringMap(_ name: String) throws(DecodingFailure) -> [String: String]? {
        switch object[name] {
        case nil: return nil
        case .object(let members):
            var map: [String: String] = [:]
            for (key, value) in members {
                guard case .string(let text) = value else { throw Self.mismatch("\(name).\(key)", .valueString, value) }
                map[key] = text
            }
            return map
        case .some(let other): throw Self.mismatch(name, .valueObjectOfStrings, other)
        }
    }
}
