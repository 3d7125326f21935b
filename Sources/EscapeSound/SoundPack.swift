// SPDX-License-Identifier: Apache-2.0
import EscapeContent
package import EscapeCore

#if canImport(FoundationEssentials)
// Foundation's essentials: all of Foundation would link ICU's 34 MB of data into efb-full.
import FoundationEssentials
#else
import Foundation
#endif

/// Where the sound files are: one per ``SoundCue`` in `cues/`, one per ``Ambience`` in `ambiences/`,
/// each named after its wire name (`cues/torch-out.wav`, `ambiences/crackling-forge.wav`).
///
/// The shipped pack (``bundled``) is made by `scripts/make-sounds`; an ambience an adventure names but
/// the pack lacks has no file, and plays as silence.
package struct SoundPack: Sendable, Hashable {
    /// The pack's folder.
    package var folder: String

    /// A pack in `folder`.
    package init(folder: String) {
        self.folder = folder
    }

    /// The pack shipped with the game (``ShippedData``: `../share/games/efb/sounds` from the binary, or beside
    /// it when built); `nil` if it was not installed.
    package static var bundled: SoundPack? {
        ShippedData.folder(.sounds).map { SoundPack(folder: $0) }
    }

    /// The file of `cue`, if the pack has one.
    package func file(for cue: SoundCue) -> String? {
        existing("\(folder)/cues/\(cue.rawValue).wav")
    }

    /// The file of `ambience`, if the pack has one.
    package func file(for ambience: Ambience) -> String? {
        existing("\(folder)/ambiences/\(ambience.name).wav")
    }

    private func existing(_ path: String) -> String? {
        FileManager.default.isReadableFile(atPath: path) ? path : nil
    }
}
