// SPDX-License-Identifier: Apache-2.0
// `efb`: starts the pipe itself and hands every other command line to the whole program, efb-full.
//
// Bots and embedders start an engine per game or per worker; this executable links the game, the
// protocol and the pipe only (no Foundation, no ArgumentParser, no front end), so `efb pipe` starts
// in a few milliseconds and a few MiB. Everything else (`efb play`, `braille`, `serve`, `web`,
// `validate`, help, and any command line the pipe's reader does not take as ArgumentParser would) is
// efb-full, run in this process's place with the same arguments.
import EscapeLaunch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Before anything is opened or a signal can come: descriptors 0-2 exist, the stop signals wait for
// their handlers (efb-full, run in this process's place, inherits the mask).
StandardDescriptors.prepareProcess()
let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessEnvironment.current
CrashLine.install(language: ProcessEnvironment.messageLanguage(in: environment))
if let pipe = PipeCommandLine(arguments: arguments, standardInputIsTerminal: isatty(0) == 1) {
    exit(pipe.run(environment: environment))
}
FullProgram.exec(arguments: arguments)
