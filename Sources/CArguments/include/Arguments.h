// SPDX-License-Identifier: Apache-2.0
// CArguments has no interface: its constructor (Arguments.c) runs before main.
#ifndef EFB_C_ARGUMENTS_H
#define EFB_C_ARGUMENTS_H
#endif
