// SPDX-License-Identifier: Apache-2.0
// The program's arguments, handed to the Swift runtime before main runs.
//
// Linked statically (--static-swift-stdlib), the Swift runtime reads CommandLine.arguments from
// /proc/self/cmdline: where /proc is not mounted (a chroot, some containers) every efb command line
// came out empty, so `efb --version` or `efb validate FILE` started the pipe instead. glibc calls each
// ELF constructor with argc, argv and envp: this one gives them to the runtime, which then needs no /proc.
#include "Arguments.h"

extern void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc);

__attribute__((constructor)) static void efb_keep_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    if (argv != 0) {
        _swift_stdlib_overrideUnsafeArgvArgc(argv, argc);
    }
}
