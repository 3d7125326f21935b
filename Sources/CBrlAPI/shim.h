// SPDX-License-Identifier: Apache-2.0
// What Swift cannot import from BrlAPI's headers, wrapped: the thread-local error (a macro), the
// write-arguments initializer (a macro), the UINT64_C key constants, and an exception handler that
// records the error instead of aborting the process.
#ifndef EFB_BRLAPI_SHIM_H
#define EFB_BRLAPI_SHIM_H

#define BRLAPI_NO_SINGLE_SESSION 1
#define BRLAPI_NO_DEPRECATED 1
#include <brlapi.h>
#include <stdint.h>
#include <string.h>

/// The calling thread's BrlAPI error number (`brlapi_errno`).
static inline int efb_brlapi_errno(void) { return brlapi_errno; }

/// The calling thread's libc errno as BrlAPI saw it (`brlapi_libcerrno`).
static inline int efb_brlapi_libcerrno(void) { return brlapi_libcerrno; }

/// The calling thread's BrlAPI error in words, written into `buffer`.
static inline void efb_brlapi_strerror(char *buffer, size_t size) {
    brlapi_strerror_r(&brlapi_error, buffer, size);
}

/// A write request with BrlAPI's defaults (`BRLAPI_WRITEARGUMENTS_INITIALIZER`).
static inline brlapi_writeArguments_t efb_brlapi_write_arguments(void) {
    brlapi_writeArguments_t arguments = BRLAPI_WRITEARGUMENTS_INITIALIZER;
    return arguments;
}

/// The last exception the handler recorded, 0 when none; reading it clears it.
static int efb_brlapi_pending_exception = 0;

static inline void efb_brlapi_record_exception(
    brlapi_handle_t *handle, int error, brlapi_packetType_t type, const void *packet, size_t size
) {
    (void)handle;
    (void)type;
    (void)packet;
    (void)size;
    efb_brlapi_pending_exception = error == 0 ? -1 : error;
}

/// Installs the recording handler on `handle`; call it after every successful connect.
static inline void efb_brlapi_install_exception_handler(brlapi_handle_t *handle) {
    brlapi__setExceptionHandler(handle, efb_brlapi_record_exception);
}

/// Takes the pending exception: its error number, or 0 when there is none.
static inline int efb_brlapi_take_exception(void) {
    int error = efb_brlapi_pending_exception;
    efb_brlapi_pending_exception = 0;
    return error;
}

/// Adds to BrlAPI's default key set OFFLINE (BRLTTY took the display for a message or its menu, or
/// the display went away) and NOOP (BRLTTY gave it back), and gives BRLTTY back its preference-menu,
/// key-help and learn-mode keys, so the player can still reach BRLTTY's own settings and key help.
/// Typed dots stay out of the set, so they arrive as characters through BRLTTY's text table, unless
/// `dots` asks for them as they are (PASSDOTS, every combination), for contracted Braille.
static inline int efb_brlapi_accept_keys(brlapi_handle_t *handle, int dots) {
    brlapi_keyCode_t availability[] = {
        BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_OFFLINE,
        BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_NOOP,
    };
    if (brlapi__acceptKeys(handle, brlapi_rangeType_key, availability, 2) < 0) return -1;
    brlapi_keyCode_t passDots[] = {BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_PASSDOTS};
    if (dots && brlapi__acceptKeys(handle, brlapi_rangeType_command, passDots, 1) < 0) return -1;
    brlapi_keyCode_t own[] = {
        BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_HELP,
        BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_LEARN,
        BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_PREFMENU,
        BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_PREFSAVE,
        BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_PREFLOAD,
    };
    return brlapi__ignoreKeys(handle, brlapi_rangeType_key, own, sizeof own / sizeof own[0]);
}

// Key code layout and the constants the key decoder is checked against.
static const uint64_t EFB_BRLAPI_KEY_TYPE_MASK = BRLAPI_KEY_TYPE_MASK;
static const uint64_t EFB_BRLAPI_KEY_TYPE_CMD = BRLAPI_KEY_TYPE_CMD;
static const uint64_t EFB_BRLAPI_KEY_TYPE_SYM = BRLAPI_KEY_TYPE_SYM;
static const uint64_t EFB_BRLAPI_KEY_CMD_BLK_MASK = BRLAPI_KEY_CMD_BLK_MASK;
static const uint64_t EFB_BRLAPI_KEY_CMD_ARG_MASK = BRLAPI_KEY_CMD_ARG_MASK;
static const uint64_t EFB_BRLAPI_KEY_CMD_ROUTE = BRLAPI_KEY_CMD_ROUTE;
static const uint64_t EFB_BRLAPI_KEY_CMD_OFFLINE = BRLAPI_KEY_CMD_OFFLINE;
static const uint64_t EFB_BRLAPI_KEY_CMD_PASSDOTS = BRLAPI_KEY_CMD_PASSDOTS;
static const uint64_t EFB_BRLAPI_KEY_CMD_LNUP = BRLAPI_KEY_CMD_LNUP;
static const uint64_t EFB_BRLAPI_KEY_CMD_FWINRT = BRLAPI_KEY_CMD_FWINRT;
static const uint64_t EFB_BRLAPI_KEY_CMD_CSRTRK = BRLAPI_KEY_CMD_CSRTRK;
static const uint64_t EFB_BRLAPI_KEY_CMD_NOOP = BRLAPI_KEY_CMD_NOOP;
static const uint64_t EFB_BRLAPI_KEY_SYM_LINEFEED = BRLAPI_KEY_SYM_LINEFEED;
static const uint64_t EFB_BRLAPI_KEY_SYM_BACKSPACE = BRLAPI_KEY_SYM_BACKSPACE;
static const uint64_t EFB_BRLAPI_KEY_SYM_UNICODE = BRLAPI_KEY_SYM_UNICODE;
static const uint64_t EFB_BRLAPI_KEY_FLAGS_MASK = BRLAPI_KEY_FLAGS_MASK;

/// The size of one connection handle, to allocate it from Swift.
static inline size_t efb_brlapi_handle_size(void) { return brlapi_getHandleSize(); }

#endif
