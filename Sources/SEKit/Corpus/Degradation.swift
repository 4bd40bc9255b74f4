import Foundation

/// One degradation applied to a clip's noisy input, with its parameters: an entry of the
/// manifest's `degradations` list (`{"stage": "codec", "codec": "mp3", "mp3_bitrate_kbps": 24, ...}`)
/// and of the catalogue's `clip_degradations` table. Drawn by the planner (``ClipPlan/degradations``);
/// the realised figures (`clipped_fraction`) are filled in when the clip is rendered.
///
/// Parameter names follow the flags that drew them (`--mp3-bitrate-kbps` → `mp3_bitrate_kbps`).
public struct Degradation: Sendable, Codable, Equatable {
    /// The degradation stages, in the order they are applied (after reverberation, noise, level
    /// and the clipping rule).
    public enum Stage: String, Sendable, Codable, CaseIterable {
        /// Band limitation: resampled down to twice the band and back up (`--bandwidth-hz`).
        case bandwidth
        /// Lossy coding: encoded and decoded (`--codec`).
        case codec
        /// Lost packets zeroed or concealed (`--packet-loss`).
        case packetLoss = "packet-loss"
        /// Hard clipping at a fraction of the peak (`--clip-distortion`).
        case clipDistortion = "clip-distortion"
    }

    public var stage: Stage
    /// Band edge, Hz (`bandwidth`): the input was resampled to twice this rate and back.
    public var bandwidthHz: Int? = nil
    /// Rate the input was resampled to and back, Hz (`bandwidth` under `--bandwidth-rates`).
    public var bandwidthRateHz: Int? = nil
    /// soxr quality of that resampling: `medium`, `high` or `very-high` (`bandwidth` under `--bandwidth-rates`).
    public var resamplerQuality: Resampler.Quality? = nil
    /// `full` or `limited` (`bandwidth`): whether the clean target was band-limited as well.
    public var targetBandwidth: TargetBandwidth? = nil
    /// The codec (`codec`).
    public var codec: AudioCodec? = nil
    /// Sample rate the codec ran at, Hz (`codec`; see `AudioCodec.codingRate(forSampleRate:)`).
    public var codecRateHz: Int? = nil
    /// MP3 constant bitrate, kbps (`codec` mp3).
    public var mp3BitrateKbps: Int? = nil
    /// Opus target bitrate, kbps (`codec` opus).
    public var opusBitrateKbps: Int? = nil
    /// Opus encoder complexity, 0-10 (`codec` opus; only when `--opus-complexity` is given, so that
    /// records made without it stay as they were: absent means 10).
    public var opusComplexity: Int? = nil
    /// Vorbis quality, 0-1 (`codec` vorbis).
    public var vorbisQuality: Double? = nil
    /// Drawn loss rate, 0-1 (`packet-loss`).
    public var packetLoss: Double? = nil
    /// Packet length, ms (`packet-loss`).
    public var packetMs: Double? = nil
    /// How lost packets are filled: `zero` or `repeat` (`packet-loss`).
    public var concealment: PacketLossConcealment? = nil
    /// Indices of the lost packets, ascending (`packet-loss`; packet k covers samples
    /// `k·P ..< (k+1)·P`, P = packet_ms at the corpus rate, rounded).
    public var lostPackets: [Int]? = nil
    /// Lost packets over all packets of the clip (`packet-loss`).
    public var lostFraction: Double? = nil
    /// Clipping threshold as a fraction of the noisy input's peak (`clip-distortion`).
    public var clipDistortion: Double? = nil
    /// Lower quantile the noisy input was clipped at, 0-1 (`clip-distortion` under `--clip-quantiles`).
    public var clipQuantileLow: Double? = nil
    /// Upper quantile the noisy input was clipped at, 0-1 (`clip-distortion` under `--clip-quantiles`).
    public var clipQuantileHigh: Double? = nil
    /// Samples clipped over all samples of the clip (`clip-distortion`; realised).
    public var clippedFraction: Double? = nil

    public init(stage: Stage) { self.stage = stage }

    enum CodingKeys: String, CodingKey {
        case stage, bandwidthHz = "bandwidth_hz", targetBandwidth = "target_bandwidth", codec, codecRateHz = "codec_rate_hz"
        case mp3BitrateKbps = "mp3_bitrate_kbps", opusBitrateKbps = "opus_bitrate_kbps", opusComplexity = "opus_complexity",
                vorbisQuality = "vorbis_quality"
        case packetLoss = "packet_loss", packetMs = "packet_ms", concealment, lostPackets = "lost_packets", lostFraction = "lost_fraction"
        case clipDistortion = "clip_distortion", clippedFraction = "clipped_fraction"
        case bandwidthRateHz = "bandwidth_rate_hz", resamplerQuality = "resampler_quality"
        case clipQuantileLow = "clip_quantile_low", clipQuantileHigh = "clip_quantile_high"
    }

    /// The kind scores and filters name: the codec for `codec` (`mp3`), else the stage (`packet-loss`).
    public var kind: String { codec?.rawValue ?? stage.rawValue }

    /// The parameters as catalogue rows: JSON field name → (text, number when numeric). Lists
    /// (`lost_packets`) are JSON text.
    public var parameters: [(key: String, text: String, number: Double?)] {
        guard let data = try? MixManifestRecord.encoder().encode(self),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [] }
        return object.keys.sorted().filter { $0 != CodingKeys.stage.rawValue }.map { key in
            let value = object[key]!
            if let number = value as? NSNumber {
                return (key, formatNumber(number.doubleValue), number.doubleValue)
            }
            if let text = value as? String { return (key, text, nil) }
            let json = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])).map { String(decoding: $0,
                    as: UTF8.self) } ?? "\(value)"
            return (key, json, nil)
        }
    }
}

/// Subset and filter names for degradations: each kind (`mp3`, `bandwidth`), the family
/// `codec` (any codec), and `none` (a clip of a degraded corpus that drew none).
public enum DegradationLabels {
    /// The family every codec kind belongs to.
    public static let codecFamily = Degradation.Stage.codec.rawValue
    /// The label of clips without any degradation.
    public static let none = "none"

    /// The names a clip with degradation `kinds` answers to: the kinds, plus `codec` when one is a
    /// codec, or `none` when there are none.
    public static func names(ofKinds kinds: [String]) -> [String] {
        if kinds.isEmpty { return [none] }
        let codecs = Set(AudioCodec.allCases.map(\.rawValue))
        return kinds + (kinds.contains(where: codecs.contains) ? [codecFamily] : [])
    }
}
