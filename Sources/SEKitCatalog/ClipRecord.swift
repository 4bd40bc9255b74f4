import GRDB

/// One row of `clips`: a mixed example (noisy = gain-scaled speech, reverberated or not, plus noises).
///
/// The id is given by the mixer, derived from the run seed and the clip index (DESIGN.md, "Clip identity").
public struct ClipRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "clips"
    public var id: String
    public var runID: RunID
    public var clipIndex: Int
    /// `train`, `valid`, `test`, or any non-empty name.
    public var split: String
    public var speechSourceID: String?
    public var speechOffsetSeconds: Double?
    public var rirSourceID: String?
    public var snrRequestedDB: Double?
    public var snrRealisedDB: Double?
    /// Level of the noisy mix, dBFS (≤ 0).
    public var levelDBFS: Double?
    public var speechGain: Double?
    public var noiseGain: Double?
    /// Factor applied to avoid clipping, in (0, 1]; 1 when nothing was scaled.
    public var clippingScale: Double
    /// The clip's own generator seed: a `UInt64`, stored as its bit pattern (SQLite integers are
    /// signed); ``unsignedSeed`` is the value. Listings and the filter language use the unsigned value.
    public var seed: Int64
    /// The seed as the unsigned value it is.
    public var unsignedSeed: UInt64 { UInt64(bitPattern: seed) }
    /// Sample rate in Hz.
    public var sampleRate: Int
    public var durationSeconds: Double
    public var noisyPath: String?
    public var cleanPath: String?
    public var noisePath: String?

    public init(id: String, runID: RunID, clipIndex: Int, split: String, speechSourceID: String? = nil,
                speechOffsetSeconds: Double? = nil, rirSourceID: String? = nil, snrRequestedDB: Double? = nil,
                snrRealisedDB: Double? = nil, levelDBFS: Double? = nil, speechGain: Double? = nil,
                noiseGain: Double? = nil, clippingScale: Double = 1, seed: Int64, sampleRate: Int,
                durationSeconds: Double, noisyPath: String? = nil, cleanPath: String? = nil, noisePath: String? = nil) {
        self.id = id; self.runID = runID; self.clipIndex = clipIndex; self.split = split
        self.speechSourceID = speechSourceID; self.speechOffsetSeconds = speechOffsetSeconds
        self.rirSourceID = rirSourceID; self.snrRequestedDB = snrRequestedDB; self.snrRealisedDB = snrRealisedDB
        self.levelDBFS = levelDBFS; self.speechGain = speechGain; self.noiseGain = noiseGain
        self.clippingScale = clippingScale; self.seed = seed; self.sampleRate = sampleRate
        self.durationSeconds = durationSeconds; self.noisyPath = noisyPath; self.cleanPath = cleanPath
        self.noisePath = noisePath
    }

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let runID = Column(CodingKeys.runID)
        public static let clipIndex = Column(CodingKeys.clipIndex)
        public static let split = Column(CodingKeys.split)
        public static let speechSourceID = Column(CodingKeys.speechSourceID)
        public static let speechOffsetSeconds = Column(CodingKeys.speechOffsetSeconds)
        public static let rirSourceID = Column(CodingKeys.rirSourceID)
        public static let snrRequestedDB = Column(CodingKeys.snrRequestedDB)
        public static let snrRealisedDB = Column(CodingKeys.snrRealisedDB)
        public static let levelDBFS = Column(CodingKeys.levelDBFS)
        public static let speechGain = Column(CodingKeys.speechGain)
        public static let noiseGain = Column(CodingKeys.noiseGain)
        public static let clippingScale = Column(CodingKeys.clippingScale)
        public static let seed = Column(CodingKeys.seed)
        public static let sampleRate = Column(CodingKeys.sampleRate)
        public static let durationSeconds = Column(CodingKeys.durationSeconds)
        public static let noisyPath = Column(CodingKeys.noisyPath)
        public static let cleanPath = Column(CodingKeys.cleanPath)
        public static let noisePath = Column(CodingKeys.noisePath)
    }

    enum CodingKeys: String, CodingKey {
        case id, runID = "run_id", clipIndex = "clip_index", split
        case speechSourceID = "speech_source_id", speechOffsetSeconds = "speech_offset_seconds"
        case rirSourceID = "rir_source_id", snrRequestedDB = "snr_requested_db", snrRealisedDB = "snr_realised_db"
        case levelDBFS = "level_dbfs", speechGain = "speech_gain", noiseGain = "noise_gain"
        case clippingScale = "clipping_scale", seed, sampleRate = "sample_rate", durationSeconds = "duration_seconds"
        case noisyPath = "noisy_path", cleanPath = "clean_path", noisePath = "noise_path"
    }
}

/// One row of `clip_noises`: the `position`-th noise added to a clip, from `offsetSeconds` into its source.
public struct ClipNoiseRecord: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "clip_noises"
    public var clipID: String
    public var position: Int
    public var sourceID: String
    public var offsetSeconds: Double
    public var gain: Double?

    public init(clipID: String, position: Int, sourceID: String, offsetSeconds: Double, gain: Double? = nil) {
        self.clipID = clipID; self.position = position; self.sourceID = sourceID
        self.offsetSeconds = offsetSeconds; self.gain = gain
    }

    public enum Columns {
        public static let clipID = Column(CodingKeys.clipID)
        public static let position = Column(CodingKeys.position)
        public static let sourceID = Column(CodingKeys.sourceID)
        public static let offsetSeconds = Column(CodingKeys.offsetSeconds)
        public static let gain = Column(CodingKeys.gain)
    }

    enum CodingKeys: String, CodingKey {
        case clipID = "clip_id", position, sourceID = "source_id", offsetSeconds = "offset_seconds", gain
    }
}
