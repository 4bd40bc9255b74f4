/// Named proportions such as `train=0.9,test=0.1`.
public struct SplitSpec: Sendable, Equatable, Codable, CustomStringConvertible {
    /// Split names and proportions, in the order given. Proportions sum to 1.
    public var parts: [(name: String, fraction: Double)] {
        zip(names, fractions).map { ($0, $1) }
    }
    public private(set) var names: [String]
    public private(set) var fractions: [Double]

    /// One split holding everything.
    public static func single(_ name: String = "train") -> SplitSpec { SplitSpec(names: [name], fractions: [1]) }

    private init(names: [String], fractions: [Double]) { self.names = names; self.fractions = fractions }

    /// Parses `train=0.9,test=0.1`: fractions, which must sum to 1 (within 1e-6), or weights of
    /// which at least one exceeds 1 (`train=9,test=1`), normalised to sum to 1.
    /// - Throws: ``MixError/invalidOption(name:value:reason:)`` for malformed parts, repeated
    ///   names, and fractions (all ≤ 1) that do not sum to 1 (`train=0.9,test=0.9`).
    public init(parsing text: String) throws {
        var names: [String] = [], weights: [Double] = []
        for part in text.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, !pair[0].isEmpty, let weight = Double(pair[1]), weight > 0, weight.isFinite else {
                throw MixError.invalidOption(name: "split", value: text, reason: "expected NAME=FRACTION,... with positive fractions")
            }
            guard pair[0].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
                throw MixError.invalidOption(name: "split", value: text,
                                             reason: "split name '\(pair[0])' may hold only letters, digits, '_' and '-'")
            }
            guard !names.contains(pair[0]) else {
                throw MixError.invalidOption(name: "split", value: text, reason: "split '\(pair[0])' named twice")
            }
            names.append(pair[0]); weights.append(weight)
        }
        guard !names.isEmpty else { throw MixError.invalidOption(name: "split", value: text, reason: "empty") }
        let total = weights.reduce(0, +)
        if weights.allSatisfy({ $0 <= 1 }) && abs(total - 1) > 1e-6 {
            throw MixError.invalidOption(name: "split", value: text,
                reason: "the fractions sum to \(formatNumber((total * 1e6).rounded() / 1e6)), not 1 "
                    + "(give fractions that sum to 1, or weights such as train=9,test=1)")
        }
        self.init(names: names, fractions: weights.map { $0 / total })
    }

    public var description: String {
        zip(names, fractions).map { "\($0)=\(formatNumber(($1 * 1e6).rounded() / 1e6))" }.joined(separator: ",")
    }

    public static func == (a: SplitSpec, b: SplitSpec) -> Bool { a.names == b.names && a.fractions == b.fractions }

    /// Counts that sum to `total`, proportional to the fractions (largest remainder; ties to the
    /// earlier split). Deterministic.
    public func apportion(_ total: Int) -> [Int] {
        let exact = fractions.map { $0 * Double(total) }
        var counts = exact.map { Int($0.rounded(.down)) }
        var left = total - counts.reduce(0, +)
        let order = exact.indices.sorted { (exact[$0] - Double(counts[$0]), -$0) > (exact[$1] - Double(counts[$1]), -$1) }
        var k = 0
        while left > 0 { counts[order[k % order.count]] += 1; left -= 1; k += 1 }
        return counts
    }

    /// The split of clip `index` out of `count` clips: clips are assigned to splits in contiguous
    /// index ranges sized by ``apportion(_:)``, so the clip counts match the fractions exactly.
    public func split(ofClip index: Int, count: Int) -> Int {
        var end = 0
        for (i, n) in apportion(count).enumerated() {
            end += n
            if index < end { return i }
        }
        return names.count - 1
    }
}

/// Assigns sources (not clips) to splits, so no file (or, with `bySpeaker`, no speaker)
/// appears in two splits.
public enum SplitAssignment {
    /// Returns, for each split of `spec`, the indices into `sources` it owns.
    ///
    /// Units (sources, or speakers when `bySpeaker`) are sorted by key, shuffled with a generator
    /// seeded from `seed` (Fisher–Yates with `RandomNumberGenerator/nextIndex(below:)`), and cut
    /// into consecutive groups sized by ``SplitSpec/apportion(_:)`` (each split gets at least one
    /// unit). Independent of the order `sources` arrive in.
    /// - Throws: ``MixError/invalidSplit(reason:)`` when there are fewer units than splits, or a
    ///   source has no speaker under `bySpeaker`.
    public static func assign(
        _ sources: [MixSource], spec: SplitSpec, seed: UInt64, bySpeaker: Bool, kind: String
    ) throws -> [[Int]] {
        if spec.names.count == 1 { return [Array(sources.indices)] }
        var units: [String: [Int]] = [:]
        for (i, source) in sources.enumerated() {
            let unit: String
            if bySpeaker {
                guard let speaker = source.speaker else {
                    throw MixError.invalidSplit(reason: "\(source.path) has no speaker; speaker-disjoint splits need a speaker pattern")
                }
                unit = speaker
            } else {
                unit = source.key
            }
            units[unit, default: []].append(i)
        }
        var keys = units.keys.sorted()
        guard keys.count >= spec.names.count else {
            let share = kind == "speech" ? ""
                : " (noise and RIR files are split like speech; --split-sources speech shares them between splits)"
            let units = "\(keys.count) \(kind) \(bySpeaker ? "speakers" : "files")"
            throw MixError.invalidSplit(reason: "\(units) cannot fill \(spec.names.count) disjoint splits" + share)
        }
        var generator = SplitMix64(seed: seed)
        for i in stride(from: keys.count - 1, to: 0, by: -1) {
            keys.swapAt(i, generator.nextIndex(below: i + 1))
        }
        // Every split gets at least one unit; the rest are apportioned by fraction.
        var counts = spec.apportion(keys.count)
        for i in counts.indices where counts[i] == 0 {
            let donor = counts.indices.max { counts[$0] < counts[$1] }!
            counts[donor] -= 1; counts[i] = 1
        }
        var result: [[Int]] = []
        var start = 0
        for n in counts {
            result.append(keys[start..<start + n].flatMap { units[$0]!.sorted { sources[$0].key < sources[$1].key } })
            start += n
        }
        return result
    }
}
