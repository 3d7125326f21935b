// SPDX-License-Identifier: Apache-2.0
/// Text laid out on a display: its cells broken into lines no wider than the display, at word
/// boundaries of the text.
///
/// Positions in the text (the caret, the character under a routing key) go through the translated
/// text's maps, so they land on the right cell when a contracted word takes fewer cells than letters.
struct BrailleLayout: Equatable {
    /// The text and its cells.
    let text: BrailleText
    /// Each line's range in the cells; at least one line, maybe empty.
    let lines: [Range<Int>]
    /// Lines per window: the display's rows.
    let rows: Int

    /// Lays out `characters` one per cell, as BRLTTY's text table shows them.
    init(
        _ characters: [Character],
        width: Int,
        rows: Int,
        keeping kept: Int? = nil,
        together: Range<Int>? = nil
    ) {
        self.init(BrailleText(plain: characters), width: width, rows: rows, keeping: kept, together: together)
    }

    /// Lays out `text`'s cells in lines of at most `width` cells.
    ///
    /// A line breaks after the last blank cell that fits (a blank of the text: a word boundary, but not
    /// the blank of a no-break space, so French `:` and `?` stay with their word); a word
    /// longer than the line is cut. The blank a line breaks on is not shown, so no cell is lost to it,
    /// except the blank at `kept` (the caret's place in the text), which starts the next line so the
    /// caret has a cell.
    ///
    /// The characters in `together` (a chosen action's name and position) are never split across
    /// lines when they fit one: the line breaks before them instead.
    init(_ text: BrailleText, width: Int, rows: Int, keeping kept: Int? = nil, together: Range<Int>? = nil) {
        precondition(width > 0 && rows > 0, "a display has at least one cell")
        self.text = text
        self.rows = rows
        let cells = text.cells
        let keptCell = kept.map { text.cellOfSource[min(max($0, 0), text.source.count)] }
        let group = together.map { range in
            let cell = { text.cellOfSource[min(max($0, 0), text.source.count)] }
            return cell(range.lowerBound)..<cell(range.upperBound)
        }
        // A blank shown for a no-break space (French spacing before `:` and inside « ») keeps its words
        // together, as it does on a page.
        let breaks = cells.indices.map { cell in
            BrailleText.isBlank(cells[cell])
                && !(text.sourceOfCell[cell] < text.source.count
                    && BrailleText.isNoBreakSpace(text.source[text.sourceOfCell[cell]]))
        }
        var lines = Self.wrap(breaks, 0..<cells.count, width: width, keptCell: keptCell, group: group)
        // The caret's line shows what was typed before it, back to the start of its word or as much of a
        // longer word as fits beside the caret: where the word was cut at the display's end (the caret
        // started a line, or sat after the last cells of a word cut in two), the line ends at the caret
        // instead, as screen readers do.
        if let keptCell, keptCell > 0, keptCell < cells.count, !BrailleText.isBlank(cells[keptCell - 1]),
            let caretLine = lines.last(where: { $0.lowerBound <= keptCell })
        {
            let wordStart = breaks[..<keptCell].lastIndex(of: true).map { $0 + 1 } ?? 0
            let start = max(wordStart, keptCell + 1 - width)
            if caretLine.lowerBound > start {
                // The caret's line is never empty: the lines around it may be.
                lines =
                    (Self.wrap(breaks, 0..<start, width: width, keptCell: nil, group: nil) + [start..<(keptCell + 1)]
                    + Self.wrap(breaks, (keptCell + 1)..<cells.count, width: width, keptCell: nil, group: group))
                    .filter { !$0.isEmpty }
            }
        }
        self.lines = lines
    }

    /// The lines of the cells in `range`, broken after the last blank that fits (see the initializer);
    /// `breaks` says which cells are blanks a line may break on.
    private static func wrap(
        _ breaks: [Bool],
        _ range: Range<Int>,
        width: Int,
        keptCell: Int?,
        group: Range<Int>?
    ) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var start = range.lowerBound
        let end = range.upperBound
        while end - start > width {
            let limit = start + width
            var line = start..<limit
            var next = limit
            if breaks[limit] {
                next = limit == keptCell ? limit : limit + 1
            } else if let blank = breaks[start..<limit].lastIndex(of: true), blank > start {
                // The caret's blank stays on the line when it fits, after the word typed before it.
                line = start..<(blank == keptCell ? blank + 1 : blank)
                next = blank + 1
            }
            if let group, group.count <= width, group.lowerBound > start,
                group.lowerBound < line.upperBound, line.upperBound < group.upperBound
            {
                // The group would be split: the line ends before it (on the blank before it, if any).
                let groupStart = group.lowerBound
                line =
                    start..<(groupStart - 1 > start && breaks[groupStart - 1]
                    ? groupStart - 1 : groupStart)
                next = groupStart
            }
            lines.append(line)
            start = next
        }
        lines.append(start..<end)
        return lines
    }

    /// The characters laid out.
    var characters: [Character] { text.source }

    /// How many windows (display-fulls) the text takes.
    var windowCount: Int { (lines.count + rows - 1) / rows }

    /// The line that shows cell `cell` (the last line for the end of the text).
    private func line(containingCell cell: Int) -> Int {
        lines.lastIndex { $0.lowerBound <= cell } ?? 0
    }

    /// The cell that shows the character at `offset` (the end of the text past it).
    private func cellIndex(of offset: Int) -> Int {
        text.cellOfSource[min(max(offset, 0), text.source.count)]
    }

    /// The line that shows the character at `offset` (the last line for the end of the text).
    func line(containing offset: Int) -> Int { line(containingCell: cellIndex(of: offset)) }

    /// The window that shows the character at `offset`.
    func window(containing offset: Int) -> Int { line(containing: offset) / rows }

    /// The first character window `window` shows (the end of the text for an empty one).
    func firstOffset(window: Int) -> Int {
        let line = max(0, min(window * rows, lines.count - 1))
        return text.sourceOfCell[min(lines[line].lowerBound, text.cells.count)]
    }

    /// The cells of window `window`, `columns` per row, padded with blanks.
    func cells(window: Int, columns: Int) -> [Character] {
        var cells: [Character] = []
        cells.reserveCapacity(columns * rows)
        for row in 0..<rows {
            let index = window * rows + row
            var line: ArraySlice<Character> = []
            if index < lines.count { line = text.cells[lines[index]] }
            cells += line.prefix(columns)
            cells += repeatElement(" ", count: columns - min(line.count, columns))
        }
        return cells
    }

    /// The display cell that shows `offset` in window `window`, or `nil` when it is not in that window.
    func cell(showing offset: Int, window: Int, columns: Int) -> Int? {
        let index = cellIndex(of: offset)
        let line = line(containingCell: index)
        guard line / rows == window else { return nil }
        let column = index - lines[line].lowerBound
        guard column < columns else { return nil }
        return (line % rows) * columns + column
    }

    /// The text offset under display cell `cell` of window `window` (the first character of a
    /// contracted group), or `nil` for a blank past a line's end.
    func offset(under cell: Int, window: Int, columns: Int) -> Int? {
        let line = window * rows + cell / columns
        guard line < lines.count else { return nil }
        let index = lines[line].lowerBound + cell % columns
        return index <= lines[line].upperBound ? text.sourceOfCell[index] : nil
    }
}
