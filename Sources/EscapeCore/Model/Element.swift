/// One accessible element of a screen, as a screen reader would present it.
public struct Element: Sendable, Hashable {
    /// Stable identifier, unique on its screen; commands name elements by it.
    public var id: String
    /// What the element is called.
    public var label: String
    /// How to use it, read after a pause.
    public var hint: String?
    /// Its current value (the text of a field, the chosen code, a level's status).
    public var value: String?
    /// What kind of element it is.
    public var traits: [Trait]
    /// The names of the custom rotors it offers, in order.
    public var rotors: [String]
    /// The names of the custom actions it offers, in order.
    public var actions: [String]

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
        self.id = id
        self.label = label
        self.hint = hint
        self.value = value
        self.traits = traits
        self.rotors = rotors
        self.actions = actions
    }
}
