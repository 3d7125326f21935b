// SPDX-License-Identifier: Apache-2.0
public import EscapeCore
import EscapeProtocol
public import EscapeSaves

/// The save policy, in one place: what a game starts from, and writing progress as the session asks.
///
/// At the start it takes the save's lock, reads the save and decides what the session may do with it:
/// - another game holds the lock: refuse to start, or (when asked) play from the save read-only;
/// - a save from a newer engine, or one that cannot be read: play a new game and never write over it;
/// - a damaged save: keep it aside (`PATH.unreadable-N`) and start fresh — but never while another
///   game holds the lock, since the file is then that game's;
/// - a file that is not a save of this game: refuse to start, touching nothing;
/// - a lock file that is a link or a folder: play from the save, never writing.
///
/// The save file keeps one record per adventure: the keeper holds the records of the other adventures
/// it found, and writes them back beside this adventure's at every save.
public final class SaveKeeper {
    /// What to do when another game holds the save.
    public enum WhenLocked: Sendable, Hashable {
        /// Do not start: ``open(for:whenLocked:)`` throws `SaveError/locked(path:)`.
        case refuse
        /// Start from the save, read-only, and say so with a `save_locked` error.
        case readOnly
    }

    /// Where progress is kept.
    public let store: any SaveStore
    /// The save file as read at the start and changed by every save since.
    private var file = SaveFile()

    /// Creates a keeper for `store`; nothing is read or written yet.
    public init(store: any SaveStore) {
        self.store = store
    }

    /// Takes the save and reads it.
    ///
    /// - Parameters:
    ///   - adventure: The adventure to be played; a save of another adventure is ignored.
    ///   - whenLocked: What to do when another game holds the save.
    /// - Returns: The progress to start from, whether it may be written, and what to tell the player.
    /// - Throws: `SaveError/locked(path:)` when another game holds the save and `whenLocked` is `.refuse`;
    ///   `SaveError/notASave(path:reason:)` when the file is not a save of this game (it is left untouched).
    public func open(for adventure: Adventure, whenLocked: WhenLocked) throws(SaveError) -> SaveStartup {
        var startup = SaveStartup()
        let words = SessionWords(EngineWords(locale: adventure.locale).language)
        let location = store.location
        var locked = false
        do {
            try store.acquire()
        } catch .locked(let path) {
            guard whenLocked == .readOnly else { throw .locked(path: path) }
            locked = true
            startup.writable = false
            startup.problems.append(
                ProtocolError(.saveLocked, words(.errorSaveLocked, ["location": location]))
            )
        } catch .notASave(let path, let reason) {
            throw .notASave(path: path, reason: reason)
        } catch .unusable(let path, let reason) {
            // Saving cannot be guarded here: the save is read, never written.
            startup.writable = false
            startup.problems.append(
                ProtocolError(
                    .saveUnreadable,
                    words(.errorSaveUnusable, ["location": location, "reason": "\(path): \(reason)"])
                )
            )
        } catch {
            // The lock file cannot be made; reading the save below reports what is wrong with the place.
        }
        do {
            if let found = try store.load() {
                file = found
                if let data = found[adventure: adventure.id] { startup.progress = data.progress(in: adventure) }
            }
        } catch .notASave(let path, let reason) {
            throw .notASave(path: path, reason: reason)
        } catch .newerFormat(let format) {
            startup.writable = false
            startup.problems.append(
                ProtocolError(
                    .saveUnreadable,
                    words(.errorSaveNewerFormat, ["location": location, "format": "\(format)"])
                )
            )
        } catch .system(let operation, let path, let code) {
            // Unreadable but maybe intact: never overwrite what the player may have earned.
            startup.writable = false
            let reason = SaveError.system(operation: operation, path: path, errno: code)
            startup.problems.append(
                ProtocolError(
                    .saveUnreadable,
                    words(.errorSaveUnreadableKept, ["location": location, "reason": "\(reason)"])
                )
            )
        } catch {
            let reason = "\(error)"
            var message = words(.errorSaveUnreadable, ["location": location, "reason": reason])
            if locked {
                message = words(.errorSaveUnreadableHeld, ["location": location, "reason": reason])
            } else {
                do {
                    if let aside = try store.moveAside() {
                        message = words(
                            .errorSaveUnreadableMovedAside,
                            ["location": location, "reason": reason, "aside": aside]
                        )
                    }
                } catch {
                    message = words(
                        .errorSaveUnreadableNotMovedAside,
                        ["location": location, "reason": reason, "problem": "\(error)"]
                    )
                    startup.writable = false
                }
            }
            startup.problems.append(ProtocolError(.saveUnreadable, message))
        }
        return startup
    }

    /// Writes progress, beside the records of the other adventures in the file.
    ///
    /// - Parameter data: What to write.
    /// - Returns: Why it could not be written, or `nil` when it was.
    public func save(_ data: SaveData) -> SaveError? {
        file.record(data)
        do {
            try store.save(file)
            return nil
        } catch {
            return error
        }
    }
}
