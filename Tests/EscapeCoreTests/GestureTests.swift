// SPDX-License-Identifier: Apache-2.0
import EscapeCore
import Testing

/// What a gesture is, said once: whether it changes the game, whether a level kind may need it.
@Suite struct GestureTests {
    @Test func everyLevelKindTeachesLevelGesturesOnly() {
        for kind in LevelKinds.all {
            #expect(!kind.gestures.isEmpty, "\(kind.kind)")
            #expect(Set(kind.gestures).count == kind.gestures.count, "\(kind.kind)")
            for gesture in kind.gestures { #expect(gesture.isLevelGesture, "\(kind.kind): \(gesture)") }
        }
    }

    @Test func everyLevelGestureIsTaughtBySomeKind() {
        let taught = Set(LevelKinds.all.flatMap { kind in kind.gestures })
        #expect(taught == Set(Gesture.allCases.filter(\.isLevelGesture)))
    }

    @Test func onlyReadingOnAndRepeatingChangeNothing() {
        #expect(Gesture.allCases.filter { !$0.changesGame } == [.pan, .repeat])
        #expect(!GameCommand.repeatAnnouncement.changesGame)
        #expect(GameCommand.goto(chapter: 1, level: 1).changesGame)
        #expect(GameCommand.focus(element: "door").changesGame)
    }

    @Test func gestureCommandsAreTheirGestures() {
        #expect(GameCommand.rotorItem(.next).gesture == .rotorItem)
        #expect(GameCommand.adjust(.decrement).gesture == .adjust)
        #expect(GameCommand.activate(element: "door").gesture == .activate)
        #expect(GameCommand.repeatAnnouncement.gesture == .repeat)
        #expect(GameCommand.input(text: "x", element: nil).gesture == nil)
        #expect(GameCommand.replay.gesture == nil)
    }
}
