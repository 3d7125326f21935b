// SPDX-License-Identifier: Apache-2.0
// The libFuzzer targets (see Targets.swift): `lines` (framing and decoding), `engine` (the whole path
// a line takes, on the virtual clock or a real one that moves, with small hint intervals), `snapshot`
// (restore of any payload, re-signed), `save` (the save loader on a real file) and `adventure` (the
// adventure loader on a real file, then play).
//
// Built with `scripts/fuzz` (-sanitize=fuzzer,address -DFUZZING), libFuzzer calls the target that
// `EFB_FUZZ_TARGET` names with each input. Built normally, it is a small program that replays inputs
// from files (`efb-fuzz TARGET FILE-OR-FOLDER...`, or `efb-fuzz --all CORPUS` for every target's
// folder `CORPUS/TARGET`), so the corpus is also a regression test.
import Foundation

#if FUZZING
/// libFuzzer's driver (in the runtime `-sanitize=fuzzer` links).
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The target libFuzzer drives, chosen once.
private let target: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["EFB_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget.named(name) else {
        let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
        FileHandle.standardError.write(Data("efb-fuzz: set EFB_FUZZ_TARGET to one of \(names)\n".utf8))
        exit(2)
    }
    return target
}()

/// Hands the process over to libFuzzer's driver, which calls the target with each input.
@main
enum Fuzzer {
    static func main() {
        _ = target
        var count = CommandLine.argc
        var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(
            runFuzzerDriver(&count, &arguments) { data, size in
                target.run(UnsafeRawBufferPointer(start: data, count: size))
                return 0
            }
        )
    }
}
#else
/// Replays inputs from files and folders: `efb-fuzz TARGET FILE-OR-FOLDER...` or `efb-fuzz --all CORPUS`.
///
/// It fails when a target has no input to replay: an empty corpus tests nothing.
@main
enum Replayer {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let first = arguments.first else { usage() }
        let runs: [(FuzzTarget, [String])]
        if first == "--all" {
            guard arguments.count == 2 else { usage() }
            runs = FuzzTarget.all.map { ($0, [arguments[1] + "/" + $0.name]) }
        } else {
            guard let target = FuzzTarget.named(first), arguments.count > 1 else { usage() }
            runs = [(target, Array(arguments.dropFirst()))]
        }
        for (target, paths) in runs {
            var replayed = 0
            for file in paths.flatMap(files) {
                guard let data = FileManager.default.contents(atPath: file) else {
                    fail("cannot read \(file)")
                }
                data.withUnsafeBytes { target.run($0) }
                replayed += 1
            }
            if replayed == 0 { fail("no input to replay for \(target.name) in \(paths.joined(separator: ", "))") }
            print("efb-fuzz: \(target.name): \(replayed) inputs replayed without a failure")
        }
    }

    /// The files of a folder (sorted), or the file itself.
    private static func files(_ path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return [path] }
        guard isFolder.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("efb-fuzz: \(message)\n".utf8))
        exit(1)
    }

    private static func usage() -> Never {
        let names = FuzzTarget.all.map(\.name).joined(separator: "|")
        fail("usage: efb-fuzz \(names) FILE-OR-FOLDER... | efb-fuzz --all CORPUS")
    }
}
#endif
