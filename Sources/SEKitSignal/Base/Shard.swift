/// One of N shards of a batch job (`--shard i/N`, 1-based): item `k` belongs to shard
/// `k mod N + 1`, so shards are disjoint and their union is the whole job.
public struct Shard: Sendable, Codable, Equatable, CustomStringConvertible {
    /// 1-based shard number.
    public var index: Int
    public var count: Int

    public static let whole = Shard(index: 1, count: 1)

    public init(index: Int, count: Int) { self.index = index; self.count = count }

    /// Parses `i/N` with 1 ≤ i ≤ N.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let i = parts[0], let n = parts[1], n >= 1, (1...n).contains(i) else {
            throw ShardError(value: text)
        }
        self.init(index: i, count: n)
    }

    /// Whether item `k` (0-based) belongs to this shard.
    public func contains(_ k: Int) -> Bool { k % count == index - 1 }

    public var description: String { "\(index)/\(count)" }

    /// `-shard-I-of-N`, the suffix of a shard's own files (manifests, locks, enhance markers); empty
    /// for the whole job, whose files keep their plain names.
    public var fileSuffix: String { count == 1 ? "" : "-shard-\(index)-of-\(count)" }
}
