import Foundation

/// The inputs of a mix: folders, file lists or single files per kind.
public struct MixInputs: Sendable, Codable, Equatable {
    public var speech: [String]
    public var noise: [String]
    public var rir: [String]
    /// Regular expression whose first capture group is the speaker (for `--disjoint speakers`
    /// and `--length-mode concatenate`).
    public var speakerPattern: String?

    public init(speech: [String], noise: [String], rir: [String] = [], speakerPattern: String? = nil) {
        self.speech = speech; self.noise = noise; self.rir = rir; self.speakerPattern = speakerPattern
    }
}
