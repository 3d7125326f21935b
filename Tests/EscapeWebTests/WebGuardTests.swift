// SPDX-License-Identifier: Apache-2.0
import EscapeWeb
import Testing

/// The guard's rules, one by one: the token, `Host` and `Origin`.
struct WebGuardTests {
    let guardian = WebGuard(token: "0123456789abcdef0123456789abcdef", port: 8742)

    @Test func aRequestWithoutTheTokenIsUnauthorized() {
        #expect(guardian.check(host: "127.0.0.1:8742", queryToken: nil, cookieHeader: nil) == .unauthorized)
        #expect(guardian.check(host: "127.0.0.1:8742", queryToken: nil, cookieHeader: "other=1") == .unauthorized)
    }

    @Test func aWrongTokenIsForbidden() {
        #expect(guardian.check(host: "localhost:8742", queryToken: "nope", cookieHeader: nil) == .forbidden)
        let cookie = "efb-web-8742=0123456789abcdef0123456789abcdeF"
        #expect(guardian.check(host: "localhost:8742", queryToken: nil, cookieHeader: cookie) == .forbidden)
    }

    @Test func theTokenInTheQuerySetsTheCookieAndTheCookieIsThenEnough() {
        let token = guardian.token
        #expect(
            guardian.check(host: "127.0.0.1:8742", queryToken: token, cookieHeader: nil) == .allowed(setCookie: true)
        )
        let cookie = "a=b; efb-web-8742=\(token); c=d"
        #expect(guardian.check(host: "[::1]:8742", queryToken: nil, cookieHeader: cookie) == .allowed(setCookie: false))
        #expect(guardian.setCookie.contains("HttpOnly"))
        #expect(guardian.setCookie.contains("SameSite=Strict"))
    }

    @Test func aForeignHostIsForbiddenEvenWithTheToken() {
        let token = guardian.token
        for host in ["evil.example:8742", "127.0.0.2:8742", "localhost.evil.example", "", "10.0.0.1:8742"] {
            #expect(guardian.check(host: host, queryToken: token, cookieHeader: nil) == .forbidden, "\(host)")
        }
        #expect(guardian.check(host: nil, queryToken: token, cookieHeader: nil) == .forbidden)
        #expect(
            guardian.check(host: "LOCALHOST:8742", queryToken: token, cookieHeader: nil) == .allowed(setCookie: true)
        )
    }

    @Test func onlyThePagesOwnOriginOpensASocket() {
        #expect(guardian.originAllowed("http://127.0.0.1:8742", host: "127.0.0.1:8742"))
        #expect(guardian.originAllowed("http://localhost:8742", host: "localhost:8742"))
        #expect(!guardian.originAllowed("http://localhost:8742", host: "127.0.0.1:8742"))
        #expect(!guardian.originAllowed("http://evil.example", host: "127.0.0.1:8742"))
        #expect(!guardian.originAllowed("https://127.0.0.1:8742", host: "127.0.0.1:8742"))
        #expect(!guardian.originAllowed("null", host: "127.0.0.1:8742"))
        #expect(!guardian.originAllowed(nil, host: "127.0.0.1:8742"))
        #expect(!guardian.originAllowed("http://evil.example:8742", host: "evil.example:8742"))
    }

    @Test func anOriginGivenWithAllowOriginIsAccepted() {
        let guardian = WebGuard(token: guardian.token, port: 1, otherOrigins: ["http://localhost:3000"])
        #expect(guardian.originAllowed("http://localhost:3000", host: "127.0.0.1:1"))
        #expect(!guardian.originAllowed("http://localhost:3001", host: "127.0.0.1:1"))
    }

    @Test func tokensAreRandomAndWellFormed() {
        let tokens = Set((0..<50).map { _ in WebToken.random() })
        #expect(tokens.count == 50)
        #expect(tokens.allSatisfy(WebToken.isValid))
    }
}
