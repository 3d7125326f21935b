// SPDX-License-Identifier: Apache-2.0
// A libFuzzer target over the BrlAPI key and text paths: each input is a display width and a stream
// of BrlAPI key codes (as `brlapi_readKey` hands them over: commands, routing keys, typed dots,
// Unicode symbols, anything else), played into the Braille view of a real game; after every key the
// frame that would go to `brlapi_write` is built and checked: exactly one code point per cell of the
// display, the cursor on the display.
import EscapeBraille
import EscapeContent
import EscapeCore
import EscapeFuzzDriver
import EscapeProtocol
import EscapeRuntime
import EscapeSaves

/// The shipped adventure, loaded once.
let adventure: Adventure = {
    do {
        return try AdventureLoader.bundled(locale: "en")
    } catch {
        fatalError("the shipped adventure must load: \(error)")
    }
}()

/// BRLTTY's own (plain) text, and the contracted English table when built with liblouis.
let translators: [any BrailleTranslator] = {
    var translators: [any BrailleTranslator] = [PlainBrailleTranslator()]
    #if Louis
    if let table = LouisTranslator.automaticTable(language: "en"), let louis = try? LouisTranslator(table: table) {
        translators.append(louis)
    }
    #endif
    return translators
}()

/// Plays `input`: byte 0 the width (1-80), byte 1 the translator, then 8 bytes a key code.
func press(_ input: UnsafeRawBufferPointer) {
    guard input.count >= 2 else { return }
    let size = DisplaySize(columns: Int(input[0]) % 80 + 1)
    var view = BrailleView(size: size, translator: translators[Int(input[1]) % translators.count])
    let session = SessionHost(
        adventure: adventure,
        options: EngineOptions(hintInterval: 1000, seed: 1),
        store: InMemorySaveStore(),
        clock: VirtualClock()
    )
    var now: Int64 = 0
    view.apply(session.start(), now: now)
    var request = 0
    var index = 2
    while index + 8 <= input.count, !session.isFinished {
        var code: UInt64 = 0
        for byte in input[index..<index + 8] { code = code << 8 | UInt64(byte) }
        index += 8
        now += 250
        for command in view.handle(BrailleKey(code: code), now: now) {
            request += 1
            view.apply(session.handle(Request(id: .int(request), command: .game(command))), now: now)
        }
        view.tick(now: now)
        check(view.frame, size: size)
    }
}

/// The text `brlapi_write` gets has one code point per cell; the cursor is on the display.
func check(_ frame: BrailleFrame, size: DisplaySize) {
    precondition(frame.cells.count <= size.cells, "\(frame.cells.count) cells on a display of \(size.cells)")
    precondition(frame.cells.allSatisfy { $0.unicodeScalars.count == 1 }, "a cell of several code points")
    if let cursor = frame.cursor { precondition((0..<size.cells).contains(cursor), "the cursor at \(cursor)") }
}

FuzzDriver.run("efb-fuzz-braille", press)
