/// One accessible element of a screen, as a screen reader would present it.
///
/// A value, like the rest of the model, but its fields live together in one immutable box: an
/// element crosses the engine, the session and the writers several times a command, and copying it
/// is one reference count rather than one for each of its texts and lists. Changing a field makes a
/// new box (elements are made whole and hardly ever changed); two elements sharing a box are equal
/// without comparing their texts, as unchanged elements of a screen built anew mostly are.
public struct Element: Sendable, Hashable {
    private final class Fields: Sendable {
        let id: String
        let label: String
        let hint: String?
        let value: String?
        let traits: [Trait]
        let rotors: [String]
        let actions: [String]

        init(
            id: String,
            label: String,
            hint: String?,
            value: String?,
            traits: [Trait],
            rotors: [String],
            actions: [String]
        ) {
            self.id = id
            self.label = label
            self.hint = hint
            self.value = value
            self.traits = traits
            self.rotors = rotors
            self.actions = actions
        }
    }

    private var fields: Fields

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

    /// Creates an element.
    public init(
        id: String,
        label: String,
        hint: String? = nil,
        value: String? = nil,
        traits: [Trait],
        rotors: [String] = [],
        actions: [String] = []
    ) {
        fields = Fields(
            id: id,
            label: label,
            hint: hint,
            value: value,
            traits: traits,
            rotors: rotors,
            actions: actions
        )
    }

    /// The fields as plain variables, to change one and box them again.
    private struct Unboxed {
        var id: String
        var label: String
        var hint: String?
        var value: String?
        var traits: [Trait]
        var rotors: [String]
        var actions: [String]
    }

    private mutating func change(_ body: (inout Unboxed) -> Void) {
        var unboxed = Unboxed(
            id: fields.id,
            label: fields.label,
            hint: fields.hint,
            value: fields.value,
            traits: fields.traits,
            rotors: fields.rotors,
            actions: fields.actions
        )
        body(&unboxed)
        self = Element(
            id: unboxed.id,
            label: unboxed.label,
            hint: unboxed.hint,
            value: unboxed.value,
            traits: unboxed.traits,
            rotors: unboxed.rotors,
            actions: unboxed.actions
        )
    }

    /// Whether the two say the same: the same box, or the same fields.
    public static func == (lhs: Element, rhs: Element) -> Bool {
        if lhs.fields === rhs.fields { return true }
        let left = lhs.fields
        let right = rhs.fields
        return left.id == right.id && left.label == right.label && left.hint == right.hint
            && left.value == right.value && left.traits == right.traits && left.rotors == right.rotors
            && left.actions == right.actions
    }

    /// Hashes the fields.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fields.id)
        hasher.combine(fields.label)
        hasher.combine(fields.hint)
        hasher.combine(fields.value)
        hasher.combine(fields.traits)
        hasher.combine(fields.rotors)
        hasher.combine(fields.actions)
    }
}
