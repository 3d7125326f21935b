// SPDX-License-Identifier: Apache-2.0

/// The BRLTTY commands the front end understands, with BRLTTY's own numbers (`BRL_CMD_*`).
///
/// They arrive through BrlAPI as command keys, whatever the display's own key names are: BRLTTY's
/// key tables turn each display's keys into these commands.
package enum BrailleCommand: UInt32, Sendable, Hashable, CaseIterable {
    /// BRLTTY gives the display back after a screen of its own (it follows ``offline``).
    case noop = 0
    case lineUp = 1
    case lineDown = 2
    case previousDifferentLine = 5
    case nextDifferentLine = 6
    case attributeUp = 7
    case attributeDown = 8
    case top = 9
    case bottom = 10
    case topLeft = 11
    case bottomLeft = 12
    case previousParagraph = 13
    case nextParagraph = 14
    case previousPrompt = 15
    case nextPrompt = 16
    case fullWindowLeft = 23
    case fullWindowRight = 24
    case home = 29
    case back = 30
    case `return` = 31
    case trackCursor = 40
    case info = 50
    /// BRLTTY took the display (for its menu or a message) or the display went away; the connection stays.
    case offline = 76

    /// The name BRLTTY's key tables and documentation use.
    package var brlttyName: String {
        switch self {
        case .noop: "NOOP"
        case .lineUp: "LNUP"
        case .lineDown: "LNDN"
        case .previousDifferentLine: "PRDIFLN"
        case .nextDifferentLine: "NXDIFLN"
        case .attributeUp: "ATTRUP"
        case .attributeDown: "ATTRDN"
        case .top: "TOP"
        case .bottom: "BOT"
        case .topLeft: "TOP_LEFT"
        case .bottomLeft: "BOT_LEFT"
        case .previousParagraph: "PRPGRPH"
        case .nextParagraph: "NXPGRPH"
        case .previousPrompt: "PRPROMPT"
        case .nextPrompt: "NXPROMPT"
        case .fullWindowLeft: "FWINLT"
        case .fullWindowRight: "FWINRT"
        case .home: "HOME"
        case .back: "BACK"
        case .return: "RETURN"
        case .trackCursor: "CSRTRK"
        case .info: "INFO"
        case .offline: "OFFLINE"
        }
    }
}

/// A key as BrlAPI delivers it, decoded.
package enum BrailleKey: Sendable, Hashable {
    /// A BRLTTY command.
    case command(BrailleCommand)
    /// A routing key, with the 0-based index of its cell.
    case route(cell: Int)
    /// A character typed on the Braille keyboard (through BRLTTY's text table).
    case character(Character)
    /// Dots typed on the Braille keyboard, as they are (PASSDOTS; dots 1-8 are bits 0-7), when the
    /// front end asked for them to back-translate with a contracted table.
    case dots(UInt8)
    /// Enter.
    case enter
    /// Backspace.
    case backspace
    /// Delete.
    case delete
    /// Escape.
    case escape
    /// An arrow key.
    case arrow(Arrow)
    /// Home.
    case home
    /// End.
    case end
    /// Anything else, with its raw code.
    case other(UInt64)

    /// The four arrows.
    package enum Arrow: Sendable, Hashable {
        case left, right, up, down
    }

    // Layout of a BrlAPI key code (brlapi_keycodes.h): bits 31-29 the type, for commands bits 28-16
    // the block and bits 15-0 the argument; flags above bit 32.
    static let typeMask: UInt64 = 0xE000_0000
    static let commandType: UInt64 = 0x2000_0000
    static let symbolType: UInt64 = 0
    static let blockMask: UInt64 = 0x1FFF_0000
    static let argumentMask: UInt64 = 0xFFFF
    static let routeBlock: UInt64 = 0x0001_0000
    static let passDotsBlock: UInt64 = 0x0022_0000
    static let unicodeSymbol: UInt64 = 0x0100_0000

    /// Decodes a BrlAPI key code.
    package init(code: UInt64) {
        let type = code & Self.typeMask
        if type == Self.commandType {
            let block = code & Self.blockMask
            let argument = code & Self.argumentMask
            if block == 0, let command = BrailleCommand(rawValue: UInt32(argument)) {
                self = .command(command)
            } else if block == Self.routeBlock {
                self = .route(cell: Int(argument))
            } else if block == Self.passDotsBlock {
                self = .dots(UInt8(argument & 0xFF))
            } else {
                self = .other(code)
            }
            return
        }
        guard type == Self.symbolType else {
            self = .other(code)
            return
        }
        let symbol = code & 0x1FFF_FFFF
        switch symbol {
        case 0xFF0D: self = .enter
        case 0xFF08: self = .backspace
        case 0xFFFF: self = .delete
        case 0xFF1B: self = .escape
        case 0xFF51: self = .arrow(.left)
        case 0xFF52: self = .arrow(.up)
        case 0xFF53: self = .arrow(.right)
        case 0xFF54: self = .arrow(.down)
        case 0xFF50: self = .home
        case 0xFF57: self = .end
        default:
            var scalarValue: UInt64?
            if symbol & 0xFF00_0000 == Self.unicodeSymbol {
                scalarValue = symbol & 0x00FF_FFFF
            } else if symbol >= 0x20 && symbol <= 0xFF && symbol != 0x7F {
                scalarValue = symbol
            }
            if let scalarValue, let scalar = Unicode.Scalar(UInt32(scalarValue)),
                !scalar.properties.isNoncharacterCodePoint,
                scalar.value >= 0x20
            {
                self = .character(Character(scalar))
            } else {
                self = .other(code)
            }
        }
    }
}
