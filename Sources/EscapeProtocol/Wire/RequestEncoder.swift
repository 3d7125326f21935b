// SPDX-License-Identifier: Apache-2.0
import EscapeCore
public import EscapeJSON

/// Writes requests in their wire form, as a client sends them: the inverse of ``CommandDecoder``.
public enum RequestEncoder {
    /// Appends one request's line, `\n` included, to `output`.
    ///
    /// - Parameters:
    ///   - request: The command and its envelope.
    ///   - output: Receives UTF-8 bytes.
    public static func encode(_ request: Request, into output: inout [UInt8]) {
        JSONWriter.write(json(request), into: &output)
        output.append(UInt8(ascii: "\n"))
    }

    /// The request as a JSON object.
    public static func json(_ request: Request) -> JSONValue {
        var object = body(request.command)
        if let id = request.id { object["id"] = id.json }
        if let ifGen = request.ifGen { object["ifGen"] = .int(ifGen) }
        return .object(object)
    }

    private static func body(_ command: Command) -> [String: JSONValue] {
        switch command {
        case .hello(let hello):
            return body(hello)
        case .game(let gesture):
            return members(CommandEncoder.json(gesture))
        case .onElement(let element, let gesture):
            return members(CommandEncoder.json(gesture, element: element))
        case .state, .ping, .quit, .validActions(ifChanged: false), .snapshot:
            return ["type": .string(command.wireName)]
        case .validActions(ifChanged: true): return ["type": .string(command.wireName), "ifChanged": .bool(true)]
        case .observe(let maxActions):
            var object: [String: JSONValue] = ["type": .string(command.wireName)]
            if let maxActions { object["maxActions"] = .int(maxActions) }
            return object
        case .wait(let milliseconds): return ["type": .string(command.wireName), "ms": .int(milliseconds)]
        case .restore(let blob): return ["type": .string(command.wireName), "blob": .string(blob)]
        case .cancel(let target): return ["type": .string(command.wireName), "target": target.json]
        case .batch(let entries):
            let commands = entries.map { entry -> JSONValue in
                var object = body(entry.command)
                if let ifGen = entry.ifGen { object["ifGen"] = .int(ifGen) }
                return .object(object)
            }
            return ["type": .string(command.wireName), "commands": .array(commands)]
        }
    }

    private static func body(_ hello: ClientHello) -> [String: JSONValue] {
        var object: [String: JSONValue] = [
            "type": .string(CommandType.hello.wireName), "protocol": json(hello.acceptedVersions),
        ]
        if let client = hello.client { object["client"] = .string(client) }
        if !hello.capabilities.isEmpty { object["capabilities"] = .array(hello.capabilities.map(JSONValue.string)) }
        if !hello.keys.isEmpty { object["keys"] = .object(Gesture.wireNamed(hello.keys).mapValues(JSONValue.string)) }
        if !hello.want.isEmpty { object["want"] = .array(hello.want.map(JSONValue.string)) }
        if !hello.omit.isEmpty { object["omit"] = .array(hello.omit.map(JSONValue.string)) }
        if let timePressure = hello.timePressure { object["timePressure"] = .bool(timePressure) }
        if let locale = hello.locale { object["locale"] = .string(locale) }
        if let role = hello.role { object["role"] = .string(role.rawValue) }
        return object
    }

    /// `[major, minor]` for one version, a list of pairs for several, `{min, max}` for a range.
    private static func json(_ request: VersionRequest) -> JSONValue {
        switch request {
        case .versions(let versions) where versions.count == 1:
            return json(versions[0])
        case .versions(let versions):
            return .array(versions.map(json))
        case .range(let min, let max):
            return ["min": json(min), "max": json(max)]
        }
    }

    private static func json(_ version: ProtocolVersion) -> JSONValue {
        [.int(version.major), .int(version.minor)]
    }

    private static func members(_ value: JSONValue) -> [String: JSONValue] {
        guard case .object(let members) = value else { preconditionFailure("a command is an object") }
        return members
    }
}
