// SPDX-License-Identifier: Apache-2.0
// libedit's own interface (Debian's libedit-dev), for the console's line editing. el_set and history
// take variable arguments, which Swift cannot call, so each use has a wrapper here.
//
// The readline emulation is not used: its callback interface keeps `rl_line_buffer` pointing at a
// conversion buffer that el_line reallocates once the line passes 1,024 bytes, and writes a NUL at
// `rl_line_buffer[rl_end]` after every key (libedit 3.1-20221030): a use after free, then a heap
// overflow, for any long line. Here the line is read as wide characters with el_wgets, counted in
// characters, and copied out at once; nothing keeps a pointer into libedit's buffers.
#ifndef EFB_EDIT_SHIM_H
#define EFB_EDIT_SHIM_H

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>
#include <histedit.h>

/// The cells libedit gives `character` on the screen, by its own rules (chartype.c): a control
/// character below U+0100 shows as `^X`, a character that is not printable as `\U+XXXX`, a tab up
/// to the next tab stop.
static inline int efb_edit_cells(wchar_t character) {
    if (character == L'\t') return 8;
    if (character == L'\n') return 0;
    if (character < 0x100 && iswcntrl((wint_t)character)) return 2;
    if (iswprint((wint_t)character)) {
        int width = wcwidth(character);
        return width < 0 ? 0 : width;
    }
    return character > 0xffff ? 8 : 7;
}

/// The bytes `character` takes in UTF-8; a value that is no Unicode scalar takes U+FFFD's three.
static inline int efb_edit_bytes(wchar_t character) {
    unsigned int value = (unsigned int)character;
    if (value < 0x80) return 1;
    if (value < 0x800) return 2;
    if (value >= 0x10000 && value <= 0x10ffff) return 4;
    return 3;
}

/// What the editor's reader knows of the line being edited.
///
/// libedit draws each key the moment it inserts it, and keeps its own picture of the screen: text taken
/// out of the line afterwards (el_wdeletestr) leaves that picture and the real line apart, and the next
/// key drawn on the fast path writes through a row that is not there (a NULL write in re_fastputc,
/// libedit 3.1-20221030, found by efb-fuzz-edit). So a key that would take the line past its room is
/// kept from libedit altogether: the reader drops it before libedit sees it.
typedef struct {
    /// The terminal read from.
    int descriptor;
    /// The bytes of UTF-8 the line may still take.
    long roomBytes;
    /// The screen cells the line may still take.
    long roomCells;
    /// Bytes of UTF-8 typed past the room and dropped since the line began.
    long dropped;
    /// Where the reader is in a key's escape sequence: 0 outside one, 1 after Escape, 2 inside
    /// `Escape [`, 3 after `Escape O`. Inside a sequence nothing is dropped: its letters are no text.
    int sequence;
    /// The bytes read from the terminal and not yet given to libedit: a key is read a byte at a time,
    /// never waiting, and handed to libedit only once all of it is here (see efb_edit_ready).
    unsigned char pending[64];
    /// How many bytes `pending` holds, and how many of them were given to libedit.
    int pendingCount, pendingTaken;
    /// Whether the terminal's input ended (or failed): nothing more will be read.
    int ended;
    /// A speech key pressed since the caller last looked: 1 repeat the last thing said, 2 stop speech.
    int speechKey;
} efb_edit_input;

/// Reads one more byte of the terminal into `pending` without waiting: 1 when one was read, 0 when none
/// is there now (or the input ended: `ended` says which), -1 on an error, which ends the input too.
///
/// `readable` says the event loop found the terminal readable, so one read cannot wait (it gets a byte,
/// or the end of input); otherwise a byte is read only when the terminal holds one (FIONREAD). Nothing
/// here polls or waits: the event loop is the one place that waits.
static inline int efb_edit_read_byte(efb_edit_input *input, int readable) {
    if (input->pendingTaken == input->pendingCount) {
        input->pendingCount = 0;
        input->pendingTaken = 0;
    } else if (input->pendingCount == (int)sizeof input->pending && input->pendingTaken > 0) {
        memmove(input->pending, input->pending + input->pendingTaken,
            (size_t)(input->pendingCount - input->pendingTaken));
        input->pendingCount -= input->pendingTaken;
        input->pendingTaken = 0;
    }
    if (input->ended || input->pendingCount == (int)sizeof input->pending) return 0;
    if (!readable) {
        int queued = 0;
        if (ioctl(input->descriptor, FIONREAD, &queued) < 0 || queued <= 0) return 0;
    }
    for (;;) {
        ssize_t got = read(input->descriptor, input->pending + input->pendingCount, 1);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return 0;
        if (got <= 0) {
            input->ended = 1;
            return got < 0 ? -1 : 0;
        }
        input->pendingCount += 1;
        return 1;
    }
}

/// The length of the key at the start of `bytes`, or 0 while part of it has yet to come: a character
/// of UTF-8 (a byte that begins none is a key of its own, which the reader skips), Escape with the key
/// after it (as libedit reads it: the next key's meaning depends on it), `Escape [` with parameters up
/// to the final byte, `Escape O` with one more.
static inline int efb_edit_key_length(const unsigned char *bytes, int count) {
    int at = 0;
    while (at < count && bytes[at] == 0x1b) {
        if (at + 1 >= count) return 0;
        if (bytes[at + 1] == '[') {
            for (int index = at + 2; index < count; index++) {
                if (bytes[index] >= 0x40 && bytes[index] <= 0x7e) return index + 1;
            }
            return 0;
        }
        if (bytes[at + 1] == 'O') return at + 3 <= count ? at + 3 : 0;
        at += 1;
    }
    if (at >= count) return 0;
    unsigned char lead = bytes[at];
    int length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 1;
    return at + length <= count ? at + length : 0;
}

/// Whether a whole key waits in `pending`, reading the terminal without waiting to complete it: 1 when
/// one does (or `pending` is full, or the input ended with bytes left: libedit gets them as they are), 0
/// when the rest of the key has yet to come or nothing was typed. So libedit, which waits for the rest of
/// a key inside its reader, is only called when it will not wait, and the event loop never waits with it
/// (Escape alone waits for the key it goes with while the game goes on). `readable`: the event loop found
/// the terminal readable (see efb_edit_read_byte).
static inline int efb_edit_ready(efb_edit_input *input, int readable) {
    for (;;) {
        int available = input->pendingCount - input->pendingTaken;
        if (available > 0) {
            if (efb_edit_key_length(input->pending + input->pendingTaken, available) > 0) return 1;
            if (available == (int)sizeof input->pending || input->ended) return 1;
        }
        int got = efb_edit_read_byte(input, readable);
        readable = 0;
        if (got != 1) {
            available = input->pendingCount - input->pendingTaken;
            return input->ended && available > 0;
        }
    }
}

/// Reads one character of UTF-8 for libedit, as its own reader does (an invalid byte is skipped) but
/// never waiting: 1 with it; 2 when the rest of it has yet to come; 0 at the end of input, -1 on an
/// error. From `pending`, then the terminal.
static inline int efb_edit_read_character(efb_edit_input *input, wchar_t *character) {
    for (;;) {
        int available = input->pendingCount - input->pendingTaken;
        if (available > 0) {
            mbstate_t state;
            memset(&state, 0, sizeof state);
            size_t decoded = mbrtowc(character, (const char *)input->pending + input->pendingTaken, (size_t)available,
                &state);
            if (decoded == (size_t)-1) {
                input->pendingTaken += 1;
                continue;
            }
            if (decoded != (size_t)-2) {
                input->pendingTaken += decoded == 0 ? 1 : (int)decoded;
                return 1;
            }
            // Part of a character: the rest may come; at the end of input (or a full buffer) it never will.
            if (input->ended || available >= MB_LEN_MAX) {
                input->pendingTaken += 1;
                continue;
            }
        }
        if (input->ended) {
            *character = L'\0';
            return 0;
        }
        int got = efb_edit_read_byte(input, 0);
        if (got < 0) return -1;
        if (got == 0 && !input->ended) return 2;
    }
}

/// Whether `character` is kept (1) or dropped (0) by the reader, which follows escape sequences.
static inline int efb_edit_keeps(efb_edit_input *input, wchar_t character) {
    switch (input->sequence) {
    case 1:
        input->sequence = character == L'[' ? 2 : character == L'O' ? 3 : 0;
        return 1;
    case 2:
        if (character == 0x1b) input->sequence = 1;
        else if (character >= 0x40 && character <= 0x7e) input->sequence = 0;
        return 1;
    case 3:
        input->sequence = 0;
        return 1;
    default:
        break;
    }
    if (character == 0x1b) {
        input->sequence = 1;
        return 1;
    }
    // Keys below the space and Delete are commands, not text.
    if (character < 0x20 || character == 0x7f) return 1;
    return efb_edit_bytes(character) <= input->roomBytes && efb_edit_cells(character) <= input->roomCells;
}

/// Reads the next character that is kept: 1 with it, or 0 (nothing now) after dropping the keys past
/// the line's room that were waiting, at most 4,096 of them a call so the event loop goes on; 0 at the
/// end of input too and -1 on an error, as libedit's own reader.
static inline int efb_edit_take(efb_edit_input *input, wchar_t *character) {
    for (int turn = 0; turn < 4096; turn++) {
        int got = efb_edit_read_character(input, character);
        if (got == 2) break;
        if (got != 1) return got;
        if (efb_edit_keeps(input, *character)) return 1;
        input->dropped += efb_edit_bytes(*character);
    }
    *character = L'\0';
    return 0;
}

/// libedit's reader (EL_GETCFN): efb_edit_take on the editor's efb_edit_input (EL_CLIENTDATA).
static inline int efb_edit_getc(EditLine *editor, wchar_t *character) {
    efb_edit_input *input = NULL;
    if (el_get(editor, EL_CLIENTDATA, &input) != 0 || input == NULL) return -1;
    return efb_edit_take(input, character);
}

/// The prompt libedit draws (a function, as EL_PROMPT wants).
static inline char *efb_edit_prompt(EditLine *editor) {
    (void)editor;
    static char prompt[] = "> ";
    return prompt;
}

/// Ctrl-C as a shell has it: a half-typed line is cleared and the prompt stays; on an empty line it ends
/// the input, as Ctrl-D does.
static inline unsigned char efb_edit_interrupt(EditLine *editor, int key) {
    (void)key;
    const LineInfoW *line = el_wline(editor);
    int length = (int)(line->lastchar - line->buffer);
    if (length == 0) return CC_EOF;
    el_cursor(editor, (int)(line->lastchar - line->cursor));
    el_wdeletestr(editor, length);
    return CC_REFRESH;
}

/// Ctrl-D: the end of input on an empty line, said by the caller (libedit's own writes a visible `^D`
/// first); otherwise deletes the character under the cursor.
static inline unsigned char efb_edit_end_or_delete(EditLine *editor, int key) {
    (void)key;
    const LineInfoW *line = el_wline(editor);
    if (line->lastchar == line->buffer) return CC_EOF;
    if (line->cursor == line->lastchar) return CC_NORM;
    el_cursor(editor, 1);
    el_wdeletestr(editor, 1);
    el_cursor(editor, -1);
    return CC_REFRESH;
}

/// A speech key (F2 repeats the last thing said, F3 stops speech): noted for the caller, the line untouched.
static inline unsigned char efb_edit_speech_key(EditLine *editor, int which) {
    efb_edit_input *input = NULL;
    if (el_get(editor, EL_CLIENTDATA, &input) == 0 && input != NULL) input->speechKey = which;
    return CC_NORM;
}

static inline unsigned char efb_edit_speech_repeat(EditLine *editor, int key) {
    (void)key;
    return efb_edit_speech_key(editor, 1);
}

static inline unsigned char efb_edit_speech_stop(EditLine *editor, int key) {
    (void)key;
    return efb_edit_speech_key(editor, 2);
}

/// Opens an editor on `input` and `output` in emacs mode with the program's signals left alone, keys
/// read by `reader` (which must outlive the editor) and a history of `historySize` lines; NULL when
/// libedit cannot.
static inline EditLine *efb_edit_open(FILE *input, FILE *output, efb_edit_input *reader, History **list,
    int historySize) {
    EditLine *editor = el_init("efb", input, output, stderr);
    if (editor == NULL) return NULL;
    reader->descriptor = fileno(input);
    el_set(editor, EL_CLIENTDATA, reader);
    el_set(editor, EL_GETCFN, efb_edit_getc);
    el_set(editor, EL_SIGNAL, 0);
    el_set(editor, EL_EDITOR, "emacs");
    el_set(editor, EL_PROMPT, efb_edit_prompt);
    // Ctrl-C is a key while a line is edited (see efb_edit_interrupt), not a signal; Ctrl-S is no
    // flow control there, so a stray key cannot freeze the screen without a word.
    el_set(editor, EL_SETTY, "-d", "-isig", "-ixon", NULL);
    el_set(editor, EL_ADDFN, "efb-interrupt", "Clears the line, or ends the input on an empty line",
        efb_edit_interrupt);
    el_set(editor, EL_BIND, "^C", "efb-interrupt", NULL);
    el_set(editor, EL_ADDFN, "efb-end-or-delete", "Ends the input on an empty line, or deletes a character",
        efb_edit_end_or_delete);
    el_set(editor, EL_BIND, "^D", "efb-end-or-delete", NULL);
    el_set(editor, EL_ADDFN, "efb-speech-repeat", "Says the last thing said again", efb_edit_speech_repeat);
    el_set(editor, EL_ADDFN, "efb-speech-stop", "Stops speech", efb_edit_speech_stop);
    HistEvent event;
    *list = history_init();
    if (*list != NULL) {
        history(*list, &event, H_SETSIZE, historySize);
        history(*list, &event, H_SETUNIQUE, 1);
        el_set(editor, EL_HIST, history, *list);
    }
    return editor;
}

/// Closes what efb_edit_open opened.
static inline void efb_edit_close(EditLine *editor, History *list) {
    el_end(editor);
    if (list != NULL) history_end(list);
}

/// Binds a key sequence (in el_set's notation, `^[[3~`) to one of libedit's functions by name.
static inline int efb_edit_bind(EditLine *editor, const char *sequence, const char *function) {
    return el_set(editor, EL_BIND, sequence, function, NULL);
}

/// Starts (1) or ends (0) editing one line a key at a time: starting puts the terminal in libedit's mode,
/// clears the line and draws the prompt; ending gives the terminal back.
static inline void efb_edit_unbuffered(EditLine *editor, int on) {
    el_set(editor, EL_UNBUFFERED, on);
}

/// Draws the prompt and the line again.
static inline void efb_edit_refresh(EditLine *editor) {
    el_set(editor, EL_REFRESH);
}

/// Reads one key and returns the whole line so far, `*count` characters (a line ended by Enter ends with
/// '\n'); NULL when the line is empty after the key (Backspace, Ctrl-C), at the end of input or on an
/// error (the reader's `ended` tells which). The buffer is libedit's: copy it before the next call.
static inline const wchar_t *efb_edit_read(EditLine *editor, int *count) {
    return el_wgets(editor, count);
}

/// The characters in the line now, and where the cursor is among them.
static inline void efb_edit_measure(EditLine *editor, int *length, int *cursor) {
    const LineInfoW *line = el_wline(editor);
    *length = (int)(line->lastchar - line->buffer);
    *cursor = (int)(line->cursor - line->buffer);
}

/// The characters in the line now (el_wline's buffer, not NUL-terminated): read them before the next
/// call into libedit.
static inline const wchar_t *efb_edit_line(EditLine *editor) {
    return el_wline(editor)->buffer;
}

/// Deletes `count` characters before the cursor.
static inline void efb_edit_delete(EditLine *editor, int count) {
    el_wdeletestr(editor, count);
}

/// Reads the terminal's size again (after SIGWINCH).
static inline void efb_edit_resize(EditLine *editor) {
    el_resize(editor);
}

/// Adds a line (UTF-8, NUL-terminated) to the history.
static inline void efb_edit_remember(History *list, const char *line) {
    HistEvent event;
    if (list != NULL) history(list, &event, H_ENTER, line);
}

#endif
