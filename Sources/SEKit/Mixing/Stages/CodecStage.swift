import Foundation

/// Lossy coding of the noisy input (`--codec`, `--codec-probability`, `--mp3-bitrate-kbps`,
/// `--opus-bitrate-kbps`, `--opus-complexity`, `--vorbis-quality`): one codec drawn uniformly from
/// those given, its quality drawn from its range, then an in-memory encode and decode through
/// libsndfile (Opus: libopus, as libsndfile runs it) (`CodecRoundTrip`), sample-aligned with the
/// clean target. Draws from its own stream (``MixStageRandom``): the codec's index, then that
/// codec's setting, then for Opus under `--opus-complexity LOW:HIGH` (LOW < HIGH) the complexity;
/// without that option no further draw is made (so corpora made before it are unchanged), and a
/// single complexity is not drawn either.
public struct CodecStage: DegradationStage {
    public static let stage = Degradation.Stage.codec
    public init() {}

    public static func draw(options: MixOptions, length: Int, using generator: inout SplitMix64) -> Degradation {
        typealias Defaults = MixOptions.DegradationDefaults
        let codecs = options.codecs!
        let codec = codecs[generator.nextIndex(below: codecs.count)]
        var degradation = Degradation(stage: stage)
        degradation.codec = codec
        let codingRate = codec.codingRate(forSampleRate: options.sampleRate)
        degradation.codecRateHz = codingRate
        switch codec {
        case .mp3:
            let kbps = (options.mp3BitrateKbps ?? Defaults.mp3BitrateKbps).draw(using: &generator)
            degradation.mp3BitrateKbps = AudioCodec.mp3BitrateKbps(nearest: kbps, codingRate: codingRate)
        case .opus:
            degradation.opusBitrateKbps = Int((options.opusBitrateKbps ?? Defaults.opusBitrateKbps).draw(using: &generator).rounded())
            if let complexity = options.opusComplexity {
                degradation.opusComplexity = complexity.low == complexity.high ? complexity.low : complexity.draw(using: &generator)
            }
        case .vorbis:
            degradation.vorbisQuality = ((options.vorbisQuality ?? Defaults.vorbisQuality).draw(using: &generator) * 100).rounded() / 100
        case .ulaw, .alaw, .gsm:
            break
        }
        return degradation
    }

    public func apply(_ degradation: Degradation, to signals: inout ClipSignals, context: MixStageContext) throws -> Degradation {
        let settings = CodecSettings(codec: degradation.codec!, mp3BitrateKbps: degradation.mp3BitrateKbps,
                                     opusBitrateKbps: degradation.opusBitrateKbps, opusComplexity: degradation.opusComplexity,
                                     vorbisQuality: degradation.vorbisQuality)
        signals.noisy = try CodecRoundTrip.apply(signals.noisy, sampleRate: context.sampleRate, settings: settings)
        return degradation
    }
}
