import ArgumentParser

/// `efb`: Escape From Blindness, an escape-room adventure for players of assistive technology.
@main
struct EFB: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "efb",
        abstract: "Escape From Blindness: an escape-room adventure played with screen-reader gestures.",
        discussion: """
            The engine speaks newline-delimited JSON (see Protocol/README.md). `efb pipe` is the plain pipe
            any front end, editor or bot drives.
            """,
        version: "0.1.0",
        subcommands: [Pipe.self, Braille.self, Validate.self],
        defaultSubcommand: Pipe.self
    )
}
