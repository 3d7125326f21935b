// SPDX-License-Identifier: Apache-2.0
public import EscapeCore
import EscapeJSON

/// Why a line is not a request: its error code and field, and why as a phrase of the engine's words,
/// for the session to say in its adventure's language.
///
/// The decoder speaks no language of its own, as the core's `CommandRefusal` does not: a failure
/// holds the sentence's key and values, and ``ProtocolError/init(_:in:)`` says it.
public struct DecodingFailure: Error, Sendable, Hashable {
    /// The code, for programs.
    public var code: ErrorCode
    /// Why, as a sentence of the engine's words and its values.
    public var reason: EngineWords.Phrase
    /// The offending field, when one is to blame.
    public var field: String?

    /// Creates a failure.
    ///
    /// - Parameters:
    ///   - code: The code, for programs.
    ///   - reason: Why, as a sentence of the engine's words.
    ///   - field: The offending field, when one is to blame.
    public init(_ code: ErrorCode, _ reason: EngineWords.Phrase, field: String? = nil) {
        self.code = code
        self.reason = reason
        self.field = field
    }

    /// The failure of a batch's command at `index`: its message framed by `commands[i]: `, its field
    /// `commands[i]` or `commands[i].FIELD`.
    func inBatch(at index: Int) -> DecodingFailure {
        DecodingFailure(
            code,
            EngineWords.Phrase(.decodeInBatch, ["index": "\(index)"], phrases: ["message": reason]),
            field: "commands[\(index)]" + (field.map { "." + $0 } ?? "")
        )
    }
}

extension ProtocolError {
    /// The protocol form of a line the decoder refused, said in `words`.
    public init(_ failure: DecodingFailure, in words: EngineWords) {
        self.init(failure.code, words.text(failure.reason), field: failure.field)
    }
}

extension EngineWords.Phrase {
    /// Fills the placeholder `name` with what `value` is: a number is itself (`1.5`), any other value
    /// its kind with its article (`a string`, `null`).
    mutating func describe(_ name: String, as value: JSONValue) {
        switch value {
        case .int(let number): values[name] = "\(number)"
        case .uint(let number): values[name] = "\(number)"
        // A fraction the nearest double rounds to 0 (`1e-400`): an exact 0 is always `.int(0)`.
        case .double(let number) where number == 0: phrases[name] = EngineWords.Phrase(.valueTinyFraction)
        case .double(let number): values[name] = "\(number)"
        case .null: phrases[name] = EngineWords.Phrase(.valueNull)
        case .bool: phrases[name] = EngineWords.Phrase(.valueBoolean)
        case .string: phrases[name] = EngineWords.Phrase(.valueString)
        case .array: phrases[name] = EngineWords.Phrase(.valueArray)
        case .object: phrases[name] = EngineWords.Phrase(.valueObject)
        }
    }

    /// Fills the placeholder `name` with `choices` joined by ``EngineWords/Key/alternative``: `a or b or c`.
    mutating func list(_ name: String, alternatives choices: [String]) {
        guard choices.count > 1 else {
            values[name] = choices.first ?? ""
            return
        }
        var joined = EngineWords.Phrase(.alternative, ["first": choices[0], "second": choices[1]])
        for choice in choices.dropFirst(2) {
            joined = EngineWords.Phrase(.alternative, ["second": choice], phrases: ["first": joined])
        }
        phrases[name] = joined
    }

    /// The kind of `value` with its article, whatever the value (`a number`, `a null`).
    static func kind(of value: JSONValue) -> EngineWords.Phrase {
        switch value {
        case .null: EngineWords.Phrase(.valueNullType)
        case .bool: EngineWords.Phrase(.valueBoolean)
        case .int, .uint, .double: EngineWords.Phrase(.valueNumber)
        case .string: EngineWords.Phrase(.valueString)
        case .array: EngineWords.Phrase(.valueArray)
        case .object: EngineWords.Phrase(.valueObject)
        }
    }

    /// Why a line is not JSON, where.
    static func notJSON(_ error: JSONReadError) -> EngineWords.Phrase {
        let problem: EngineWords.Phrase =
            switch error.problem {
            case .unexpectedEnd: EngineWords.Phrase(.jsonUnexpectedEnd)
            case .unexpectedCharacter: EngineWords.Phrase(.jsonUnexpectedCharacter)
            case .trailingData: EngineWords.Phrase(.jsonTrailingData)
            case .expectedKey: EngineWords.Phrase(.jsonExpectedKey)
            case .expectedColon: EngineWords.Phrase(.jsonExpectedColon)
            case .expectedCommaOrBrace: EngineWords.Phrase(.jsonExpectedCommaOrBrace)
            case .expectedCommaOrBracket: EngineWords.Phrase(.jsonExpectedCommaOrBracket)
            case .controlCharacter: EngineWords.Phrase(.jsonControlCharacter)
            case .invalidEscape: EngineWords.Phrase(.jsonInvalidEscape)
            case .invalidUnicodeEscape: EngineWords.Phrase(.jsonInvalidUnicodeEscape)
            case .unterminatedString: EngineWords.Phrase(.jsonUnterminatedString)
            case .invalidNumber: EngineWords.Phrase(.jsonInvalidNumber)
            case .numberOutOfRange: EngineWords.Phrase(.jsonNumberOutOfRange)
            case .tooDeep(let limit): EngineWords.Phrase(.jsonTooDeep, ["limit": "\(limit)"])
            case .loneLowSurrogate: EngineWords.Phrase(.jsonLoneLowSurrogate)
            case .loneHighSurrogate: EngineWords.Phrase(.jsonLoneHighSurrogate)
            case .unpairedHighSurrogate: EngineWords.Phrase(.jsonUnpairedHighSurrogate)
            case .duplicateKey(let key): EngineWords.Phrase(.jsonDuplicateKey, ["key": key])
            }
        return EngineWords.Phrase(.decodeNotJSON, ["offset": "\(error.offset)"], phrases: ["problem": problem])
    }
}
