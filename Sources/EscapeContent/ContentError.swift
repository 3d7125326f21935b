// SPDX-License-Identifier: Apache-2.0
/// Why an adventure file was refused: every problem found, each with its path inside the file.
public struct ContentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One problem.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// Where in the file, as a JSON path (`$.chapters[1].levels[0].puzzle.answers`).
        public var path: String
        /// What is wrong.
        public var message: String

        /// Creates a problem.
        public init(path: String, message: String) {
            self.path = path
            self.message = message
        }

        /// `path: message`.
        public var description: String { "\(path): \(message)" }
    }

    /// The file's name or path.
    public var file: String
    /// What is wrong, in file order as far as it is known.
    public var problems: [Problem]

    /// Creates an error.
    public init(file: String, problems: [Problem]) {
        self.file = file
        self.problems = problems
    }

    /// One line per problem, each starting with the file's name.
    public var description: String {
        problems.map { "\(file): \($0)" }.joined(separator: "\n")
    }
}
