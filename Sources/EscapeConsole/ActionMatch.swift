// SPDX-License-Identifier: Apache-2.0
import EscapeCore

/// Which of an element's custom actions a typed name means.
///
/// Names are compared folded (case and accents ignored). A typed word names an action when it is the
/// whole name, begins it, or begins it once the pronouns and articles it opens with are set aside —
/// French actions start with one (« La tourner dans la serrure »), so `tourner` names that one — and
/// failing all of those, when it begins one of the name's words.
package enum ActionMatch: Equatable {
    /// No action.
    case none
    /// This action.
    case one(String)
    /// Several actions, in their order.
    case several([String])

    /// The words an action name may open with before its verb, folded.
    private static let openingWords: Set<String> = [
        "le", "la", "les", "l", "lui", "leur", "y", "en", "se", "s", "me", "m", "te", "t", "it", "the",
    ]

    /// The actions among `names` that `typed` means.
    ///
    /// - Parameters:
    ///   - typed: The name as typed.
    ///   - names: The element's actions, in order.
    /// - Returns: The one meant, the several it could mean, or none.
    package static func matches(_ typed: String, among names: [String]) -> ActionMatch {
        let wanted = words(of: typed).joined(separator: " ")
        guard !wanted.isEmpty else { return .none }
        let folded = names.map { words(of: $0) }
        if let exact = folded.firstIndex(where: { $0.joined(separator: " ") == wanted }) { return .one(names[exact]) }
        let tests: [([String]) -> Bool] = [
            { $0.joined(separator: " ").hasPrefix(wanted) },
            { verbFirst($0).joined(separator: " ").hasPrefix(wanted) },
            { name in name.indices.contains { name[$0...].joined(separator: " ").hasPrefix(wanted) } },
        ]
        for test in tests {
            let found = names.indices.filter { test(folded[$0]) }.map { names[$0] }
            if found.count == 1, let name = found.first { return .one(name) }
            if found.count > 1 { return .several(found) }
        }
        return .none
    }

    /// The folded words of `text`, split at spaces and apostrophes.
    private static func words(of text: String) -> [String] {
        AnswerFolding.fold(text).split { $0 == " " || $0 == "'" || $0 == "\u{2019}" }.map(String.init)
    }

    /// `name` without the pronouns and articles it opens with.
    private static func verbFirst(_ name: [String]) -> [String] {
        Array(name.drop { openingWords.contains($0) })
    }
}
