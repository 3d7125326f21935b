// SPDX-License-Identifier: Apache-2.0
/// The short sounds the game asks its front end to play, each tied to one moment of play.
///
/// The raw values are the wire form (the `name` of a `sound` event); a front end maps each to an
/// earcon of its own. A chapter's looping ambience is not a cue: see ``Ambience``.
public enum SoundCue: String, Sendable, Hashable, CaseIterable {
    /// Focus bumped into the first or the last element of the screen.
    case boundary
    /// A chapter's title page came up.
    case chapter
    /// The level was solved.
    case solved
    /// The answer was wrong.
    case wrong
    /// A new hint has unlocked.
    case hint
    /// The level chosen on the menu is not unlocked yet.
    case locked
    /// The player solved the last level and escaped.
    case escaped
    /// The front end's assistive output went away; the game waits for it.
    case assistiveLost = "assistive-lost"
    /// The front end's assistive output came back; play resumes.
    case assistiveBack = "assistive-back"
    /// A dial of a dials lock turned one step.
    case dial
    /// A timed level's torch has one minute left.
    case torchLastMinute = "torch-last-minute"
    /// A timed level's torch has ten seconds left; the countdown starts.
    case torchCountdown = "torch-countdown"
    /// A timed level's torch went out; the level starts over.
    case torchOut = "torch-out"
}
