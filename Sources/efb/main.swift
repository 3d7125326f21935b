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

let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessEnvironment.current
CrashLine.install(french: ProcessEnvironment.messageLocale(in: environment)?.hasPrefix("fr") == true)
if let pipe = PipeCommandLine(arguments: arguments, standardInputIsTerminal: isatty(0) == 1) {
    exit(pipe.run(environment: environment))
}
FullProgram.exec(arguments: arguments)
