// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import EscapeJSON
import EscapeProtocol
import Testing

struct RequestEncoderTests {
    static let requests: [Request] = [
        Request(
            id: .int(1),
            command: .hello(
                ClientHello(
                    client: "efb braille",
                    acceptedVersions: .versions([.v1_0, .v1_1]),
                    capabilities: ["braille"],
                    keys: [.next: "LNDN"],
                    want: ["validActions"],
                    timePressure: false,
                    locale: "fr",
                    role: .controller
                )
            )
        ),
        Request(command: .hello(ClientHello(client: nil, acceptedVersions: .versions([.v1_1])))),
        Request(command: .hello(ClientHello(client: nil, acceptedVersions: .range(min: .v1_0, max: .v1_1)))),
        Request(id: .string("a"), ifGen: 4, command: .game(.next)),
        Request(command: .game(.previous)),
        Request(command: .game(.first)),
        Request(command: .game(.last)),
        Request(command: .game(.focus(element: "door"))),
        Request(command: .game(.activate(element: nil))),
        Request(command: .game(.activate(element: "door"))),
        Request(command: .game(.rotor(.next))),
        Request(command: .onElement(element: "door", .rotorItem(.previous))),
        Request(command: .game(.action(.name("Pump")))),
        Request(command: .game(.action(.index(2)))),
        Request(command: .onElement(element: "dial", .adjust(.increment))),
        Request(command: .game(.input(text: "café", element: "answer"))),
        Request(command: .game(.magicTap)),
        Request(command: .game(.escape)),
        Request(command: .game(.hint)),
        Request(command: .game(.menu)),
        Request(command: .game(.goto(chapter: 2, level: 3))),
        Request(command: .game(.replay)),
        Request(command: .game(.assistive(active: false))),
        Request(command: .game(.repeatAnnouncement)),
        Request(command: .state),
        Request(command: .ping),
        Request(command: .wait(milliseconds: 1500)),
        Request(command: .quit),
        Request(command: .validActions(ifChanged: false)),
        Request(command: .validActions(ifChanged: true)),
        Request(command: .snapshot),
        Request(command: .restore(blob: "efb1.xyz")),
        Request(id: .int(9), command: .batch([BatchEntry(.game(.next), ifGen: 3), BatchEntry(.state)])),
        Request(command: .cancel(target: .string("w"))),
    ]

    @Test(arguments: requests)
    func everyRequestDecodesBackToItself(request: Request) {
        var line: [UInt8] = []
        RequestEncoder.encode(request, into: &line)
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(CommandDecoder.decode(Array(line.dropLast())) == .request(request))
    }
}
