// SPDX-License-Identifier: Apache-2.0
/// A table of sentences in one language, by key, with placeholders in braces (`{count}`): the engine's
/// words, the runtime's and each front end's.
public protocol WordTable {
    /// Which sentence.
    associatedtype Key

    /// The sentence of `key`, placeholders unfilled.
    func template(_ key: Key) -> String
}

extension WordTable {
    /// The sentence of `key` with its placeholders filled in one pass.
    ///
    /// - Parameters:
    ///   - key: Which sentence.
    ///   - values: The value of each placeholder by name.
    /// - Returns: The sentence; a placeholder without a value stays as it is.
    public func callAsFunction(_ key: Key, _ values: KeyValuePairs<String, String> = [:]) -> String {
        // The first value of a name wins, as the values are looked for in order.
        EngineWords.fill(template(key), values)
    }
}
