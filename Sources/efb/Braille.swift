import ArgumentParser
import EscapeBraille
import EscapeRuntime
import Foundation

/// `efb braille`: plays on a refreshable Braille display through BRLTTY.
struct Braille: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play on a Braille display through BRLTTY (BrlAPI).",
        discussion: """
            BRLTTY must be running for your display (e.g. sudo systemctl start brltty). Keys: LNUP/LNDN move, \
            a routing key activates, FWINLT/FWINRT pan; the README lists the whole binding. BRLTTY keeps its \
            own HELP, LEARN and PREFMENU keys: its key help shows which of your display's keys do what.
            """
    )

    @OptionGroup var game: GameOptions

    @OptionGroup(title: "Sound") var sound: SoundOptions

    @Option(help: "BRLTTY's address: HOST:N is TCP port 4101+N, :N a local socket (default: BrlAPI's own).")
    var host: String?

    @Option(help: "How to authenticate: none, keyfile:PATH, ... (default: BrlAPI's key file).")
    var auth: String?

    @Option(help: "Seconds a message stays on the display; 0 keeps it until a key is pressed.")
    var flashTime: Double = 5

    func validate() throws {
        if !(flashTime >= 0 && flashTime <= 3600) {
            throw ValidationError("--flash-time must be between 0 and 3600 seconds.")
        }
    }

    func run() throws {
        #if BrlAPI
        let options = BrailleFrontEnd.Options(
            view: .init(flashMilliseconds: Int64(flashTime * 1000)),
            keyLanguage: KeyLanguage(locale: game.adventureLocale)
        )
        let clock = MonotonicClock()
        try game.play(clock: clock, sound: sound) {
            BrailleFrontEnd(
                connector: BrlAPIConnector(host: host, auth: auth),
                clock: clock,
                options: options,
                log: { FileHandle.standardError.write(Data("efb braille: \($0)\n".utf8)) }
            )
        }
        #else
        FileHandle.standardError.write(
            Data("efb braille: this efb was built without BrlAPI (the BrlAPI trait is off).\n".utf8)
        )
        throw ExitCode(69)
        #endif
    }
}
