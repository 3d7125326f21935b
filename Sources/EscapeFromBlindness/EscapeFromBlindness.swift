// SPDX-License-Identifier: Apache-2.0
// EscapeFromBlindness: the game as a library, for programs that play it in their own process.
//
// One import gives an embedder everything it needs and nothing it does not:
//
// - Adventures: `AdventureLoader` loads the shipped adventure of a locale (`AdventureLoader.bundled(locale:)`)
//   or any adventure file, validated, with every problem named by its path in the file (`ContentError`).
// - The game: `SessionHost` plays one `Session` with its clock and its save. Hand it typed `Request`s
//   (a `Command`, most often a `GameCommand` such as `.activate(element:)`) and read the
//   `StampedEvent`s it returns: a `Screen` with its `Element`s, the `FocusState`, `Announcement`s,
//   an answer's `AnswerResult`, the `ProgressSummary`, and `done` at the end of every request.
//   `EngineOptions` carry the seed of the generator that shuffles answers: the same seed and the same
//   commands give the same game.
// - Saves: `InMemorySaveStore` keeps progress in memory, `FileSaveStore` in a versioned file written
//   atomically; `SaveKeeper` opens one for a game.
// - The clock: `GameClock`, with `VirtualClock` (time moves only with `wait`, so a game replays byte for
//   byte) and `MonotonicClock` (the system's monotonic clock); any clock of the embedder's own conforms.
//
// The modules below are re-exported whole, with their members: type aliases alone would hide the members
// from a client built with `MemberImportVisibility` (SE-0444), which looks members up only in the modules
// a file imports. No Braille (BrlAPI, liblouis), console (libedit) or web (Hummingbird) code is built for
// this product. docs/EMBEDDING.md shows how to use it; Protocol/README.md describes the same game as
// NDJSON, for embedders that would rather speak JSON.

@_exported public import EscapeContent
@_exported public import EscapeCore
@_exported public import EscapeProtocol
@_exported public import EscapeRuntime
@_exported public import EscapeSaves
