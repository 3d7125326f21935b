import EscapeCore
import EscapeJSON

/// Turns one framed line into a request, or into the error the protocol answers it with.
public enum CommandDecoder {
    /// The longest text `input` accepts, in characters.
    public static let maximumInputLength = 1000
    /// The longest `wait`, in milliseconds: one day.
    public static let maximumWait = 86_400_000

    /// What a line turned out to be.
    public enum Outcome: Sendable, Hashable {
        /// A request to carry out.
        case request(Request)
        /// An empty line or one of blanks: ignored, no reply.
        case blank
        /// A line answered with an error; `replyTo` is its id when one could be read.
        case failure(ProtocolError, replyTo: RequestID?)
    }

    /// Decodes one line (without its terminator).
    ///
    /// - Parameter line: The line's bytes.
    /// - Returns: The request, or why there is none.
    public static func decode(_ line: [UInt8]) -> Outcome {
        guard String(validating: line, as: UTF8.self) != nil else {
            return .failure(ProtocolError(.invalidUTF8, "the line is not valid UTF-8"), replyTo: nil)
        }
        var bytes = line[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return .blank }
        let value: JSONValue
        do {
            value = try JSONReader.read(bytes)
        } catch {
            let code: ErrorCode = error.kind == .tooDeep ? .tooDeep : .malformedJSON
            return .failure(ProtocolError(code, "not valid JSON: \(error)"), replyTo: nil)
        }
        guard case .object(let object) = value else {
            return .failure(
                ProtocolError(
                    .notAnObject,
                    "a command is a JSON object, not \(value.typeName == "array" ? "an" : "a") \(value.typeName)"
                ),
                replyTo: nil
            )
        }
        var fields = Fields(object: object)
        do {
            let id = try fields.requestID()
            fields.replyTo = id
            let ifGen = try fields.optionalInt("ifGen", in: 0...Int.max)
            let command = try decodeCommand(&fields)
            return .request(Request(id: id, ifGen: ifGen, command: command))
        } catch {
            return .failure(error, replyTo: fields.replyTo)
        }
    }

    private static func decodeCommand(_ fields: inout Fields) throws(ProtocolError) -> Command {
        let type = try fields.string("type")
        switch type {
        case "hello":
            return .hello(
                ClientHello(
                    client: try fields.optionalString("client"),
                    protocolVersion: try fields.int("protocol", in: 0...Int.max),
                    capabilities: try fields.optionalStrings("capabilities") ?? [],
                    keys: try fields.optionalStringMap("keys") ?? [:],
                    want: try fields.optionalStrings("want") ?? [],
                    timePressure: try fields.optionalBool("timePressure")
                )
            )
        case "next": return .game(.next)
        case "previous": return .game(.previous)
        case "first": return .game(.first)
        case "last": return .game(.last)
        case "focus": return .game(.focus(element: try fields.string("element")))
        case "activate": return .game(.activate(element: try fields.optionalString("element")))
        case "rotor": return try aimed(.rotor(try fields.enumeration("direction", Direction.self)), fields)
        case "rotorItem": return try aimed(.rotorItem(try fields.enumeration("direction", Direction.self)), fields)
        case "action":
            if let index = try fields.optionalInt("index", in: 1...Int.max) {
                return try aimed(.action(.index(index)), fields)
            }
            if let name = try fields.optionalString("name") { return try aimed(.action(.name(name)), fields) }
            throw ProtocolError(.invalidParams, "action needs a name or an index", field: "name")
        case "adjust": return try aimed(.adjust(try fields.enumeration("direction", AdjustDirection.self)), fields)
        case "input":
            let text = try fields.string("text")
            guard text.count <= maximumInputLength else {
                throw ProtocolError(
                    .inputTooLong,
                    "text is \(text.count) characters long; the limit is \(maximumInputLength)",
                    field: "text"
                )
            }
            return .game(.input(text: text, element: try fields.optionalString("element")))
        case "magicTap": return .game(.magicTap)
        case "escape": return .game(.escape)
        case "hint": return .game(.hint)
        case "menu": return .game(.menu)
        case "goto":
            return .game(
                .goto(
                    chapter: try fields.int("chapter", in: 1...Int.max),
                    level: try fields.int("level", in: 1...Int.max)
                )
            )
        case "replay": return .game(.replay)
        case "assistive": return .game(.assistive(active: try fields.bool("active")))
        case "repeat": return .game(.repeatAnnouncement)
        case "state": return .state
        case "ping": return .ping
        case "wait": return .wait(milliseconds: try fields.int("ms", in: 0...maximumWait))
        case "quit": return .quit
        case "validActions": return .validActions
        case "snapshot": return .snapshot
        case "restore": return .restore(blob: try fields.string("blob"))
        case "batch":
            let objects = try fields.objects("commands")
            guard objects.count <= maximumBatch else {
                throw ProtocolError(
                    .invalidParams,
                    "a batch holds at most \(maximumBatch) commands, not \(objects.count)",
                    field: "commands"
                )
            }
            var commands: [Command] = []
            for (index, object) in objects.enumerated() {
                var inner = Fields(object: object)
                do throws(ProtocolError) {
                    let command = try decodeCommand(&inner)
                    switch command {
                    case .batch, .hello, .restore:
                        throw ProtocolError(.invalidParams, "a batch cannot hold hello, restore or another batch")
                    default:
                        commands.append(command)
                    }
                } catch {
                    var located = error
                    located.message = "commands[\(index)]: \(error.message)"
                    located.field = "commands[\(index)]" + (error.field.map { "." + $0 } ?? "")
                    throw located
                }
            }
            return .batch(commands)
        default:
            throw ProtocolError(.unknownCommand, "unknown command \"\(type)\"", field: "type")
        }
    }

    /// The most commands a `batch` holds.
    public static let maximumBatch = 1000

    /// A gesture aimed at the element named in `element`, when there is one: it is focused first.
    private static func aimed(_ command: GameCommand, _ fields: Fields) throws(ProtocolError) -> Command {
        guard let element = try fields.optionalString("element") else { return .game(command) }
        return .onElement(element: element, command)
    }
}

/// Reads a command's fields, naming the field in every error.
private struct Fields {
    let object: [String: JSONValue]
    var replyTo: RequestID?

    init(object: [String: JSONValue]) {
        self.object = object
    }

    func requestID() throws(ProtocolError) -> RequestID? {
        switch object["id"] {
        case nil, .null: return nil
        case .int(let value): return .int(value)
        case .string(let value): return .string(value)
        case .some(let other):
            throw ProtocolError(
                .invalidParams,
                "id must be a string or an integer, not a \(other.typeName)",
                field: "id"
            )
        }
    }

    private func mismatch(_ name: String, _ expected: String, _ found: JSONValue) -> ProtocolError {
        ProtocolError(.invalidParams, "\(name) must be \(expected), not a \(found.typeName)", field: name)
    }

    private func missing(_ name: String) -> ProtocolError {
        ProtocolError(.invalidParams, "missing required field \(name)", field: name)
    }

    func objects(_ name: String) throws(ProtocolError) -> [[String: JSONValue]] {
        switch object[name] {
        case nil, .null: throw missing(name)
        case .array(let items):
            var objects: [[String: JSONValue]] = []
            for item in items {
                guard case .object(let object) = item else { throw mismatch(name, "an array of objects", item) }
                objects.append(object)
            }
            return objects
        case .some(let other): throw mismatch(name, "an array of objects", other)
        }
    }

    func optionalString(_ name: String) throws(ProtocolError) -> String? {
        switch object[name] {
        case nil, .null: return nil
        case .string(let value): return value
        case .some(let other): throw mismatch(name, "a string", other)
        }
    }

    func string(_ name: String) throws(ProtocolError) -> String {
        guard let value = try optionalString(name) else { throw missing(name) }
        return value
    }

    func optionalInt(_ name: String, in range: ClosedRange<Int>) throws(ProtocolError) -> Int? {
        switch object[name] {
        case nil, .null: return nil
        case .int(let value):
            guard range.contains(value) else {
                let bound =
                    range.upperBound == Int.max
                    ? "at least \(range.lowerBound)" : "between \(range.lowerBound) and \(range.upperBound)"
                throw ProtocolError(.invalidParams, "\(name) must be \(bound)", field: name)
            }
            return value
        case .uint:
            throw ProtocolError(.invalidParams, "\(name) is out of range", field: name)
        case .double(let value) where value.rounded() == value:
            throw ProtocolError(.invalidParams, "\(name) is out of range", field: name)
        case .some(let other): throw mismatch(name, "an integer", other)
        }
    }

    func int(_ name: String, in range: ClosedRange<Int>) throws(ProtocolError) -> Int {
        guard let value = try optionalInt(name, in: range) else { throw missing(name) }
        return value
    }

    func bool(_ name: String) throws(ProtocolError) -> Bool {
        guard let value = try optionalBool(name) else { throw missing(name) }
        return value
    }

    func optionalBool(_ name: String) throws(ProtocolError) -> Bool? {
        switch object[name] {
        case nil, .null: return nil
        case .bool(let value): return value
        case .some(let other): throw mismatch(name, "a boolean", other)
        }
    }

    func enumeration<Value: RawRepresentable & CaseIterable>(
        _ name: String,
        _ type: Value.Type
    ) throws(ProtocolError) -> Value where Value.RawValue == String {
        let raw = try string(name)
        guard let value = Value(rawValue: raw) else {
            let choices = Value.allCases.map(\.rawValue).joined(separator: " or ")
            throw ProtocolError(.invalidParams, "\(name) must be \(choices)", field: name)
        }
        return value
    }

    func optionalStrings(_ name: String) throws(ProtocolError) -> [String]? {
        switch object[name] {
        case nil, .null: return nil
        case .array(let values):
            var strings: [String] = []
            for value in values {
                guard case .string(let text) = value else { throw mismatch(name, "an array of strings", value) }
                strings.append(text)
            }
            return strings
        case .some(let other): throw mismatch(name, "an array of strings", other)
        }
    }

    func optionalStringMap(_ name: String) throws(ProtocolError) -> [String: String]? {
        switch object[name] {
        case nil, .null: return nil
        case .object(let members):
            var map: [String: String] = [:]
            for (key, value) in members {
                guard case .string(let text) = value else { throw mismatch("\(name).\(key)", "a string", value) }
                map[key] = text
            }
            return map
        case .some(let other): throw mismatch(name, "an object of strings", other)
        }
    }
}
