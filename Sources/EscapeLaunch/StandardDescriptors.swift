// SPDX-License-Identifier: Apache-2.0
import EscapeRuntime

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard input, output and error, made sure to exist before the program opens anything.
///
/// A process started with one of them closed (`efb pipe >&-`, `<&-`) would otherwise hand that number
/// to the next file it opens: the save's lock file would become standard output (protocol lines written
/// into it) or standard input (its lines read as commands). Each closed one is opened on `/dev/null`
/// first thing, as daemons and shells do.
package enum StandardDescriptors {
    /// What both executables do first thing: descriptors 0-2 opened (``ensureOpen()``), then the stop
    /// signals held until their handlers exist (``StopSignals/hold()``).
    package static func prepareProcess() {
        ensureOpen()
        StopSignals.hold()
    }

    /// Opens `/dev/null` on each of descriptors 0, 1 and 2 that is closed (wraps `fcntl`, `open`).
    ///
    /// - Returns: The descriptors that were closed and now read or write nothing.
    @discardableResult
    package static func ensureOpen() -> [Int32] {
        var opened: [Int32] = []
        for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            // The lowest free number is the one closed: open gives it. Read-write serves any of the three.
            let null = open("/dev/null", O_RDWR)
            if null == descriptor {
                opened.append(descriptor)
            } else if null >= 0 {
                // Something else took that number in between: move /dev/null onto it.
                dup2(null, descriptor)
                close(null)
                opened.append(descriptor)
            }
        }
        return opened
    }
}
