// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the data shipped with the game is: the adventures, the sound pack and the page of `efb web`.
///
/// The data is looked up relative to the running executable's own path (symbolic links resolved), so one
/// rule serves every way the game is run:
/// - installed (by the Debian package, or under any prefix, or from an extracted tree), the data is where
///   Debian puts a game's, at `../share/games/efb/` from the binary: `/usr/games/efb` reads
///   `/usr/share/games/efb/adventures/en.json`; the whole program, `efb-full`, is installed at
///   `PREFIX/libexec/efb/` and reads `../../share/games/efb/`;
/// - built by SwiftPM, the data is in the resource bundles SwiftPM copies beside the binary (and beside
///   the test bundle), such as `.build/debug/EscapeFromBlindness_EscapeContent.resources/Adventures/`.
///
/// When the executable's path is unknown (Linux without `/proc` mounted, as in some chroots and
/// containers), the data is looked for where the Debian package installs it, under ``installPrefix``.
///
/// SwiftPM's own accessor (`Bundle.module`) is not used: when its bundle is missing it stops the program,
/// and it falls back to the absolute path of the build folder, so a copied binary would read the build
/// tree's files instead of its own.
public enum ShippedData {
    /// The prefix the Debian package installs the game under (`scripts/package`): where the data and the
    /// whole program are looked for when the running executable's own path cannot be known.
    public static let installPrefix = "/usr"

    /// The data's folder under ``installPrefix``, as Debian has a game's data.
    public static var installedData: String { "\(installPrefix)/share/games/efb" }

    /// One kind of shipped data, each in a folder of its own.
    public enum Kind: Sendable, CaseIterable {
        /// The adventure files, one per locale (`en.json`, `fr.json`).
        case adventures
        /// The sound pack: `cues/` and `ambiences/`.
        case sounds
        /// The page `efb web` serves: `index.html`, `app.js` and `style.css`.
        case page

        /// The folder's name under `share/games/efb` when installed.
        public var installedName: String {
            switch self {
            case .adventures: "adventures"
            case .sounds: "sounds"
            case .page: "web"
            }
        }

        /// What the folder holds, for messages.
        public var description: String {
            switch self {
            case .adventures: "adventures"
            case .sounds: "sounds"
            case .page: "web page"
            }
        }

        /// The folder's path beside a binary SwiftPM built: the target's resource bundle, then the folder
        /// the target copies into it.
        public var builtPath: String {
            switch self {
            case .adventures: "EscapeFromBlindness_EscapeContent.resources/Adventures"
            case .sounds: "EscapeFromBlindness_EscapeSound.resources/Sounds"
            case .page: "EscapeFromBlindness_EscapeWeb.resources/Page"
            }
        }
    }

    /// The folder holding `kind` for the running executable.
    ///
    /// - Parameter kind: The data wanted.
    /// - Returns: The folder's path, or `nil` when no place searched has it (`notFound(_:)` says which).
    public static func folder(_ kind: Kind) -> String? {
        places(kind, forExecutable: executablePath).first(where: isDirectory)
    }

    /// The folder holding `kind` for the executable at `executable`: the first of
    /// ``places(_:forExecutable:)`` that exists.
    ///
    /// - Parameters:
    ///   - kind: The data wanted.
    ///   - executable: The executable's path; a symbolic link is resolved first, so a link to the binary
    ///     (`/usr/local/bin/efb` pointing into `/opt/efb/games`) finds the data of the binary it points to.
    /// - Returns: The folder's path, or `nil` when no place has it.
    public static func folder(_ kind: Kind, forExecutable executable: String) -> String? {
        places(kind, forExecutable: executable).first(where: isDirectory)
    }

    /// Where `kind` is looked for, in order: `../share/games/efb/NAME` from the executable's folder, then
    /// `../../share/games/efb/NAME` (from `PREFIX/libexec/efb`), then SwiftPM's resource folder beside it;
    /// without an executable path, `share/games/efb/NAME` under ``installPrefix``.
    ///
    /// - Parameters:
    ///   - kind: The data wanted.
    ///   - executable: The executable's path, or `nil` when it is unknown (no `/proc`).
    /// - Returns: Absolute paths, `..` resolved where the folder exists.
    public static func places(_ kind: Kind, forExecutable executable: String?) -> [String] {
        guard let executable else { return ["\(installedData)/\(kind.installedName)"] }
        let binary = resolved(executable) ?? executable
        let directory = parent(of: binary)
        return [
            normalized("\(directory)/../share/games/efb/\(kind.installedName)"),
            normalized("\(directory)/../../share/games/efb/\(kind.installedName)"),
            "\(directory)/\(kind.builtPath)",
        ]
    }

    /// What to say when ``folder(_:)`` finds no `kind`: every place searched, and why only the installed
    /// one when the executable's own path is unknown.
    ///
    /// - Parameters:
    ///   - kind: The data wanted.
    ///   - executable: The executable's path, or `nil` when it is unknown; by default the running one's.
    /// - Returns: A sentence without a final full stop, such as `no place searched from the binary has the
    ///   shipped adventures: /usr/share/games/efb/adventures, ...`.
    public static func notFound(_ kind: Kind, forExecutable executable: String? = executablePath) -> String {
        let places = places(kind, forExecutable: executable)
        guard executable != nil else {
            return "\(places.joined(separator: ", ")) (where the package installs the game's data) does not have "
                + "the shipped \(kind.description), and this program's own path, from which the data is found "
                + "elsewhere, is unknown (/proc/self/exe cannot be read: is /proc mounted?)"
        }
        return "no place searched from the binary has the shipped \(kind.description): "
            + places.joined(separator: ", ")
    }

    /// The running executable's path, symbolic links resolved (Linux's `/proc/self/exe`).
    public static var executablePath: String? {
        #if os(Linux)
        return resolved("/proc/self/exe")
        #else
        return CommandLine.arguments.first.flatMap { resolved($0) }
        #endif
    }

    /// `realpath(3)`: the absolute path with every link, `.` and `..` resolved, or `nil` if it does not exist.
    private static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// The folder `path` is in (`/` for a file at the root, `.` for a bare name).
    package static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `path` with `..` resolved, so messages name `/usr/share/games/efb`, not
    /// `/usr/games/../share/games/efb`: by `realpath(3)` when the folder exists, else by its text.
    private static func normalized(_ path: String) -> String {
        if let real = resolved(path) { return real }
        guard path.hasPrefix("/") else { return path }
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}
