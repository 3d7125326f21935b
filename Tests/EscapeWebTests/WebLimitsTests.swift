import EscapeTestSupport
import Foundation
import Testing

// SPDX-License-Identifier: Apache-2.0
@testable import EscapeWeb

/// The connection limit's arithmetic and bookkeeping, and the token file's rule, without a server.
struct WebLimitsTests {
    @Test func theLimitKeepsAReserveBelowTheDescriptorLimit() {
        #expect(WebLimits.forDescriptors(1024).connections == 1024 - WebLimits.reserve)
        #expect(WebLimits.forDescriptors(20).connections == 8)
        #expect(WebLimits.forDescriptors(1 << 20).connections == WebLimits.ceiling)
        #expect(WebLimits.forDescriptors(Int.max).connections == WebLimits.ceiling)
    }

    @Test func whenFullTheOldestIdleConnectionGivesItsPlace() {
        var table = ConnectionTable(capacity: 3)
        #expect(table.admit(1) == .admitted)
        #expect(table.admit(2) == .admitted)
        #expect(table.admit(3) == .admitted)
        table.asked(1)  // a request in hand: 1 keeps its place, 2 is the oldest idle one
        #expect(table.admit(4) == .admittedInPlaceOf(evicted: 2))
        table.answered(1)  // answered, 1 is idle again
        #expect(table.admit(5) == .admittedInPlaceOf(evicted: 1))
        #expect(table.count == 3)
    }

    @Test func whenEveryPlaceHasARequestInHandANewConnectionIsRefused() {
        var table = ConnectionTable(capacity: 2)
        #expect(table.admit(1) == .admitted)
        #expect(table.admit(2) == .admitted)
        table.asked(1)
        table.asked(2)
        #expect(table.admit(3) == .refused)
        #expect(table.count == 2)
        table.release(1)
        #expect(table.admit(4) == .admitted)
        table.release(4)
        table.release(4)  // twice (an evicted connection's close comes later): no effect
        #expect(table.count == 1)
    }

    @Test func aTokenFileIsTakenOnlyWhenItIsARegularFileOfOursWithMode0600() throws {
        let folder = try temporaryFolder("web-token").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let token = "0123456789abcdef0123456789abcdef"
        let path = "\(folder)/web-token"
        #expect(WebToken.read(path) == .absent)

        try Data(token.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        #expect(WebToken.read(path) == .kept(token))

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        guard case .refused = WebToken.read(path) else {
            Issue.record("a readable file was taken")
            return
        }
        var refusals: [String] = []
        let fresh = WebToken.kept(at: path) { refusals.append($0) }
        #expect(fresh != token && WebToken.isValid(fresh))
        #expect(refusals.count == 1)
        #expect(WebToken.read(path) == .kept(fresh))

        let link = "\(folder)/linked-token"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        #expect(WebToken.read(link) == .refused("is a symbolic link"))
    }
}
