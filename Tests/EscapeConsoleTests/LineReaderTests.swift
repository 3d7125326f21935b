// SPDX-License-Identifier: Apache-2.0
import CEdit
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Issue 23, item 1: the shim's reader keeps a key that would not fit from libedit, so libedit's line and
/// its picture of the screen never part (taking keys out afterwards made libedit write through a NULL row:
/// `Tests/BoundaryCorpus/edit/wide-paste-past-the-room-60x20`).
@Suite struct LineReaderTests {
    init() {
        // The console reads in UTF-8 (LineEditor sets it when the environment names no UTF-8 locale).
        _ = setlocale(LC_CTYPE, "C.UTF-8")
    }

    /// A reader with `bytes` and `cells` of room left.
    private func reader(bytes: Int, cells: Int) -> efb_edit_input {
        var input = efb_edit_input()
        input.descriptor = -1
        input.roomBytes = bytes
        input.roomCells = cells
        return input
    }

    private func keeps(_ text: String, in input: inout efb_edit_input) -> [Bool] {
        text.unicodeScalars.map { efb_edit_keeps(&input, wchar_t(bitPattern: $0.value)) != 0 }
    }

    @Test func aCharacterIsKeptOnlyWhenItFitsInBothRooms() {
        var input = reader(bytes: 4, cells: 2)
        #expect(keeps("a", in: &input) == [true])
        #expect(keeps("😀", in: &input) == [true])  // 4 bytes, 2 cells: just fits
        input.roomCells = 1
        #expect(keeps("😀", in: &input) == [false])  // 2 cells
        input.roomCells = 2
        input.roomBytes = 1
        #expect(keeps("é", in: &input) == [false])  // 2 bytes
    }

    @Test func keysStayKeysWhenTheLineIsFull() {
        var input = reader(bytes: 0, cells: 0)
        // Enter, Backspace, Ctrl-U, Delete, then the arrows and Delete as escape sequences: every byte
        // of a sequence reaches libedit, though `[`, `3`, `~`, `O` and `D` are printable.
        #expect(keeps("\r\u{7F}\u{15}", in: &input) == [true, true, true])
        #expect(keeps("\u{1B}[3~\u{1B}OD\u{1B}[1;5C", in: &input) == Array(repeating: true, count: 13))
        // After the sequence ends, text is text again, and is dropped.
        #expect(keeps("x", in: &input) == [false])
        // Escape then a letter (Meta-letter) is a key too.
        #expect(keeps("\u{1B}b", in: &input) == [true, true])
        #expect(keeps("b", in: &input) == [false])
    }

    @Test func cellsAreCountedAsLibeditDrawsThem() {
        let cells = { (scalar: Unicode.Scalar) in Int(efb_edit_cells(wchar_t(bitPattern: scalar.value))) }
        #expect(cells("a") == 1)
        #expect(cells("é") == 1)
        #expect(cells("€") == 1)
        #expect(cells("😀") == 2)
        #expect(cells("漢") == 2)
        #expect(cells("\u{01}") == 2)  // ^A
        #expect(cells("\u{9F}") == 2)  // a C1 control, shown as a control
        #expect(cells("\u{0378}") == 7)  // unassigned: \U+0378
        #expect(cells("\u{E0080}") == 8)  // unassigned, past U+FFFF: \U+E0080
        #expect(cells("\t") == 8)
    }

    @Test func bytesAreCountedAsUTF8() {
        let bytes = { (value: UInt32) in Int(efb_edit_bytes(wchar_t(bitPattern: value))) }
        #expect(bytes(0x61) == 1)
        #expect(bytes(0xE9) == 2)
        #expect(bytes(0x20AC) == 3)
        #expect(bytes(0x1F600) == 4)
        #expect(bytes(0xD800) == 3)  // no scalar: written as U+FFFD
        #expect(bytes(0x11_0000) == 3)
    }

    /// The reader on a real pipe: a burst of keys past the room is dropped and counted in one call, and
    /// the key after it (Enter) still comes.
    @Test func aBurstPastTheRoomIsDroppedAndCountedThenEnterComes() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { for end in ends { close(end) } }
        let typed = Array("ééé\r".utf8)
        try #require(write(ends[1], typed, typed.count) == typed.count)
        var input = reader(bytes: 0, cells: 0)
        input.descriptor = ends[0]
        var character: wchar_t = 0
        #expect(efb_edit_take(&input, &character) == 1)
        #expect(character == 13)
        #expect(input.dropped == 6)
    }
}
