/// The wind noise of a clip: its SNR against the speech and the seed of its generator (`WindNoise`).
public struct WindDraw: Sendable, Codable, Equatable {
    /// SNR of the wind noise against the speech, dB (also the clip's `snrDB`).
    public var snrDB: Double
    /// Seed of `WindNoise/parameters(seed:)`.
    public var seed: UInt64
}

/// Everything that decides one clip, drawn from the clip's own generator. Pure data: rendering
/// a plan is deterministic, so the plan (with the sources) is the clip's full recipe.
public struct ClipPlan: Sendable, Codable, Equatable {
    /// A piece of a speech source placed in the clip.
    public struct SpeechPiece: Sendable, Codable, Equatable {
        /// Index into the mix's speech sources.
        public var source: Int
        /// First sample taken from the source (at the corpus rate).
        public var offset: Int
        /// Samples taken.
        public var length: Int
        /// Where the piece starts in the clip, samples.
        public var position: Int
    }
    /// A noise source summed into the clip.
    public struct NoisePiece: Sendable, Codable, Equatable {
        /// Index into the mix's noise sources.
        public var source: Int
        /// Sample of the (looped) source where the clip's noise starts (at the corpus rate).
        public var offset: Int
        /// This noise's own SNR against the speech, dB; the noises together give `snrDB`.
        public var snrDB: Double
    }

    /// Clip index in the run (0-based).
    public var index: Int
    /// Stable id: `s<seed>-<index, 7 digits>`.
    public var clipID: String
    /// Split name.
    public var split: String
    /// The clip's own generator seed, derived from (run seed, index).
    public var seed: UInt64
    /// Clip length, samples at the corpus rate.
    public var length: Int
    public var speech: [SpeechPiece]
    public var noises: [NoisePiece]
    /// Requested SNR, dB.
    public var snrDB: Double
    /// Requested mixture level, dBFS.
    public var levelDBFS: Double
    /// Index into the mix's RIRs, when the clip is reverberated.
    public var rir: Int?
    /// Band-limiting low-pass cut-off, Hz, when applied.
    public var lowpassHz: Double?
    /// Degradations of the noisy input, in application order, drawn from their own streams
    /// (``DegradationDraws``); nil when the mix enables none.
    public var degradations: [Degradation]? = nil

    /// The clip's sample rate, Hz, under `--sample-rate native` (its speech source's rate); nil: the
    /// corpus rate. Lengths and offsets of the plan are at this rate.
    public var sampleRate: Int? = nil

    /// Wind noise that replaces the clip's noise sources (`--wind-probability`): nil when none.
    public var wind: WindDraw? = nil

    /// The id of clip `index` of a run with `seed`.
    public static func clipID(seed: UInt64, index: Int) -> String {
        let digits = String(index)
        return "s\(seed)-" + String(repeating: "0", count: max(0, 7 - digits.count)) + digits
    }
}
