// SPDX-License-Identifier: Apache-2.0
// libspeechd, Speech Dispatcher's client library (Debian's libspeechd-dev): one SSIP connection for the
// game. It ships a pkg-config file, but its headers sit in a folder of their own; this shim names them.
#ifndef EFB_SPEECHD_SHIM_H
#define EFB_SPEECHD_SHIM_H

#include <stdlib.h>
#include <speech-dispatcher/libspeechd.h>

/// Opens a connection (SPD_MODE_SINGLE: every call waits for the server's reply; no thread of its
/// own), starting the server when it is not running, as spd-say does. NULL on failure, with the
/// library's reason in `*error` (to be freed with efb_speechd_free), or NULL there too.
static inline SPDConnection *efb_speechd_open(char **error) {
    *error = NULL;
    return spd_open2("efb", "main", NULL, SPD_MODE_SINGLE, NULL, 1, error);
}

/// Frees a string the library allocated.
static inline void efb_speechd_free(char *text) { free(text); }

#endif
