import Foundation

/// How to treat reference/enhanced pairs whose lengths differ.
public enum ScoreAlignment: String, Sendable, CaseIterable, Codable {
    /// A length mismatch is an error for that clip.
    case strict
    /// Trim both to the shorter.
    case trim
}
