/// One input recording available to a mix: speech, noise or a room impulse response.
public struct MixSource: Sendable, Equatable, Codable {
    /// Kind of source.
    public enum Kind: String, Sendable, Codable, CaseIterable { case speech, noise, rir }

    public var kind: Kind
    /// Path as given (absolute or relative to the working directory).
    public var path: String
    /// Stable key used to order and split sources: the path relative to the folder or list it
    /// came from. Independent of where the corpus lives and of file-system listing order.
    public var key: String
    /// Speaker label, when known (from a `--speaker-pattern` or the catalogue).
    public var speaker: String?
    /// Frames in the file, at its own rate.
    public var frames: Int
    /// The file's sample rate, Hz.
    public var sampleRate: Int
    /// SHA-256 of the file's bytes (lower-case hex), when the mix hashed it (recorded in `mix.json`
    /// `sources`, checked by `sekit mix --from-manifest`).
    public var sha256: String? = nil

    public init(kind: Kind, path: String, key: String, speaker: String? = nil, frames: Int, sampleRate: Int) {
        self.kind = kind; self.path = path; self.key = key; self.speaker = speaker
        self.frames = frames; self.sampleRate = sampleRate
    }

    /// Duration in seconds.
    public var durationSeconds: Double { Double(frames) / Double(sampleRate) }

    /// Length in samples once resampled to `targetRate` (the convention of the resampler: rounded).
    public func frames(atRate targetRate: Int) -> Int {
        targetRate == sampleRate ? frames : Int((Double(frames) * Double(targetRate) / Double(sampleRate)).rounded())
    }
}
