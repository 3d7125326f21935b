// SPDX-License-Identifier: Apache-2.0
// A libFuzzer target over the liblouis boundary: each input, read as UTF-8 (long, accented, emoji,
// combining, control characters), is translated with the English and French contracted tables the
// game ships with, both styles, and the cells are back-translated; each input is also read as dot
// patterns typed on a display and back-translated. The position maps must stay inside their texts.
import EscapeFuzzDriver

#if Louis
import EscapeBraille

/// The tables `--braille-table auto` picks, loaded once.
let translators: [LouisTranslator] = ["en", "fr"].map { language in
    guard let table = LouisTranslator.automaticTable(language: language) else {
        fatalError("no automatic table for \(language)")
    }
    do {
        return try LouisTranslator(table: table)
    } catch {
        fatalError("liblouis's \(table) must load: \(error)")
    }
}

/// Translates and back-translates `input` with every table.
func translate(_ input: UnsafeRawBufferPointer) {
    let text = Array(String(decoding: input, as: UTF8.self))
    // Typed dots: each byte a pattern, 0x20 a blank between words.
    let dots = input.map { byte in
        byte == 0x20 ? " " : Unicode.Scalar(0x2800 + UInt16(byte)).map(Character.init) ?? " "
    }
    for translator in translators {
        for style in [BrailleStyle.literal, .contracted] {
            let braille = translator.translate(text, style: style)
            check(braille, of: text, contracted: style == .contracted)
            _ = translator.backTranslate(braille.cells)
        }
        _ = translator.backTranslate(dots)
        _ = translator.backTranslate(text)
    }
}

/// The maps of a translation point inside the source and the cells.
///
/// Contracted cells are dot patterns of one code point each (a literal cell is the character itself:
/// BrlAPIDisplay.write shows a cell of several code points as `?`).
func check(_ braille: BrailleText, of text: [Character], contracted: Bool) {
    precondition(braille.source == text, "the source changed")
    precondition(braille.cellOfSource.count == text.count + 1, "cellOfSource has \(braille.cellOfSource.count)")
    precondition(
        braille.sourceOfCell.count == braille.cells.count + 1,
        "sourceOfCell has \(braille.sourceOfCell.count)"
    )
    precondition(braille.cellOfSource.allSatisfy { (0...braille.cells.count).contains($0) }, "a cell out of range")
    precondition(braille.sourceOfCell.allSatisfy { (0...text.count).contains($0) }, "a source out of range")
    if contracted {
        precondition(braille.cells.allSatisfy { $0.unicodeScalars.count == 1 }, "a cell of several code points")
    }
}

FuzzDriver.run("efb-fuzz-louis", translate)
#else
// Built without the Louis trait there is no liblouis boundary to fuzz: say so rather than pass.
FuzzDriver.run("efb-fuzz-louis") { _ in fatalError("efb-fuzz-louis was built without the Louis trait") }
#endif
