// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import EscapeBraille
import EscapeCore
import EscapeLaunch
import EscapeRuntime

#if canImport(FoundationEssentials)
// Foundation's essentials: all of Foundation would link ICU's 34 MB of data into efb-full.
import FoundationEssentials
#else
import Foundation
#endif

/// `efb braille`: plays on a refreshable Braille display through BRLTTY.
struct Braille: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play on a Braille display through BRLTTY (BrlAPI).",
        discussion: """
            BRLTTY must be running for your display (e.g. sudo systemctl start brltty). Keys: LNUP/LNDN move, \
            a routing key activates, FWINLT/FWINRT pan; /usr/share/doc/efb/BRAILLE.md.gz (docs/BRAILLE.md in \
            the source) lists the whole binding. BRLTTY keeps its own HELP, LEARN and PREFMENU keys: its key \
            help shows which of your display's keys do what. \
            --braille-table (or EFB_BRAILLE_TABLE) shows contracted Braille through liblouis: a table such \
            as en-ueb-g2, en-us-g2 or fr-bfu-g2, auto for the game's language, brltty for BRLTTY's text table.
            """
    )

    @OptionGroup var game: GameOptions

    @OptionGroup(title: "Sound") var sound: SoundOptions

    @Option(
        help: ArgumentHelp(
            "Join the game efb serve shares on this socket instead of starting one.",
            discussion: "Your first command plays once no other client controls the game; Ctrl+C leaves it.",
            valueName: "socket"
        ),
        completion: .file()
    )
    var attach: String?

    @Option(help: "BRLTTY's address: HOST:N is TCP port 4101+N, :N a local socket (default: BrlAPI's own).")
    var host: String?

    @Option(help: "How to authenticate: none, keyfile:PATH, ... (default: BrlAPI's key file).")
    var auth: String?

    @Option(help: "Seconds a message stays on the display; 0 keeps it until a key is pressed.")
    var flashTime: Double = 5

    @Option(
        help: ArgumentHelp(
            "Braille table: brltty (BRLTTY's text table), auto, or a liblouis table such as en-ueb-g2.",
            discussion: "Default: $EFB_BRAILLE_TABLE, else brltty.",
            valueName: "name"
        )
    )
    var brailleTable: String?

    @Flag(
        help: ArgumentHelp(
            "Log every key read, message received and frame written, with the time, on standard error.",
            discussion: "What to attach to a report of a display that did not do what a key asked."
        )
    )
    var trace = false

    func validate() throws {
        if !(flashTime >= 0 && flashTime <= 3600) {
            throw ValidationError("--flash-time must be between 0 and 3600 seconds.")
        }
        try game.validate(attach: attach)
    }

    func run() throws {
        let choice = BrailleTableChoice(brailleTable ?? ProcessInfo.processInfo.environment["EFB_BRAILLE_TABLE"])
        #if !Louis
        if choice != .brltty {
            Self.say(
                "contracted Braille is unavailable in this build (built without liblouis: the Louis trait is off)."
            )
            throw ExitCode(69)
        }
        #endif
        #if BrlAPI
        let chosen = try Self.translator(for: choice)
        let clock = MonotonicClock()
        var display: BrailleFrontEnd?
        try game.play(clock: clock, sound: sound, attach: attach) { adventureLocale in
            // A joined game's language is the served one's: the environment's is the best guess here.
            let locale = adventureLocale ?? LocaleLanguage.fromEnvironment(ProcessInfo.processInfo.environment) ?? "en"
            var translator = chosen ?? PlainBrailleTranslator()
            if choice == .auto { translator = Self.automaticTranslator(language: locale) }
            if !(translator is PlainBrailleTranslator) { Self.say("Braille table: \(translator.name).") }
            let options = BrailleFrontEnd.Options(
                view: .init(flashMilliseconds: Int64(flashTime * 1000)),
                keyLanguage: BrailleWords(locale: locale).language,
                translator: translator,
                traces: trace
            )
            let frontEnd = BrailleFrontEnd(
                connector: BrlAPIConnector(host: host, auth: auth, acceptsDots: translator.takesDots),
                clock: clock,
                options: options,
                log: { Self.say($0) }
            )
            display = frontEnd
            return frontEnd
        }
        // Stopped (Ctrl+C, SIGTERM) before BRLTTY ever answered: nothing was played, and a script or a
        // service manager must not read that as a game played to its end.
        if let display, !display.isReady {
            Self.say("stopped before BRLTTY answered: no game was played.")
            throw ExitCode(69)
        }
        #else
        Self.say("this efb was built without BrlAPI (the BrlAPI trait is off).")
        throw ExitCode(69)
        #endif
    }

    private static func say(_ line: String) {
        // A trace quotes the game's texts: the terminal gets no command from them.
        StandardError.write("efb braille: \(TerminalSafety.sanitized(line))\n")
    }

    /// The table named on the command line, loaded now so a wrong name stops before the game starts;
    /// `nil` for BRLTTY's text table and for `auto` (which waits for the game's language).
    ///
    /// - Throws: `ExitCode(64)` after a message naming where the tables are, for a table liblouis lacks.
    private static func translator(for choice: BrailleTableChoice) throws -> (any BrailleTranslator)? {
        guard case .table(let name) = choice else { return nil }
        #if Louis
        do {
            return try LouisTranslator(table: name)
        } catch {
            say("\(error).")
            throw ExitCode(64)
        }
        #else
        return nil
        #endif
    }

    /// The contracted table for the game's language, or BRLTTY's text table when there is none.
    private static func automaticTranslator(language: String) -> any BrailleTranslator {
        #if Louis
        if let table = LouisTranslator.automaticTable(language: language),
            let translator = try? LouisTranslator(table: table)
        {
            return translator
        }
        say("no contracted table for \"\(language)\"; showing BRLTTY's text table.")
        #endif
        return PlainBrailleTranslator()
    }
}

/// What `--braille-table` (or `EFB_BRAILLE_TABLE`) asks for.
enum BrailleTableChoice: Equatable {
    /// BRLTTY's own text table, as without the option.
    case brltty
    /// The contracted table of the game's language.
    case auto
    /// A liblouis table by name.
    case table(String)

    /// Reads the option's value; nothing or an empty value is BRLTTY's text table.
    init(_ value: String?) {
        // Blanks around the value do not count (FoundationEssentials has no trimmingCharacters(in:)).
        let trimmed = value.map {
            String($0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        }
        switch trimmed {
        case nil, "", "brltty": self = .brltty
        case "auto": self = .auto
        case let name?: self = .table(name)
        }
    }
}
