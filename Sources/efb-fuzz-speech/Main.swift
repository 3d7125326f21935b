// SPDX-License-Identifier: Apache-2.0
// A libFuzzer target over the speech-dispatcher strings: each input, read as UTF-8, is said through
// `SpeechDispatcher` as the console says lines, with a stand-in `spd-say` (`/bin/true`) so the whole
// path to `posix_spawn` runs: printf's `%` escaped, options ended by `--`, the language as an
// option, every argument a C string. The language comes from the input's first line.
import EscapeConsole
import EscapeFuzzDriver

/// A speaker that starts `/bin/true` with the arguments spd-say would get.
nonisolated(unsafe) let speaker = SpeechDispatcher(executable: "/bin/true") { message in
    fatalError("speaking failed: \(message)")
}

/// Says `input` (its first line the language, the rest the text).
func say(_ input: UnsafeRawBufferPointer) {
    let text = String(decoding: input, as: UTF8.self)
    let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    let language = parts.count == 2 ? String(parts[0]) : nil
    speaker.speak(String(parts.last ?? ""), language: language)
    speaker.reap()
}

FuzzDriver.run("efb-fuzz-speech", say)
