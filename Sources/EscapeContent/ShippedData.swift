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
/// - installed (by the Debian package, or under any prefix, or from an extracted tree), the data is at
///   `../share/efb/` from the binary: `/usr/bin/efb` reads `/usr/share/efb/adventures/en.json`; the
///   whole program, `efb-full`, is installed at `PREFIX/libexec/efb/` and reads `../../share/efb/`;
/// - built by SwiftPM, the data is in the resource bundles SwiftPM copies beside the binary (and beside
///   the test bundle), such as `.build/debug/EscapeFromBlindness_EscapeContent.resources/Adventures/`.
///
/// SwiftPM's own accessor (`Bundle.module`) is not used: when its bundle is missing it stops the program,
/// and it falls back to the absolute path of the build folder, so a copied binary would read the build
/// tree's files instead of its own.
public enum ShippedData {
    /// One kind of shipped data, each in a folder of its own.
    public enum Kind: Sendable, CaseIterable {
        /// The adventure files, one per locale (`en.json`, `fr.json`).
        case adventures
        /// The sound pack: `cues/` and `ambiences/`.
        case sounds
        /// The page `efb web` serves: `index.html`, `app.js` and `style.css`.
        case page

        /// The folder's name under `share/efb` when installed.
        public var installedName: String {
            switch self {
            case .adventures: "adventures"
            case .sounds: "sounds"
            case .page: "web"
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
    /// - Returns: The folder's path, or `nil` when neither place has it.
    public static func folder(_ kind: Kind) -> String? {
        executablePath.flatMap { folder(kind, forExecutable: $0) }
    }

    /// The folder holding `kind` for the executable at `executable`: `../share/efb/NAME` from its folder
    /// when that folder exists, else `../../share/efb/NAME` (from `PREFIX/libexec/efb`), else SwiftPM's
    /// resource folder beside it, else `nil`.
    ///
    /// - Parameters:
    ///   - kind: The data wanted.
    ///   - executable: The executable's path; a symbolic link is resolved first, so a link to the binary
    ///     (`/usr/local/bin/efb` pointing into `/opt/efb/bin`) finds the data of the binary it points to.
    /// - Returns: The folder's path, or `nil` when neither place has it.
    public static func folder(_ kind: Kind, forExecutable executable: String) -> String? {
        let binary = resolved(executable) ?? executable
        let directory = parent(of: binary)
        let candidates = [
            normalized("\(directory)/../share/efb/\(kind.installedName)"),
            normalized("\(directory)/../../share/efb/\(kind.installedName)"),
            "\(directory)/\(kind.builtPath)",
        ]
        return candidates.first(where: isDirectory)
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

    /// `path` with `..` resolved when the folder exists, so messages name `/usr/share/efb`, not
    /// `/usr/bin/../share/efb`.
    private static func normalized(_ path: String) -> String {
        resolved(path) ?? path
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }
}
