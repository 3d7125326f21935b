// SPDX-License-Identifier: Apache-2.0
// A libFuzzer target over what crosses into libspeechd: each input, read as UTF-8, becomes the text and
// language the console hands to `SpeechDispatcher`. The text is made fit for SSIP (`ssipText`: no control
// characters, no blank lines, nothing added) and checked; when a Speech Dispatcher answers (a private one,
// as Tests/Speech starts), the text and the language are said through the one connection, stopped now
// and then, so libspeechd's own escaping and the server's replies run too. The language comes from the
// input's first line.
import EscapeConsole
import EscapeFuzzDriver

/// The connection, when a server answers; failures are told once and fuzzing goes on without it.
nonisolated(unsafe) let speaker = SpeechDispatcher.connect { _ in }
nonisolated(unsafe) var turns = 0

/// Says `input` (its first line the language, the rest the text).
func say(_ input: UnsafeRawBufferPointer) {
    let text = String(decoding: input, as: UTF8.self)
    let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    let language = parts.count == 2 ? String(parts[0]) : nil
    let body = String(parts.last ?? "")
    let sent = SpeechDispatcher.ssipText(body)
    precondition(!sent.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F })
    precondition(!sent.hasPrefix("\n") && !sent.hasSuffix("\n") && !sent.contains("\n\n"))
    precondition(SpeechDispatcher.ssipText(sent) == sent, "ssipText is not idempotent")
    turns += 1
    speaker?.speak(body, language: language, priority: turns % 3 == 0 ? .message : .progress)
    if turns % 7 == 0 { speaker?.stop() }
}

FuzzDriver.run("efb-fuzz-speech", say)
