// SPDX-License-Identifier: Apache-2.0
// liblouis, the Braille translator: its header as it is (Swift imports every function it needs);
// the shim exists so the module map names one header of ours, like CBrlAPI's.
#ifndef EFB_LOUIS_SHIM_H
#define EFB_LOUIS_SHIM_H

#include <liblouis/liblouis.h>

#endif
