// SPDX-License-Identifier: Apache-2.0
/// One accessible element of a screen, as a screen reader would present it.
///
/// Its fields are kept in one box its copies share: an element crosses the engine, the session and the
/// event writers several times a command, and the unchanged elements of a screen built anew are equal
/// to the old ones at once.
public struct Element: Sendable, Hashable {
    private struct Fields: Sendable, Hashable {
        var id: String
        var label: String
        var hint: String?
        var value: String?
        var traits: [Trait]
        var rotors: [String]
        var actions: [String]
        var range: ElementRange?
    }

    /// The box its copies share, never changed: changing a field makes a new one.
    private final class Box: Sendable {
        let fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    private var box: Box

    /// The fields, read where they are.
    private var fields: Fields { box.fields }

    /// Changes the fields in a new box.
    private mutating func change(_ body: (inout Fields) -> Void) {
        var fields = box.fields
        body(&fields)
        box = Box(fields)
    }

    /// Stable identifier, unique on its screen; commands name elements by it.
    public var id: String {
        get { fields.id }
        set { change { $0.id = newValue } }
    }
    /// What the element is called.
    public var label: String {
        get { fields.label }
        set { change { $0.label = newValue } }
    }
    /// How to use it, read after a pause.
    public var hint: String? {
        get { fields.hint }
        set { change { $0.hint = newValue } }
    }
    /// Its current value (the text of a field, the chosen code, a level's status).
    public var value: String? {
        get { fields.value }
        set { change { $0.value = newValue } }
    }
    /// What kind of element it is.
    public var traits: [Trait] {
        get { fields.traits }
        set { change { $0.traits = newValue } }
    }
    /// The names of the custom rotors it offers, in order.
    public var rotors: [String] {
        get { fields.rotors }
        set { change { $0.rotors = newValue } }
    }
    /// The names of the custom actions it offers, in order.
    public var actions: [String] {
        get { fields.actions }
        set { change { $0.actions = newValue } }
    }

    /// Where an adjustable element's value stands among its values, and how many it has.
    public var range: ElementRange? {
        get { fields.range }
        set { change { $0.range = newValue } }
    }

    /// Creates an element.
    public init(
        id: String,
        label: String,
        hint: String? = nil,
        value: String? = nil,
        traits: [Trait],
        rotors: [String] = [],
        actions: [String] = [],
        range: ElementRange? = nil
    ) {
        box = Box(
            Fields(
                id: id,
                label: label,
                hint: hint,
                value: value,
                traits: traits,
                rotors: rotors,
                actions: actions,
                range: range
            )
        )
    }

    /// Whether the two say the same: the same box, or equal fields.
    public static func == (lhs: Element, rhs: Element) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }

    /// Hashes the fields.
    public func hash(into hasher: inout Hasher) {
        box.fields.hash(into: &hasher)
    }
}

/// Where an adjustable element's value stands among the values it takes: protocol 1.3's `range`.
public struct ElementRange: Sendable, Hashable {
    /// The 1-based position of the current value among the values.
    public var position: Int
    /// How many values the element takes.
    public var count: Int

    /// Creates a range.
    ///
    /// - Parameters:
    ///   - position: The 1-based position of the current value.
    ///   - count: How many values there are.
    public init(position: Int, count: Int) {
        self.position = position
        self.count = count
    }
}
