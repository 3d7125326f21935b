// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The entry point every C-boundary fuzz target shares (`efb-fuzz-edit`, `efb-fuzz-louis`,
/// `efb-fuzz-braille`, `efb-fuzz-speech`).
///
/// Built by `scripts/fuzz` (`-DFUZZING`, coverage and AddressSanitizer, libFuzzer's driver linked in),
/// ``run(_:_:)`` hands the process to libFuzzer, which calls the body with each input. Built normally,
/// it replays the files and folders named on the command line, so a corpus is also a regression test.
public enum FuzzDriver {
    /// Runs `body` on each input, as libFuzzer or the replayer hands them over; never returns.
    ///
    /// - Parameters:
    ///   - name: The target's name, for the replayer's last line.
    ///   - body: What one input is played through.
    public static func run(_ name: String, _ body: @escaping (UnsafeRawBufferPointer) -> Void) -> Never {
        #if FUZZING
        Self.body = body
        var count = CommandLine.argc
        var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(
            runFuzzerDriver(&count, &arguments) { data, size in
                FuzzDriver.body?(UnsafeRawBufferPointer(start: data, count: size))
                return 0
            }
        )
        #else
        var replayed = 0
        for path in CommandLine.arguments.dropFirst() {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            let files =
                isFolder.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 }
                : [path]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else {
                    FileHandle.standardError.write(Data("\(name): cannot read \(file)\n".utf8))
                    exit(1)
                }
                data.withUnsafeBytes { body($0) }
                replayed += 1
            }
        }
        // An empty corpus tests nothing: that is a failure, not a pass.
        if replayed == 0 {
            let paths = CommandLine.arguments.dropFirst().joined(separator: ", ")
            FileHandle.standardError.write(Data("\(name): no input to replay in \(paths)\n".utf8))
            exit(1)
        }
        print("\(name): \(replayed) inputs replayed without a failure")
        exit(0)
        #endif
    }

    #if FUZZING
    /// The body libFuzzer's C callback calls (a C function pointer captures nothing).
    private nonisolated(unsafe) static var body: ((UnsafeRawBufferPointer) -> Void)?
    #endif
}

#if FUZZING
/// libFuzzer's driver (in the runtime `scripts/fuzz` links).
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif
