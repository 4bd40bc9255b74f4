/// Every option of a mix. Codable so it can be read from a recipe file and recorded with the
/// run (the catalogue's `params` table and the corpus's `mix.json`).
public struct MixOptions: Sendable, Codable, Equatable {
    /// How a clip's length is chosen.
    public enum LengthMode: String, Sendable, Codable, CaseIterable {
        /// `seconds` long: longer speech is cropped at a random offset, shorter speech is placed at a
        /// random position and zero-padded.
        case fixed
        /// As long as the speech utterance.
        case fullUtterance = "full-utterance"
        /// Utterances of one speaker joined until `seconds` is reached, then cropped.
        case concatenate
    }
    /// How the SNR is measured.
    public enum SNRMode: String, Sendable, Codable, CaseIterable {
        /// Energy over the whole clip, speech and noise alike.
        case global
        /// Speech energy over its active frames (ITU-T P.56 active level); noise over the whole clip.
        case active
    }
    /// How the mixture level is measured for `levelDBFS`.
    public enum LevelMode: String, Sendable, Codable, CaseIterable {
        case rms, active, lufs
    }
    /// What to do when the mixture would clip.
    public enum ClippingPolicy: String, Sendable, Codable, CaseIterable {
        /// Scale noisy, clean and noise together so the mixture peaks at or below 0.99.
        case rescale
        /// Draw the clip's level again (up to 20 times, then scale as `rescale`).
        case reject
        /// Write as is; PCM output clips at full scale (counted).
        case allow
    }
    /// What the clean stem holds when speech is reverberated.
    public enum ReverbTarget: String, Sendable, Codable, CaseIterable {
        /// The dry speech (the noisy mixture is still reverberant).
        case dry
        /// Speech convolved with the impulse response up to the direct path plus `earlyMs` (50 ms).
        case early
        /// The reverberant speech.
        case reverberant
    }
    /// Sample format of the written WAV files.
    public typealias OutputFormat = WAVSampleFormat

    /// Sample rate of the corpus, Hz; every source is resampled to it. Under `nativeSampleRate`,
    /// the highest speech rate (each clip then has its own rate, ``ClipPlan/sampleRate``).
    public var sampleRate: Int = 16000
    /// `--sample-rate native`: each clip at its speech source's rate, its noise drawn among the
    /// noise files at that rate or higher and resampled down (nil: one corpus rate, `sampleRate`).
    public var nativeSampleRate: Bool? = nil
    /// The `--sample-rate` value that keeps each clip at its speech source's rate.
    public static let nativeRateName = "native"
    /// Whether clips keep their speech source's rate (`--sample-rate native`).
    public var isNativeRate: Bool { nativeSampleRate == true }

    /// How the SNRs this mix draws are grouped into subsets: 5 dB bands when the SNR (or the wind's,
    /// when wind noise is drawn) is a range, one subset per value otherwise.
    public var snrSubsetRule: SNRSubsetRule {
        SNRSubsetRule(specs: [snrDB] + (windProbability == nil ? [] : [windSNRDB ?? MixPlanner.defaultWindSNRDB]))
    }
    /// Number of clips (takes precedence over `hours`).
    public var count: Int? = nil
    /// Total hours of noisy audio, when `count` is not given.
    public var hours: Double? = nil
    /// Clip length in seconds (`fixed` and `concatenate`).
    public var seconds: Double = 4
    public var lengthMode: LengthMode = .fixed
    /// Requested SNR per clip, dB.
    public var snrDB: ValueSpec = .list([-5, 0, 5, 10, 15, 20])
    public var snrMode: SNRMode = .global
    /// How many noise sources are summed into one clip.
    public var noisesPerClip = CountRange(low: 1, high: 1)
    /// Mixture level, dBFS (measured by `levelMode`).
    public var levelDBFS: ValueSpec = .uniform(low: -35, high: -15)
    public var levelMode: LevelMode = .rms
    public var clipping: ClippingPolicy = .rescale
    /// What the clean stem holds when a room impulse response is applied.
    public var target: ReverbTarget = .dry
    /// The sample of each RIR that outputs are aligned on and the early window starts from
    /// (``RIRAlignment``). New mixes use the first arrival; a `mix.json` written before the rule
    /// existed has no such field and decodes as nil, which means the largest sample (`peak`), so a
    /// resumed old mix keeps its alignment.
    public var rirAlignment: RIRAlignment? = .onset
    /// The early window after the direct path for `--target early`, ms (nil: 50).
    public var earlyMs: Double? = nil
    /// Probability that a clip is reverberated, when RIRs are given.
    public var rirProbability: Double = 1
    /// Probability that a clip's noise is generated wind noise (`WindNoise`) instead of its noise
    /// sources (nil: never), drawn from the stage's own stream.
    public var windProbability: Double? = nil
    /// SNR of the wind noise, dB (default -10:15, as the URGENT challenge).
    public var windSNRDB: ValueSpec? = nil
    /// Low-pass cut-off for band-limiting augmentation, Hz (nil: none).
    public var lowpassHz: ValueSpec? = nil
    /// Probability that a clip is band-limited, when `lowpassHz` is given.
    public var lowpassProbability: Double = 0.5
    /// Splits and their fractions; sources, not clips, are assigned to splits.
    public var split: SplitSpec = .single("train")
    /// Assign speakers (not files) to splits.
    public var disjointSpeakers: Bool = false

    /// Which sources `split` assigns to splits (`--split-sources`).
    public enum SplitSources: String, Sendable, Codable, CaseIterable {
        /// Speech only: every split draws from all noise and RIR files.
        case speech
        /// Speech, noise and RIR files alike (the default, as before the option existed).
        case all
    }
    /// Which sources are split (nil: all).
    public var splitSources: SplitSources? = nil

    /// Values of the `disjoint` setting: what splits keep apart besides files.
    public enum Disjointness: String, Sendable, CaseIterable {
        /// Every speaker's files go to one split (needs speakers: `speaker-pattern` or a catalogued corpus).
        case speakers
    }
    /// Run seed: every clip's generator is seeded from (seed, clip index).
    public var seed: UInt64 = 0
    public var format: OutputFormat = .pcm16
    /// Crossfade when a short noise loops, seconds.
    public var crossfadeSeconds: Double = 0.02

    // Degradations of the noisy input (``Degradation``). Optional, so that the options of a mix
    // without them encode (mix.json) and decode exactly as before; validated in
    // `validateDegradations()`, defaults in the doc comments.
    /// Band edges for band limitation, Hz (nil: no band limitation).
    public var bandwidthHz: ValueSpec? = nil
    /// Rates the noisy input is resampled to and back, one drawn per clip among those below the
    /// corpus rate, with a drawn resampler quality (nil: band edges from `bandwidthHz`).
    public var bandwidthRates: [Int]? = nil
    /// Probability a clip is band-limited (default 1).
    public var bandwidthProbability: Double? = nil
    /// Whether the clean target keeps its full band (default) or is band-limited like the noisy input.
    public var targetBandwidth: TargetBandwidth? = nil
    /// Codecs a clip's noisy input may be coded with, one drawn uniformly (nil: no coding).
    public var codecs: [AudioCodec]? = nil
    /// Probability a clip is coded (default 1).
    public var codecProbability: Double? = nil
    /// MP3 bitrates, kbps (default 16:128; snapped to the nearest MP3 bitrate).
    public var mp3BitrateKbps: ValueSpec? = nil
    /// Opus bitrates, kbps (default 6:64; rounded to whole kbps).
    public var opusBitrateKbps: ValueSpec? = nil
    /// Opus encoder complexities, 0-10, drawn per clip (nil: 10, libsndfile's, and not recorded).
    public var opusComplexity: CountRange? = nil
    /// Vorbis qualities, 0-1 (default 0.1:0.6; rounded to 0.01).
    public var vorbisQuality: ValueSpec? = nil
    /// Packet-loss rates, 0-1 (nil: no packet loss).
    public var packetLoss: ValueSpec? = nil
    /// Probability a clip loses packets (default 1).
    public var packetLossProbability: Double? = nil
    /// Packet length, ms (default 20).
    public var packetMs: Double? = nil
    /// Longest burst of consecutive lost packets drawn at once (default 10).
    public var maxBurstPackets: Int? = nil
    /// How lost packets are filled (default zero).
    public var concealment: Concealment? = nil
    /// Clipping thresholds as a fraction of the noisy input's peak (nil: no clipping distortion).
    public var clipDistortion: ValueSpec? = nil
    /// Clipping between two drawn quantiles of the noisy input (nil: `clipDistortion`'s thresholds).
    public var clipQuantiles: ClipQuantiles? = nil
    /// Probability a clip is clip-distorted (default 1).
    public var clipDistortionProbability: Double? = nil
    /// How many of the enabled degradation stages a clip gets (nil: each by its own probability).
    public var degradationsPerClip: DegradationCounts? = nil
    /// A clip whose noisy input the degradations silence: kept with a null level, or failed (nil: kept).
    public var silencedClips: SilencedClips? = nil

    public init() {}

    /// Most clips one mix makes (11,000 hours of 4 s clips; the DNS Challenge's 500 h are 180,000
    /// 10 s clips). A mix keeps a manifest record per clip in memory and writes three files per
    /// clip; a larger corpus is several mixes (or shards).
    public static let maximumClipCount = 10_000_000

    /// Checks ranges that parsing alone cannot.
    /// - Throws: ``MixError/invalidOption(name:value:reason:)`` naming the option.
    public func validate() throws {
        func fail(_ name: String, _ value: Any, _ reason: String) -> MixError {
            .invalidOption(name: name, value: "\(value)", reason: reason)
        }
        guard (8000...192_000).contains(sampleRate) else { throw fail("sample-rate", sampleRate, "must be 8000..192000 Hz") }
        if let count, count <= 0 { throw fail("count", count, "must be positive") }
        if let count, count > Self.maximumClipCount {
            throw fail("count", count,
                       "more clips than one mix makes (at most \(Self.maximumClipCount)); make a larger corpus as several mixes")
        }
        if let hours, !(hours > 0 && hours.isFinite) { throw fail("hours", hours, "must be positive") }
        if count == nil && hours == nil { throw fail("count", "(none)", "give a clip count or hours") }
        if lengthMode != .fullUtterance && !(seconds > 0 && seconds <= 3600) { throw fail("seconds", seconds, "must be in (0, 3600]") }
        if levelDBFS.bounds.upperBound > 0 { throw fail("level-dbfs", levelDBFS, "levels are at most 0 dBFS") }
        if let earlyMs {
            guard earlyMs > 0 && earlyMs <= 1000 else { throw fail("early-ms", earlyMs, "must be in (0, 1000] ms") }
            guard target == .early else { throw fail("early-ms", earlyMs, "has no effect without --target early") }
        }
        if let windProbability, !(0...1).contains(windProbability) {
            throw fail("wind-probability", windProbability, "must be in [0, 1]")
        }
        if let windSNRDB, windProbability == nil { throw fail("wind-snr-db", windSNRDB, "has no effect without --wind-probability") }
        guard (0...1).contains(rirProbability) else { throw fail("rir-probability", rirProbability, "must be in [0, 1]") }
        guard (0...1).contains(lowpassProbability) else { throw fail("lowpass-probability", lowpassProbability, "must be in [0, 1]") }
        if let lowpassHz, lowpassHz.bounds.lowerBound <= 0 || lowpassHz.bounds.upperBound >= Double(sampleRate) / 2 {
            throw fail("lowpass-hz", lowpassHz, "cut-offs must be in (0, \(sampleRate / 2)) Hz")
        }
        if let splitSources, split.names.count == 1 {
            throw fail("split-sources", splitSources.rawValue, "has no effect with a single split (give --split)")
        }
        guard crossfadeSeconds >= 0 && crossfadeSeconds < 1 else { throw fail("crossfade-seconds", crossfadeSeconds, "must be in [0, 1)") }
        try validateDegradations()
    }
}
