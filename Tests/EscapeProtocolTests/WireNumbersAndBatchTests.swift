// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeProtocol
import Testing

/// Protocol 1.1's decoding rules, written as lines: integral numbers, safe ids, code points, batched
/// ids and `ifGen`, `cancel`, and `hello` version requests.
struct WireNumbersAndBatchTests {
    private func decode(_ text: String) -> CommandDecoder.Outcome {
        CommandDecoder.decode(Array(text.utf8))
    }

    /// The error a line gets, if any: its code, field and `replyTo`.
    private func refusal(_ text: String) -> (code: ErrorCode, field: String?, replyTo: RequestID?)? {
        if case .failure(let error, let replyTo) = decode(text) { return (error.code, error.field, replyTo) }
        return nil
    }

    @Test(arguments: ["1000", "1000.0", "1e3", "1E3", "1.0e3", "10000e-1", "1000.000"])
    func anIntegralNumberIsAnInteger(_ spelling: String) {
        #expect(decode(#"{"type":"wait","ms":\#(spelling)}"#) == .request(Request(command: .wait(milliseconds: 1000))))
        #expect(
            decode(#"{"type":"goto","chapter":\#(spelling),"level":1e0}"#)
                == .request(Request(command: .game(.goto(chapter: 1000, level: 1))))
        )
        #expect(
            decode(#"{"type":"ping","ifGen":\#(spelling)}"#) == .request(Request(ifGen: 1000, command: .ping))
        )
        #expect(
            decode(#"{"type":"action","index":\#(spelling)}"#)
                == .request(Request(command: .game(.action(.index(1000)))))
        )
    }

    @Test(
        arguments: [
            (#"{"type":"wait","ms":1.5}"#, "ms"), (#"{"type":"wait","ms":1e-3}"#, "ms"),
            (#"{"type":"ping","ifGen":0.5}"#, "ifGen"), (#"{"type":"goto","chapter":1,"level":2.25}"#, "level"),
            (#"{"type":"action","index":1.0000001}"#, "index"), (#"{"type":"wait","ms":86400001.0}"#, "ms"),
            (#"{"type":"ping","ifGen":9007199254740992}"#, "ifGen"), (#"{"type":"ping","ifGen":1e300}"#, "ifGen"),
            (#"{"type":"goto","chapter":18446744073709551616,"level":1}"#, "chapter"),
            (#"{"type":"ping","ifGen":-1e300}"#, "ifGen"),
        ]
    )
    func aFractionalOrOutOfRangeNumberIsRefusedNamingItsField(_ sample: (String, String)) {
        let answer = refusal(sample.0)
        #expect(answer?.code == .invalidParams, "\(sample.0)")
        #expect(answer?.field == sample.1, "\(sample.0)")
    }

    @Test func integerIDsAreSafeIntegersEchoedAsIntegers() {
        #expect(decode(#"{"type":"ping","id":1e3}"#) == .request(Request(id: .int(1000), command: .ping)))
        #expect(decode(#"{"type":"ping","id":-0.0}"#) == .request(Request(id: .int(0), command: .ping)))
        #expect(
            decode(#"{"type":"ping","id":9007199254740991}"#)
                == .request(Request(id: .int(9_007_199_254_740_991), command: .ping))
        )
        #expect(
            decode(#"{"type":"ping","id":-9007199254740991}"#)
                == .request(Request(id: .int(-9_007_199_254_740_991), command: .ping))
        )
        for id in ["9007199254740992", "-9007199254740992", "1e300", "18446744073709551615", "1.5", "null", "true"] {
            let answer = refusal(#"{"type":"ping","id":\#(id)}"#)
            #expect(answer?.code == .invalidParams, "id \(id)")
            #expect(answer?.field == "id", "id \(id)")
            #expect(answer?.replyTo == nil, "id \(id)")
        }
    }

    @Test func bothActionFieldsAreChecked() {
        #expect(refusal(#"{"type":"action","index":1,"name":3}"#)?.field == "name")
        #expect(refusal(#"{"type":"action","index":"1","name":"Pump"}"#)?.field == "index")
    }

    @Test func nullIsNotAValueOfAnyField() {
        #expect(refusal(#"{"type":"activate","element":null}"#)?.field == "element")
        #expect(refusal(#"{"type":"next","ifGen":null}"#)?.field == "ifGen")
        #expect(refusal(#"{"type":"focus","element":null}"#)?.field == "element")
        #expect(refusal(#"{"type":"hello","protocol":1,"keys":null}"#)?.field == "keys")
    }

    @Test func inputCountsCodePointsNotGraphemeClusters() {
        let accent = "e\u{301}"  // one character on screen, two code points
        let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}"  // one emoji, five code points
        for (unit, points) in [(accent, 2), (family, 5)] {
            let longest = String(repeating: unit, count: CommandDecoder.maximumInputLength / points)
            #expect(refusal(#"{"type":"input","text":"\#(longest)"}"#) == nil)
            let answer = refusal(#"{"type":"input","text":"\#(longest)\#(unit)"}"#)
            #expect(answer?.code == .inputTooLong)
            #expect(answer?.field == "text")
        }
        let escaped = String(repeating: #"\ud83d\ude00"#, count: CommandDecoder.maximumInputLength)
        #expect(refusal(#"{"type":"input","text":"\#(escaped)"}"#) == nil)
        #expect(refusal(#"{"type":"input","text":"a\#(escaped)"}"#)?.code == .inputTooLong)
    }

    @Test(
        arguments: [
            (#"{"type":"batch","commands":[{"type":"next","id":1}]}"#, "commands[0].id"),
            (#"{"type":"batch","commands":[{"type":"next"},{"type":"next","id":null}]}"#, "commands[1].id"),
            (#"{"type":"batch","commands":[{"type":"next","ifGen":"x"}]}"#, "commands[0].ifGen"),
            (#"{"type":"batch","commands":[{"type":"next","ifGen":-1}]}"#, "commands[0].ifGen"),
            (#"{"type":"batch","commands":[{"type":"next"},3]}"#, "commands[1]"),
            (#"{"type":"batch","commands":[{"type":"cancel","target":1}]}"#, "commands[0]"),
            (#"{"type":"batch","commands":[{"type":"wait","ms":1.5}]}"#, "commands[0].ms"),
        ]
    )
    func aBadBatchedCommandIsNamed(_ sample: (String, String)) {
        let answer = refusal(sample.0)
        #expect(answer?.code == .invalidParams, "\(sample.0)")
        #expect(answer?.field == sample.1, "\(sample.0)")
    }

    @Test func cancelNamesItsTarget() {
        #expect(refusal(#"{"type":"cancel","target":"w1"}"#) == nil)
        #expect(refusal(#"{"type":"cancel","target":7e0}"#) == nil)
        for target in ["", #","target":null"#, #","target":1.5"#, #","target":[1]"#, #","target":1e16"#] {
            let answer = refusal(#"{"type":"cancel","id":"c"\#(target)}"#)
            #expect(answer?.code == .invalidParams, "\(target)")
            #expect(answer?.field == "target", "\(target)")
            #expect(answer?.replyTo == .string("c"), "\(target)")
        }
    }

    @Test(
        arguments: [
            #"1"#, #"1.0"#, #"[1,1]"#, #"[1,0]"#, #"[[1,0],[1,1]]"#, #"[[2,0]]"#, #"{"min":[1,0],"max":[1,1]}"#,
            #"{"min":[1,1],"max":[1,1],"extra":true}"#, #"{"min":[1,1],"max":[1,0]}"#, #"[1e0,1.0]"#, #"7"#,
        ]
    )
    func helloTakesAVersionPairAListOrARange(_ versions: String) {
        #expect(refusal(#"{"type":"hello","protocol":\#(versions),"locale":"fr"}"#) == nil, "\(versions)")
    }

    @Test(
        arguments: [
            (#"[]"#, "protocol"), (#"[1]"#, "protocol"), (#"[1,1,1]"#, "protocol"), (#"[1,-1]"#, "protocol[1]"),
            (#"[[1,0],2]"#, "protocol[1]"), (#"[[1,0],[1]]"#, "protocol[1]"), (#"[[1,0.5]]"#, "protocol[0][1]"),
            (#"{"min":[1,0]}"#, "protocol.max"), (#"{"max":[1,0]}"#, "protocol.min"),
            (#"{"min":1,"max":[1,0]}"#, "protocol.min"),
            (#""1""#, "protocol"), (#"1.5"#, "protocol"), (#"-1"#, "protocol"), (#"null"#, "protocol"),
            (#"true"#, "protocol"), (#"[1,1],"locale":3"#, "locale"),
        ]
    )
    func aBadVersionRequestIsNamed(_ sample: (String, String)) {
        let answer = refusal(#"{"type":"hello","protocol":\#(sample.0)}"#)
        #expect(answer?.code == .invalidParams, "\(sample.0)")
        #expect(answer?.field == sample.1, "\(sample.0)")
    }
}
