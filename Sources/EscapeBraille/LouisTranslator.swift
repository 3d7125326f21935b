// SPDX-License-Identifier: Apache-2.0
#if Louis
internal import CLouis
import EscapeCore
import Synchronization

/// Translates with a liblouis table (contracted Braille: UEB grade 2, French abrégé, ...).
///
/// Every liblouis call is in this file, behind one lock: liblouis keeps its tables and buffers in
/// globals and is not thread-safe.
package struct LouisTranslator: BrailleTranslator {
    /// Why a table cannot be used.
    package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// liblouis does not find or cannot compile the table.
        case unknownTable(String, folder: String)
        /// The library's character size is not the one its header declared.
        case unsupportedLibrary(String)

        /// The failure in words.
        package var description: String {
            switch self {
            case .unknownTable(let table, let folder):
                "liblouis has no usable table \"\(table)\" (tables live in \(folder), e.g. en-ueb-g2.ctb, "
                    + "en-us-g2.ctb, fr-bfu-g2.ctb)"
            case .unsupportedLibrary(let message): "liblouis cannot be used: \(message)"
            }
        }
    }

    /// The one lock around liblouis.
    private static let lock = Mutex(())

    /// The table file, as liblouis resolves it (`en-ueb-g2.ctb`).
    package let table: String

    /// The table's file name.
    package var name: String { table }

    /// A contracted table reads typed dots itself.
    package var takesDots: Bool { true }

    /// The folder liblouis reads its tables from (`lou_getDataPath`), or Debian's.
    package static var tableFolder: String {
        lock.withLock { _ in
            if let path = lou_getDataPath(), path.pointee != 0 { return String(cString: path) + "/liblouis/tables" }
            return "/usr/share/liblouis/tables"
        }
    }

    /// Loads `table` (a file name such as `en-ueb-g2.ctb`, or a path); `.ctb` may be left out.
    ///
    /// - Throws: ``Failure`` when liblouis cannot load the table (`lou_getTable`).
    package init(table: String) throws(Failure) {
        var candidates = [table]
        if !table.contains(".") { candidates = [table + ".ctb", table + ".utb", table] }
        let loaded: String? = Self.lock.withLock { _ in
            // liblouis logs a missing table on standard error; the caller says it once, in words.
            lou_setLogLevel(LOU_LOG_OFF)
            return candidates.first { lou_getTable($0) != nil }
        }
        guard lou_charSize() == Int32(MemoryLayout<widechar>.size) else {
            throw .unsupportedLibrary("its characters have \(lou_charSize()) bytes, its header says otherwise")
        }
        guard let loaded else { throw .unknownTable(table, folder: Self.tableFolder) }
        self.table = loaded
    }

    /// The table `auto` picks for a language: UEB grade 2 for English, abrégé for French; `nil` for
    /// a language with no contracted table here.
    package static func automaticTable(language: String) -> String? {
        switch LocaleLanguage.code(of: language) {
        case "en": "en-ueb-g2.ctb"
        case "fr": "fr-bfu-g2.ctb"
        default: nil
        }
    }

    /// Translates contracted pieces with the table in dots mode, and leaves literal ones as they are.
    ///
    /// A literal piece goes to BRLTTY's text table: the very cells the player saw before choosing a
    /// table, in the code they type with. Dot patterns already in the text (typed dots) stay as they are.
    package func translate(_ text: [Character], style: BrailleStyle) -> BrailleText {
        switch style {
        case .literal:
            // As BRLTTY's text table shows it, its typographer's characters as the ones it has.
            return PlainBrailleTranslator().translate(text, style: .literal)
        case .contracted:
            var parts: [BrailleText] = []
            var start = 0
            while start < text.count {
                let isDots = Self.isDots(text[start])
                var end = start + 1
                while end < text.count, Self.isDots(text[end]) == isDots { end += 1 }
                let run = Array(text[start..<end])
                parts.append(isDots ? BrailleText(plain: run) : contracted(run))
                start = end
            }
            return BrailleText.joined(parts)
        }
    }

    /// Back-translates each run of dot patterns in `typed` (the blanks between two of them belong to
    /// the run, so words keep their context); other characters stay as they are.
    package func backTranslate(_ typed: [Character]) -> String {
        var result = ""
        var index = 0
        while index < typed.count {
            guard Self.isDots(typed[index]) else {
                result.append(typed[index])
                index += 1
                continue
            }
            var end = index + 1
            while end < typed.count {
                if Self.isDots(typed[end]) {
                    end += 1
                } else if typed[end] == " ", let next = typed[end...].firstIndex(where: { $0 != " " }),
                    Self.isDots(typed[next])
                {
                    end = next
                } else {
                    break
                }
            }
            result += backTranslated(Array(typed[index..<end]))
            index = end
        }
        return result
    }

    /// Whether `character` is a Braille dot pattern (U+2800-U+28FF).
    static func isDots(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1 else { return false }
        return (0x2800...0x28FF).contains(scalar.value)
    }

    /// Translates a text with no dot patterns; its leading and trailing blanks are kept as blank cells.
    private func contracted(_ text: [Character]) -> BrailleText {
        let leading = text.prefix { $0 == " " }.count
        let trailing = text.count == leading ? 0 : text.reversed().prefix { $0 == " " }.count
        let middle = Array(text[leading..<(text.count - trailing)])
        var parts: [BrailleText] = []
        if leading > 0 { parts.append(BrailleText(plain: Array(repeating: "\u{2800}", count: leading))) }
        if !middle.isEmpty { parts.append(translated(middle)) }
        if trailing > 0 { parts.append(BrailleText(plain: Array(repeating: "\u{2800}", count: trailing))) }
        let joined = BrailleText.joined(parts)
        return BrailleText(
            source: text,
            cells: joined.cells,
            cellOfSource: joined.cellOfSource,
            sourceOfCell: joined.sourceOfCell
        )
    }

    /// One `lou_translate` call in dots mode, with both position maps.
    private func translated(_ text: [Character]) -> BrailleText {
        // liblouis counts code points; a character of several (an accent apart) maps to its first.
        var input: [widechar] = []
        var characterOf: [Int] = []
        for (index, character) in text.enumerated() {
            for scalar in character.unicodeScalars {
                input.append(widechar(scalar.value))
                characterOf.append(index)
            }
        }
        var capacity = input.count * 2 + 16
        while true {
            var inputLength = Int32(input.count)
            var outputLength = Int32(capacity)
            var output = [widechar](repeating: 0, count: capacity)
            var outputPositions = [Int32](repeating: 0, count: input.count)
            var inputPositions = [Int32](repeating: 0, count: capacity)
            let succeeded = Self.lock.withLock { _ in
                lou_translate(
                    table,
                    input,
                    &inputLength,
                    &output,
                    &outputLength,
                    nil,
                    nil,
                    &outputPositions,
                    &inputPositions,
                    nil,
                    Int32(dotsIO.rawValue)
                )
            }
            guard succeeded != 0 else { return BrailleText(plain: text) }
            if inputLength < Int32(input.count) && capacity < input.count * 16 + 64 {
                capacity *= 2
                continue
            }
            let cellCount = Int(outputLength)
            let cells = output[..<cellCount].map { Self.cell($0) }
            var sourceOfCell = inputPositions[..<cellCount].map { characterOf[min(Int($0), characterOf.count - 1)] }
            sourceOfCell.append(text.count)
            var cellOfSource = Array(repeating: cellCount, count: text.count + 1)
            for (scalarIndex, cell) in outputPositions.prefix(Int(inputLength)).enumerated().reversed() {
                cellOfSource[characterOf[scalarIndex]] = min(Int(cell), cellCount)
            }
            // Characters liblouis did not reach (a too-small buffer) show at the end.
            return BrailleText(source: text, cells: cells, cellOfSource: cellOfSource, sourceOfCell: sourceOfCell)
        }
    }

    /// One `lou_backTranslate` call on dot patterns.
    private func backTranslated(_ cells: [Character]) -> String {
        let input: [widechar] = cells.map { cell in
            let value = cell.unicodeScalars.first.map { $0.value } ?? 0x2800
            return widechar(Self.isDots(cell) ? (value - 0x2800) | 0x8000 : 0x8000)
        }
        let capacity = input.count * 4 + 16
        var inputLength = Int32(input.count)
        var outputLength = Int32(capacity)
        var output = [widechar](repeating: 0, count: capacity)
        let succeeded = Self.lock.withLock { _ in
            lou_backTranslate(
                table,
                input,
                &inputLength,
                &output,
                &outputLength,
                nil,
                nil,
                nil,
                nil,
                nil,
                Int32(dotsIO.rawValue)
            )
        }
        guard succeeded != 0 else { return String(cells) }
        var text = ""
        for value in output[..<Int(outputLength)] {
            if let scalar = Unicode.Scalar(UInt32(value)) { text.unicodeScalars.append(scalar) }
        }
        return text
    }

    /// A cell liblouis gave in dots mode (`LOU_DOTS` and dots 1-8 as bits 0-7) as a U+28xx pattern.
    private static func cell(_ value: widechar) -> Character {
        Character(Unicode.Scalar(0x2800 + UInt32(value & 0xFF)) ?? "\u{2800}")
    }
}
#endif
