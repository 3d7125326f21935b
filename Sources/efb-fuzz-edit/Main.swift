// SPDX-License-Identifier: Apache-2.0
// A libFuzzer target over the libedit boundary: each input is typed, as raw bytes (keys, escape
// sequences, broken UTF-8, pastes past the line limit), into the console's line editor on a real
// pseudo-terminal; every completed line goes through the console's command parser.
// CEdit's header brings in <sys/ioctl.h>, so the terminal's `winsize` is seen through it.
import CEdit
import EscapeConsole
import EscapeFuzzDriver
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Types `input` at a console on a fresh pseudo-terminal of 60 × 20, then hangs the terminal up.
///
/// What the console and libedit write is drained by a thread of its own, as a terminal would read it:
/// a redraw larger than the pseudo-terminal's buffer must not block the editor.
func edit(_ input: UnsafeRawBufferPointer) {
    // posix_openpt and friends are not in Swift's Glibc: Linux's ioctls for them (TIOCSPTLCK to
    // unlock, TIOCGPTPEER to open the other end).
    let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_NONBLOCK)
    var unlock: Int32 = 0
    precondition(master >= 0 && ioctl(master, 0x4004_5431, &unlock) == 0, "no pseudo-terminal")
    let slave = ioctl(master, 0x5441, O_RDWR | O_NOCTTY)
    precondition(slave >= 0, "the pseudo-terminal's other end does not open")
    // No flow control: a Ctrl-S typed between two prompts (the terminal cooked) would stop the output
    // until a Ctrl-Q, and the console's next write would wait for it.
    var settings = termios()
    _ = tcgetattr(slave, &settings)
    settings.c_iflag &= ~tcflag_t(IXON)
    _ = tcsetattr(slave, TCSANOW, &settings)
    var size = winsize(ws_row: 20, ws_col: 60, ws_xpixel: 0, ws_ypixel: 0)
    _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    var stop: [Int32] = [-1, -1]
    precondition(pipe(&stop) == 0, "no pipe")
    let drained = DispatchSemaphore(value: 0)
    let stopped = stop[0]
    Thread.detachNewThread {
        var sink = [UInt8](repeating: 0, count: 65536)
        var watched = [master, stopped].map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while watched[1].revents == 0 {
            guard poll(&watched, 2, -1) >= 0 || errno == EINTR else { break }
            if watched[0].revents != 0, read(master, &sink, sink.count) <= 0, errno != EAGAIN { break }
        }
        drained.signal()
    }
    let console = ConsoleFrontEnd(
        options: ConsoleFrontEnd.Options(prompt: true, lineEditing: true),
        input: slave,
        output: slave
    )
    _ = console.opening()
    console.flush(now: 0)
    // Whatever the input left half done (an escape sequence, a quoted insert) is ended by keys that
    // complete no sequence: libedit would otherwise wait in read for the rest.
    let keys = Array(input) + [0x15, 0x0D]
    var sent = 0
    var idle = 0
    while idle < 2 {
        if sent < keys.count {
            let written = keys[sent...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            if written > 0 { sent += written }
        }
        var readable = pollfd(fd: slave, events: Int16(POLLIN), revents: 0)
        if poll(&readable, 1, 0) > 0, console.descriptors.contains(slave) {
            idle = 0
            console.service(readable: [slave], now: 0) { _ in }
        } else if sent == keys.count {
            idle += 1
        }
    }
    _ = write(stop[1], [1], 1)
    drained.wait()
    // Hanging up: the next read fails and the editor ends the input.
    close(master)
    if console.descriptors.contains(slave) { console.service(readable: [slave], now: 0) { _ in } }
    for descriptor in [slave, stop[0], stop[1]] { close(descriptor) }
}

FuzzDriver.run("efb-fuzz-edit", edit)
