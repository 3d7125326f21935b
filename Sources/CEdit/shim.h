// libedit's readline interface (Debian's libedit-dev), for the console's line editing. Its header uses
// FILE without including stdio.h, so stdio.h comes first; its globals are set through a shim.
#ifndef EFB_EDIT_SHIM_H
#define EFB_EDIT_SHIM_H

#include <stdio.h>
#include <locale.h>
#include <editline/readline.h>

/// Sets the streams libedit edits on and leaves the signals to the program (`rl_instream`,
/// `rl_outstream`, `rl_catch_signals`: globals Swift 6 cannot write safely).
static inline void efb_edit_configure(FILE *input, FILE *output) {
    rl_instream = input;
    rl_outstream = output;
    rl_catch_signals = 0;
}

#endif
