// A libFuzzer target over the whole path a line takes: framing, decoding, the engine, encoding; and
// over `restore`, with each input also signed as a snapshot's payload (the checksum is no signature,
// so a peer can send any payload: see Tests/FuzzCorpus/snapshot-*, the seeds of this half).
//
// Built with `scripts/fuzz` (-sanitize=fuzzer,address -DFUZZING), libFuzzer calls
// `LLVMFuzzerTestOneInput` with each input. Built normally, it is a small program that replays inputs
// from files (`efb-fuzz FILE...`), so the corpus is also a regression test.
import EscapeContent
import EscapeCore
import EscapeJSON
import EscapeProtocol
import EscapeRuntime
import EscapeSaves
import Foundation

/// The shipped adventure, loaded once.
private let adventure: Adventure = {
    do {
        return try AdventureLoader.bundled(locale: "en")
    } catch {
        fatalError("the shipped adventure must load: \(error)")
    }
}()

/// Plays `input` as a stream of protocol lines and checks what the protocol promises.
///
/// Every event must encode as one line the strict reader reads back, and every line the framer
/// hands over must be settled by exactly one `done`.
func play(_ input: UnsafeRawBufferPointer) {
    let session = SessionHost(
        adventure: adventure,
        options: EngineOptions(hintInterval: 1000, seed: 1),
        store: InMemorySaveStore(),
        clock: VirtualClock()
    )
    var framer = LineFramer(maximumLineLength: 4096)
    var events = session.start()
    var frames = framer.feed(input)
    if let last = framer.finish() { frames.append(last) }
    for frame in frames where !session.isFinished {
        let answer = session.handle(frame)
        let dones = answer.filter { $0.event == .done }.count
        precondition(answer.isEmpty || dones == 1, "a line was answered with \(dones) done events")
        events += answer
    }
    events += session.finish()
    check(events)
    restore(input)
}

/// Signs `input` as a snapshot's payload, restores it and plays on: a crafted payload is refused or
/// restored to a state the engine plays on, never a trap or a hang.
func restore(_ input: UnsafeRawBufferPointer) {
    let session = SessionHost(
        adventure: adventure,
        options: EngineOptions(hintInterval: 1000, seed: 1),
        store: InMemorySaveStore(),
        clock: VirtualClock()
    )
    var events = session.start()
    let blob = SnapshotCodec.sign(Array(input))
    let lines = [#"{"type":"restore","blob":"\#(blob)"}"#] + afterRestore
    for line in lines where !session.isFinished {
        let answer = session.handle(.line(Array(line.utf8)))
        let dones = answer.filter { $0.event == .done }.count
        precondition(dones == 1, "a line was answered with \(dones) done events")
        events += answer
    }
    check(events)
}

/// What is played after a restore: every gesture that moves focus, time, hints and screens.
private let afterRestore = [
    #"{"type":"state"}"#, #"{"type":"next"}"#, #"{"type":"last"}"#, #"{"type":"previous"}"#,
    #"{"type":"activate"}"#, #"{"type":"hint"}"#, #"{"type":"magicTap"}"#, #"{"type":"wait","ms":86400000}"#,
    #"{"type":"hint"}"#, #"{"type":"menu"}"#, #"{"type":"escape"}"#, #"{"type":"assistive","active":false}"#,
    #"{"type":"assistive","active":true}"#, #"{"type":"rotor","direction":"next"}"#, #"{"type":"validActions"}"#,
    #"{"type":"snapshot"}"#, #"{"type":"repeat"}"#,
]

/// Every event must encode as one line the strict reader reads back.
func check(_ events: [StampedEvent]) {
    var output: [UInt8] = []
    for event in events {
        output.removeAll(keepingCapacity: true)
        EventEncoder.encode(event, into: &output)
        precondition(output.last == 10 && output.dropLast().firstIndex(of: 10) == nil, "an event is not one line")
        do {
            _ = try JSONReader.read(output.dropLast())
        } catch {
            preconditionFailure("an event does not read back: \(error)")
        }
    }
}

#if FUZZING
/// libFuzzer's driver (in the runtime `-sanitize=fuzzer` links).
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Hands the process over to libFuzzer's driver, which calls ``play(_:)`` with each input.
@main
enum Fuzzer {
    static func main() {
        var count = CommandLine.argc
        var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(
            runFuzzerDriver(&count, &arguments) { data, size in
                play(UnsafeRawBufferPointer(start: data, count: size))
                return 0
            }
        )
    }
}
#else
/// Replays inputs from files and folders: `efb-fuzz FILE-OR-FOLDER...`.
@main
enum Replayer {
    static func main() {
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
                    FileHandle.standardError.write(Data("efb-fuzz: cannot read \(file)\n".utf8))
                    exit(1)
                }
                data.withUnsafeBytes { play($0) }
                replayed += 1
            }
        }
        print("efb-fuzz: \(replayed) inputs replayed without a failure")
    }
}
#endif
