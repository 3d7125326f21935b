// SPDX-License-Identifier: Apache-2.0
package import EscapeCore
import EscapeRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's environment variables, read from `environ` (no Foundation).
package enum ProcessEnvironment {
    /// Every variable, by name; of a name given twice, the first (as `getenv` finds it).
    package static var current: [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }

    /// `path` with a leading `~` (the user's home: `HOME`, else the password database) or `~user`
    /// replaced, as a shell does and as efb did through Foundation's file URLs: `--adventure=~/x.json`
    /// reaches efb with its tilde, which the shell only expands at the start of a word.
    ///
    /// - Parameters:
    ///   - path: A path as given on the command line.
    ///   - environment: The process environment.
    /// - Returns: The path, its tilde replaced; unchanged when it has none or names no known user.
    package static func expandingTilde(_ path: String, environment: [String: String]) -> String {
        guard path.hasPrefix("~") else { return path }
        let slash = path.firstIndex(of: "/") ?? path.endIndex
        let user = path[path.index(after: path.startIndex)..<slash]
        let home: String?
        if user.isEmpty {
            home =
                environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
                ?? getpwuid(getuid()).map { String(cString: $0.pointee.pw_dir) }
        } else {
            home = getpwnam(String(user)).map { String(cString: $0.pointee.pw_dir) }
        }
        guard let home else { return path }
        return home + path[slash...]
    }

    /// The language messages are said in: the first of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set
    /// and not empty.
    package static func messageLocale(in environment: [String: String]) -> String? {
        LocaleLanguage.fromEnvironment(environment)
    }

    /// The language the environment asks messages in (``messageLocale(in:)``'s), English for a language
    /// the game does not speak.
    package static func messageLanguage(in environment: [String: String]) -> EngineWords.Language {
        EngineWords(locale: messageLocale(in: environment) ?? "").language
    }
}

/// Standard error, where every message for people goes (standard output carries protocol lines only).
package enum StandardError {
    /// Writes `text` whole (``FileOutput/write(_:)``: retried after signals and short writes); a closed
    /// standard error loses it.
    package static func write(_ text: String) {
        _ = FileOutput(descriptor: 2).write(Array(text.utf8))
    }
}
