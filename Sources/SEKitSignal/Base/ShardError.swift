/// A shard that is not `i/N` with 1 ≤ i ≤ N (`--shard` of every batch command).
public struct ShardError: ParameterError, Sendable, Equatable {
    /// The text given.
    public let value: String

    public init(value: String) { self.value = value }

    public var invalidParameter: (name: String, value: String, reason: String)? { ("shard", value, Self.reason) }
    public var description: String { "shard \(value): \(Self.reason)" }

    static let reason = "expected i/N with 1 <= i <= N"
}
