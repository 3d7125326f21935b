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

#include <stdio.h>
#include <wchar.h>
#include <poll.h>
#include <histedit.h>

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

/// Whether the terminal hung up or failed: what an el_wgets that returned NULL with no line means.
static inline int efb_edit_hung_up(int descriptor) {
    struct pollfd watched = { .fd = descriptor, .events = POLLIN, .revents = 0 };
    if (poll(&watched, 1, 0) < 0) return 1;
    return (watched.revents & (POLLHUP | POLLERR | POLLNVAL)) != 0;
}

/// Opens an editor on `input` and `output` in emacs mode with the program's signals left alone and a
/// history of `historySize` lines; NULL when libedit cannot.
static inline EditLine *efb_edit_open(FILE *input, FILE *output, History **list, int historySize) {
    EditLine *editor = el_init("efb", input, output, stderr);
    if (editor == NULL) return NULL;
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
/// error (efb_edit_hung_up tells which). The buffer is libedit's: copy it before the next call.
static inline const wchar_t *efb_edit_read(EditLine *editor, int *count) {
    return el_wgets(editor, count);
}

/// The characters in the line now, and where the cursor is among them.
static inline void efb_edit_measure(EditLine *editor, int *length, int *cursor) {
    const LineInfoW *line = el_wline(editor);
    *length = (int)(line->lastchar - line->buffer);
    *cursor = (int)(line->cursor - line->buffer);
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
