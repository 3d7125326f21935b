// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import EscapeBraille

@Suite struct LayoutTests {
    private func lines(_ text: String, width: Int) -> [String] {
        let layout = BrailleLayout(Array(text), width: width, rows: 1)
        return layout.lines.map { String(layout.characters[$0]) }
    }

    @Test func breaksAfterTheLastBlankThatFits() {
        #expect(lines("the quick brown fox jumps", width: 10) == ["the quick", "brown fox", "jumps"])
    }

    @Test func aBlankRightAtTheEdgeCostsNoCell() {
        #expect(lines("abcd efgh", width: 4) == ["abcd", "efgh"])
    }

    @Test func cutsAWordLongerThanTheDisplay() {
        #expect(lines("abcdefghij xy", width: 4) == ["abcd", "efgh", "ij", "xy"])
    }

    @Test func emptyTextIsOneEmptyLine() {
        #expect(lines("", width: 8) == [""])
    }

    @Test func aMultiRowDisplayShowsSeveralLinesAtOnce() {
        let layout = BrailleLayout(Array("one two three four five"), width: 9, rows: 2)
        #expect(layout.windowCount == 2)
        #expect(String(layout.cells(window: 0, columns: 9)) == "one two  three    ")
        #expect(String(layout.cells(window: 1, columns: 9)) == "four five         ")
    }

    @Test func mapsCellsToTextAndBack() {
        let layout = BrailleLayout(Array("hello world again"), width: 8, rows: 1)
        // "hello" / "world" / "again": offset 6 ("w") is cell 0 of window 1.
        #expect(layout.cell(showing: 6, window: 1, columns: 8) == 0)
        #expect(layout.cell(showing: 6, window: 0, columns: 8) == nil)
        #expect(layout.offset(under: 2, window: 1, columns: 8) == 8)
        #expect(layout.offset(under: 7, window: 1, columns: 8) == nil)
    }
}
