// SPDX-License-Identifier: Apache-2.0

/// Finds French text set with ordinary spaces where French printers put a no-break one.
package enum FrenchSpacing {
    /// The places in `text` where an ordinary space (U+0020) comes before `: ; ? ! »` or after `«`,
    /// each with a few characters around it, to name in a failure.
    ///
    /// - Parameter text: A French text the game wrote.
    /// - Returns: The places, empty when the text is set as French is.
    package static func plainSpaces(in text: String) -> [String] {
        let characters = Array(text)
        var places: [String] = []
        for index in characters.indices where characters[index] == " " {
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            let previous = index > 0 ? characters[index - 1] : nil
            guard [":", ";", "?", "!", "»"].contains(next) || previous == "«" else { continue }
            let start = max(0, index - 12)
            let end = min(characters.count, index + 6)
            places.append(String(characters[start..<end]))
        }
        return places
    }
}
