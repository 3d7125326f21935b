// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import EscapeCore
import EscapeLaunch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `efb`: Escape From Blindness, an escape-room adventure for players of assistive technology.
@main
struct EFB: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "efb",
        abstract: "Escape From Blindness: an escape-room adventure played with screen-reader gestures.",
        discussion: """
            The engine speaks newline-delimited JSON (see /usr/share/doc/efb/protocol/README.md.gz, as the \
            package installs it). `efb pipe` is the plain pipe any front end, editor or bot drives; `efb play` \
            is the game at a terminal. Without a subcommand, efb plays at a terminal when standard input is \
            one, and is the pipe otherwise.
            """,
        version: "0.1.0",
        subcommands: [Play.self, Pipe.self, Braille.self, Serve.self, Validate.self] + webCommands,
        defaultSubcommand: Pipe.self
    )

    /// Picks the default subcommand by standard input: `play` at a terminal, `pipe` (the default) otherwise.
    static func main() {
        StandardDescriptors.prepareProcess()
        CrashLine.install(language: ProcessEnvironment.messageLanguage(in: ProcessEnvironment.current))
        var arguments = Array(CommandLine.arguments.dropFirst())
        // A first argument that is a word (a subcommand, or `help`) or a top-level flag chooses for itself.
        if isatty(0) == 1 && !PipeCommandLine.choosesForItself(arguments.first) { arguments.insert("play", at: 0) }
        main(arguments)
    }
}
