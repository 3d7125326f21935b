/// Text laid out on a display: broken into lines no wider than the display, at word boundaries.
struct BrailleLayout: Equatable {
    /// The text.
    let characters: [Character]
    /// Each line's range in ``characters``; at least one line, maybe empty.
    let lines: [Range<Int>]
    /// Lines per window: the display's rows.
    let rows: Int

    /// Lays out `characters` in lines of at most `width` characters.
    ///
    /// A line breaks after the last blank that fits; a word longer than the line is cut. The blank a
    /// line breaks on is not shown, so no cell is lost to it, except the blank at `kept` (the caret's
    /// place), which starts the next line so the caret has a cell.
    init(_ characters: [Character], width: Int, rows: Int, keeping kept: Int? = nil) {
        precondition(width > 0 && rows > 0, "a display has at least one cell")
        self.characters = characters
        self.rows = rows
        var lines: [Range<Int>] = []
        var start = 0
        while characters.count - start > width {
            let limit = start + width
            if characters[limit] == " " {
                lines.append(start..<limit)
                start = limit == kept ? limit : limit + 1
            } else if let blank = characters[start..<limit].lastIndex(of: " "), blank > start {
                lines.append(start..<blank)
                start = blank == kept ? blank : blank + 1
            } else {
                lines.append(start..<limit)
                start = limit
            }
        }
        lines.append(start..<characters.count)
        self.lines = lines
    }

    /// How many windows (display-fulls) the text takes.
    var windowCount: Int { (lines.count + rows - 1) / rows }

    /// The line that shows the character at `offset` (the last line for the end of the text).
    func line(containing offset: Int) -> Int {
        lines.lastIndex { $0.lowerBound <= offset } ?? 0
    }

    /// The window that shows the character at `offset`.
    func window(containing offset: Int) -> Int { line(containing: offset) / rows }

    /// The cells of window `window`, `columns` per row, padded with blanks.
    func cells(window: Int, columns: Int) -> [Character] {
        var cells: [Character] = []
        cells.reserveCapacity(columns * rows)
        for row in 0..<rows {
            let index = window * rows + row
            var line: ArraySlice<Character> = []
            if index < lines.count { line = characters[lines[index]] }
            cells += line.prefix(columns)
            cells += repeatElement(" ", count: columns - min(line.count, columns))
        }
        return cells
    }

    /// The cell that shows `offset` in window `window`, or `nil` when it is not in that window.
    func cell(showing offset: Int, window: Int, columns: Int) -> Int? {
        let line = line(containing: offset)
        guard line / rows == window else { return nil }
        let column = offset - lines[line].lowerBound
        guard column < columns else { return nil }
        return (line % rows) * columns + column
    }

    /// The text offset under cell `cell` of window `window`, or `nil` for a blank past a line's end.
    func offset(under cell: Int, window: Int, columns: Int) -> Int? {
        let line = window * rows + cell / columns
        guard line < lines.count else { return nil }
        let offset = lines[line].lowerBound + cell % columns
        return offset <= lines[line].upperBound ? offset : nil
    }
}
