// SPDX-License-Identifier: Apache-2.0
import EscapeContent

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `efb-full`: the whole program (every front end, ArgumentParser's help and messages), which `efb`
/// runs in its own place for every command line but the pipe's.
///
/// `efb` itself links none of it, nor Foundation, so the pipe starts in a few milliseconds with a few
/// MiB; the whole program is found beside `efb` (a build folder, or an unpacked tree) or where the
/// Debian package installs it, `../libexec/efb/efb-full` from `/usr/games/efb`; when `efb`'s own path is
/// unknown (no `/proc`), at `libexec/efb/efb-full` under the package's prefix (``ShippedData/installPrefix``).
package enum FullProgram {
    /// The whole program's file name.
    package static let name = "efb-full"

    /// Where the whole program may be for an `efb` at `executable`, in the order they are tried.
    ///
    /// - Parameter executable: `efb`'s own path, links resolved, or `nil` when it is unknown.
    /// - Returns: Beside it, then `../libexec/efb/` from its folder; without it, the package's place.
    package static func candidates(forExecutable executable: String?) -> [String] {
        guard let executable else { return ["\(ShippedData.installPrefix)/libexec/efb/\(name)"] }
        let folder = ShippedData.parent(of: executable)
        return ["\(folder)/\(name)", "\(folder)/../libexec/efb/\(name)"]
    }

    /// Replaces this process with the whole program, given `arguments` (without the program's name).
    ///
    /// When it cannot be started, says so on standard error and ends with status 69 (EX_UNAVAILABLE).
    package static func exec(arguments: [String]) -> Never {
        let places = candidates(forExecutable: ShippedData.executablePath)
        // The program's name stays what the person typed: messages and help say `efb`.
        let argv = [CommandLine.arguments.first ?? "efb"] + arguments
        for place in places where access(place, F_OK) == 0 {
            var pointers = argv.map { strdup($0) }
            pointers.append(nil)
            execv(place, pointers)
            let problem = String(cString: strerror(errno))
            StandardError.write(
                "efb: cannot start \(place), the whole program, which answers this command line: \(problem).\n"
            )
            exit(69)
        }
        let looked = " (looked for \(places.joined(separator: " and ")))"
        StandardError.write(
            "efb: this command line is answered by \(name), the whole program (efb itself only starts a plain "
                + "`efb pipe`), and it is not installed beside efb\(looked). "
                + "Reinstall the package, or build it: swift build --product \(name).\n"
        )
        exit(69)
    }
}
