// SPDX-License-Identifier: Apache-2.0
import EscapeJSON
import Foundation
import Testing

/// A bit of everything synthesized `Codable` produces: optionals, enums with associated values,
/// dictionaries, nested arrays, and integers at the edges of 64 bits.
private struct Sample: Codable, Hashable {
    enum Place: Codable, Hashable {
        case intro(page: Int)
        case chapter(Int)
        case level(Int, [Int?])
        case menu
    }

    var text: String
    var missing: String?
    var present: Int?
    var places: [Place]
    var names: [String: String]
    var big: UInt64
    var small: Int64
    var flag: Bool
    var ratio: Double
    var tiny: Int8
    var float: Float
}

private let sample = Sample(
    text: "a/b \"q\" \\ \u{8}\u{C}\n\r\t\u{1}\u{1F}\u{7F} é 😀 \u{2028}\u{85}",
    missing: nil,
    present: 0,
    places: [.intro(page: 2), .chapter(1), .level(3, [nil, 1, -1]), .menu],
    names: ["Z": "z", "a": "/", "_0": "", "\u{E9}": "é", "a10": "x", "a9": "y"],
    big: .max,
    small: .min,
    flag: true,
    ratio: 0.1,
    tiny: -128,
    float: 1.1
)

struct JSONValueEncoderTests {
    @Test func writesTheSameBytesAsFoundationsJSONEncoder() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let foundation = try encoder.encode(sample)
        var ours: [UInt8] = []
        JSONWriter.write(try JSONValueEncoder().encode(sample), into: &ours, style: .jsonEncoder)
        #expect(String(decoding: ours, as: UTF8.self) == String(decoding: foundation, as: UTF8.self))
    }

    @Test func leavesOutNilOptionalsAndSpellsEnumCasesLikeFoundation() throws {
        let value = try JSONValueEncoder().encode(sample)
        guard case .object(let members) = value else {
            Issue.record("not an object: \(value)")
            return
        }
        #expect(members["missing"] == nil)
        #expect(members["present"] == .int(0))
        #expect(
            members["places"]
                == [
                    ["intro": ["page": 2]], ["chapter": ["_0": 1]], ["level": ["_0": 3, "_1": [nil, 1, -1]]],
                    ["menu": [:]],
                ]
        )
        #expect(members["big"] == .uint(.max))
        #expect(members["small"] == .int(Int(Int64.min)))
    }

    @Test func refusesNumbersJSONCannotHold() {
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode([Double.infinity]) }
    }
}

struct JSONValueDecoderTests {
    private struct DecodedAnyway: Error {}

    @Test func readsBackWhatTheEncoderWrote() throws {
        let value = try JSONValueEncoder().encode(sample)
        #expect(try JSONValueDecoder().decode(Sample.self, from: value) == sample)
    }

    @Test func readsWhatFoundationWroteThroughTheStrictReader() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let value = try JSONReader.read(Array(try encoder.encode(sample)))
        #expect(try JSONValueDecoder().decode(Sample.self, from: value) == sample)
    }

    @Test func keepsIntegersBeyondDoublePrecisionExact() throws {
        let numbers: [UInt64] = [9_007_199_254_740_993, 9_223_372_036_854_775_808, .max]
        let value = try JSONReader.read(Array(JSONWriter.string(try JSONValueEncoder().encode(numbers)).utf8))
        #expect(try JSONValueDecoder().decode([UInt64].self, from: value) == numbers)
        let signed: [Int64] = [-9_007_199_254_740_993, .min, .max]
        #expect(try JSONValueDecoder().decode([Int64].self, from: try JSONValueEncoder().encode(signed)) == signed)
    }

    @Test func acceptsIntegralNumbersWrittenWithAFractionLikeFoundation() throws {
        // The reader makes an integral number `.int` however it is written; a `.double` has a fraction.
        let written = try JSONReader.read(Array("[1.0, 100.00, 1e2]".utf8))
        #expect(try JSONValueDecoder().decode([Int].self, from: written) == [1, 100, 100])
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode([Int].self, from: [.double(1.5)]) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode([Int8].self, from: [300]) }
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode([Int64].self, from: [.uint(.max)]) }
    }

    /// The coding path of the error `decode` throws, as `$.a[1].b`.
    private func failure(_ json: String) throws -> (path: String, error: DecodingError) {
        do {
            _ = try JSONValueDecoder().decode(Sample.self, from: try JSONReader.read(Array(json.utf8)))
        } catch let error as DecodingError {
            let context: DecodingError.Context
            switch error {
            case .typeMismatch(_, let found), .valueNotFound(_, let found), .keyNotFound(_, let found),
                .dataCorrupted(let found):
                context = found
            @unknown default:
                throw error
            }
            let path = context.codingPath.reduce("$") { path, key in
                key.intValue.map { "\(path)[\($0)]" } ?? "\(path).\(key.stringValue)"
            }
            return (path, error)
        }
        Issue.record("it decoded without an error")
        throw DecodedAnyway()
    }

    private var valid: [String: JSONValue] {
        get throws {
            guard case .object(let members) = try JSONValueEncoder().encode(sample) else { return [:] }
            return members
        }
    }

    @Test func namesThePathOfAWrongType() throws {
        var members = try valid
        members["places"] = [["level": ["_0": 3, "_1": [nil, "one"]]]]
        let (path, error) = try failure(JSONWriter.string(.object(members)))
        #expect(path == "$.places[0].level._1[1]")
        guard case .typeMismatch(let type, _) = error else { throw error }
        #expect(type is Int.Type)
    }

    @Test func namesThePathOfAMissingKeyAndOfANull() throws {
        var members = try valid
        members["text"] = nil
        let (path, error) = try failure(JSONWriter.string(.object(members)))
        #expect(path == "$")
        guard case .keyNotFound(let key, _) = error else { throw error }
        #expect(key.stringValue == "text")

        members = try valid
        members["flag"] = .null
        let (nullPath, nullError) = try failure(JSONWriter.string(.object(members)))
        #expect(nullPath == "$.flag")
        guard case .valueNotFound = nullError else { throw nullError }
    }

    @Test func namesThePathOfAnArrayWhereAnObjectBelongs() throws {
        var members = try valid
        members["places"] = [[1]]
        let (path, error) = try failure(JSONWriter.string(.object(members)))
        #expect(path == "$.places[0]")
        guard case .typeMismatch = error else { throw error }
    }
}

/// An integer property never takes a number with a fraction, however near an integer it is (issue 26 G).
struct FractionNeverIntegerTests {
    @Test(arguments: ["1e-400", "9007199254740991.0000000001", "2.0000000000000001"])
    func anIntegerPropertyRefusesAFraction(text: String) throws {
        let value = try JSONReader.read(Array("[\(text)]".utf8))
        #expect(throws: DecodingError.self) { try JSONValueDecoder().decode([Int].self, from: value) }
        #expect(throws: Never.self) { try JSONValueDecoder().decode([Double].self, from: value) }
    }

    @Test func anIntegerPropertyTakesAnIntegralNumberWrittenAnyWay() throws {
        let value = try JSONReader.read(Array("[1e3, 1000.0, 10000e-1]".utf8))
        #expect(try JSONValueDecoder().decode([Int].self, from: value) == [1000, 1000, 1000])
    }
}
