// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import EscapeContent
import EscapeCore
import EscapeLaunch
import EscapeRuntime

#if canImport(FoundationEssentials)
// Foundation's essentials: all of Foundation would link ICU's 34 MB of data into efb-full.
import FoundationEssentials
#else
import Foundation
#endif

/// `efb validate FILE...`: checks adventure files and reports every problem with its path.
struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check adventure files; every problem is reported as FILE: PATH: PROBLEM."
    )

    @Argument(help: "Adventure files to check.", completion: .file(extensions: ["json"]))
    var files: [String]

    func run() throws {
        // No game: a stop signal held since the start ends the process as usual.
        StopSignals.release()
        var failed = false
        let environment = ProcessEnvironment.current
        for file in files {
            do {
                let adventure = try AdventureLoader.load(
                    path: ProcessEnvironment.expandingTilde(file, environment: environment)
                )
                let levels = adventure.chapters.reduce(0) { $0 + $1.levels.count }
                print(
                    "\(file): ok (\(adventure.chapters.count) chapters, \(levels) levels, locale \(adventure.locale))"
                )
            } catch {
                failed = true
                StandardError.write("\(error)\n")
            }
        }
        if failed { throw ExitCode(1) }
    }
}
