// SPDX-License-Identifier: Apache-2.0
/// The three locks on the web server: the token, the `Host` and a WebSocket's `Origin`.
///
/// Pure logic: the server asks it about each request. `Host` is checked against DNS rebinding.
///
/// As Jupyter does for its local server: the URL printed at start carries a random token; the page's
/// first request shows it in the query, the server answers with a cookie holding it, and every later
/// request (the script, the sounds, the WebSocket) shows the cookie. A page on another site cannot
/// read the cookie, and a name that resolves to this machine by DNS rebinding is refused by `Host`.
package struct WebGuard: Sendable {
    /// What a request gets.
    package enum Verdict: Sendable, Hashable {
        /// It may go on; `setCookie` when the token came in the query and the page should keep it.
        case allowed(setCookie: Bool)
        /// No token: 401.
        case unauthorized
        /// A wrong token, or a `Host` that is not this machine's loopback name: 403.
        case forbidden
    }

    /// The token every request must show.
    package let token: String
    /// The cookie that carries it, named after the port so that two servers do not share one.
    package let cookieName: String
    /// The host names accepted in `Host`, lowercased, without port or brackets.
    package let hostNames: Set<String>
    /// Origins accepted on a WebSocket besides the page's own (a page of an embedder's, as Jupyter's
    /// `allow_origin`), lowercased.
    package let otherOrigins: Set<String>

    /// Creates a guard.
    ///
    /// - Parameters:
    ///   - token: The token.
    ///   - port: The server's port, for the cookie's name; `nil` for a port picked at start (the cookie
    ///     then gets a random name, as no later server can be on that port for sure).
    ///   - boundHost: The address the server listens on, also accepted in `Host` when it is not a
    ///     loopback one (`--host` set to this machine's address on a trusted network).
    ///   - otherOrigins: Origins accepted on a WebSocket besides the page's own.
    package init(token: String, port: Int?, boundHost: String = "127.0.0.1", otherOrigins: Set<String> = []) {
        self.token = token
        cookieName = "efb-web-\(port.map(String.init) ?? String(WebToken.random().prefix(8)))"
        var names: Set<String> = ["127.0.0.1", "localhost", "::1"]
        let bound = boundHost.lowercased()
        if !["0.0.0.0", "::", ""].contains(bound) { names.insert(Self.hostName(bound)) }
        hostNames = names
        self.otherOrigins = Set(otherOrigins.map { $0.lowercased() })
    }

    /// Judges a request by its `Host`, the token in its query and its cookies.
    ///
    /// - Parameters:
    ///   - host: The `Host` header (the `:authority`), with its port.
    ///   - queryToken: The `token` query parameter.
    ///   - cookieHeader: The `Cookie` header.
    /// - Returns: Whether it may go on, or the refusal it gets.
    package func check(host: String?, queryToken: String?, cookieHeader: String?) -> Verdict {
        guard let host, hostAllowed(host) else { return .forbidden }
        if let queryToken {
            return Self.same(queryToken, token) ? .allowed(setCookie: true) : .forbidden
        }
        guard let cookie = Self.cookie(named: cookieName, in: cookieHeader) else { return .unauthorized }
        return Self.same(cookie, token) ? .allowed(setCookie: false) : .forbidden
    }

    /// Whether a `Host` header names this machine's loopback (or the bound address).
    package func hostAllowed(_ host: String) -> Bool {
        hostNames.contains(Self.hostName(host.lowercased()))
    }

    /// Whether a WebSocket's `Origin` is the page's own: `http://` and the `Host` it was asked on.
    package func originAllowed(_ origin: String?, host: String?) -> Bool {
        guard let origin, let host, hostAllowed(host) else { return false }
        return origin.lowercased() == "http://\(host.lowercased())" || otherOrigins.contains(origin.lowercased())
    }

    /// The `Set-Cookie` value that keeps the token for the page's later requests.
    package var setCookie: String {
        "\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict"
    }

    /// The host part of a `Host` value: without its port, and an IPv6 address without its brackets.
    static func hostName(_ host: String) -> String {
        if host.hasPrefix("[") {
            guard let end = host.firstIndex(of: "]") else { return host }
            return String(host[host.index(after: host.startIndex)..<end])
        }
        if host.filter({ $0 == ":" }).count > 1 { return host }  // a bare IPv6 address
        return String(host.prefix { $0 != ":" })
    }

    /// The value of one cookie in a `Cookie` header.
    static func cookie(named name: String, in header: String?) -> String? {
        guard let header else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.drop { $0 == " " }
            guard let equals = pair.firstIndex(of: "=") else { continue }
            if pair[..<equals] == name[...] { return String(pair[pair.index(after: equals)...]) }
        }
        return nil
    }

    /// Compares in time that does not depend on where the strings differ.
    static func same(_ given: String, _ expected: String) -> Bool {
        let given = Array(given.utf8)
        let expected = Array(expected.utf8)
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(given, expected) { difference |= left ^ right }
        return difference == 0
    }
}
