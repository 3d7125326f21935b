// SPDX-License-Identifier: Apache-2.0
/// What a client and the engine agreed in `hello`: the version spoken, whether the client wants the
/// valid actions after each focus, and the types of events it does without.
///
/// Until the client says `hello`, protocol 1.0 with nothing wanted and nothing omitted. Each `hello`
/// replaces what the last one asked; one naming no version the engine speaks leaves the version as it
/// was.
package struct Agreement: Sendable, Hashable {
    /// The extra events a client may ask for in `hello`'s `want`.
    package static let wantable = ["validActions"]

    /// The client's last `hello`, if it said one.
    package private(set) var hello: ClientHello?
    /// The version spoken.
    package private(set) var dialect = Dialect.v10
    /// Whether the client asked for `validActions` after each focus.
    package private(set) var wantsValidActions = false
    /// The types of events the client does without: never sent, no `seq` spent.
    package private(set) var omitted = OmittedEvents()

    /// The agreement before any `hello`.
    package init() {}

    /// Takes what a client's `hello` asks.
    ///
    /// - Parameter hello: The client's `hello`.
    /// - Returns: The version agreed: the newest the engine speaks among those the client accepts, or
    ///   `nil` when there is none (the version spoken stays as it was).
    package mutating func take(_ hello: ClientHello) -> ProtocolVersion? {
        self.hello = hello
        wantsValidActions = hello.want.contains("validActions")
        omitted = OmittedEvents(hello.omit)
        let agreed = hello.best(among: Dialect.spokenVersions)
        if let agreed { dialect = Dialect(agreed) }
        return agreed
    }

    /// The items of the last `hello`'s `want` that are granted, for its reply.
    package var grantedWant: [String] {
        (hello?.want ?? []).filter { Self.wantable.contains($0) }
    }

    /// The types of events the last `hello` omits, for its reply; `nil` when it omits none.
    package var grantedOmit: [String]? {
        omitted.isEmpty ? nil : omitted.names
    }
}
