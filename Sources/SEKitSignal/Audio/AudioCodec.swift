import Foundation

/// A lossy speech or audio codec that libsndfile writes and reads (Debian 12's libsndfile 1.2.0
/// with LAME/mpg123, libopus, libvorbis), applied as an in-memory encode and decode (Opus through
/// libopus directly, as libsndfile runs it).
///
/// Checked on real speech (`Tests/SEKitTests/Audio/AudioCodecTests.swift`): at every coding rate
/// below, libsndfile returns exactly as many samples as went in, at lag 0 (cross-correlation):
/// - MP3 (LAME 3.100, mpg123 1.31): LAME's encoder delay (576) and the decoder's (529) are written
///   in the LAME Info tag and removed by mpg123's gapless decoding — when the Info tag is used. At
///   low bitrates (measured: 32 kbps and below at 16 kHz, about 60 kbps and below at 48 kHz, every
///   bitrate tried at 11.025, 12 and 24 kHz) it is not, and the output comes 1105 samples late and padded: SEKit then drops those
///   1105 samples itself. MPEG sample rates (8, 11.025, 12, 16, 22.05, 24, 32, 44.1, 48 kHz) are
///   coded as they are, others at the next MPEG rate up (48 kHz above 48 kHz).
/// - Opus (libopus 1.3.1): run directly (``OpusMemoryCodec``, not through libsndfile, so that the
///   encoder complexity can be chosen) exactly as libsndfile's Ogg Opus writer and reader run it: at
///   complexity 10 the decoded samples are bit-identical to libsndfile's. libopus runs at 8, 12, 16,
///   24 or 48 kHz; the encoder's lookahead (the Ogg pre-skip, 312 samples at 48 kHz, 6.5 ms) is
///   dropped from the decoded output. That aligns the CELT path; in the SILK and hybrid modes
///   libopus picks at low bitrates the output comes 1-2 samples early at 24 and 48 kHz, so SEKit
///   re-aligns Opus output by the lag within ±3 samples that maximises its cross-correlation with
///   the encoder's input (±6 below complexity 10, where the SILK path at low bitrates comes up to 5
///   samples late at 48 kHz). Other corpus rates are coded at the next Opus rate up (48 kHz above
///   48 kHz).
/// - Vorbis: any rate; the decoder's granule positions trim the stream exactly.
/// - μ-law and A-law (G.711, in WAV): sample-by-sample companding at the corpus rate (no delay).
/// - GSM 06.10 (in WAV): a narrowband telephone codec, always coded at 8 kHz (the corpus rate is
///   resampled down and back up, so it is also band-limited to 4 kHz); its 160-sample frames pad
///   the end, which is trimmed.
/// Rates other than the coding rate go through SEKit's soxr resampler (``Resampler``, linear
/// phase, no delay) down and back up.
public enum AudioCodec: String, Sendable, Codable, CaseIterable {
    case mp3, opus, vorbis, ulaw, alaw, gsm

    /// MPEG audio sample rates (MPEG-2.5, MPEG-2, MPEG-1), Hz.
    static let mp3Rates = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000]
    /// LAME's encoder delay plus mpg123's decoder delay, samples: what precedes the signal when
    /// the decoder does not trim it (no usable LAME Info tag).
    static let mp3UntrimmedDelay = 576 + 529
    /// Largest residual Opus lag corrected by cross-correlation, samples (see above), at
    /// complexity 10.
    static let opusResidualLagLimit = 3
    /// The same below complexity 10: at low bitrates the SILK path then comes up to 5 samples late
    /// at 48 kHz (measured on real speech: 6 kbps, complexity 0). Complexity 10 keeps ±3, so that
    /// its output stays as it was.
    static let opusLowComplexityResidualLagLimit = 6
    /// Sample rates libopus (and libsndfile's Opus encoder) accepts, Hz.
    static let opusRates = OpusMemoryCodec.rates
    /// GSM 06.10's sample rate, Hz.
    static let gsmRate = 8000

    /// The rate the codec runs at for a corpus at `sampleRate` Hz.
    public func codingRate(forSampleRate sampleRate: Int) -> Int {
        func nextUp(_ rates: [Int]) -> Int { rates.first { $0 >= sampleRate } ?? rates.last! }
        switch self {
        case .mp3: return nextUp(Self.mp3Rates)
        case .opus: return nextUp(Self.opusRates)
        case .gsm: return Self.gsmRate
        case .vorbis, .ulaw, .alaw: return sampleRate
        }
    }

    /// The MP3 constant bitrates LAME uses at `codingRate`, kbps: MPEG-1 from 32 kHz, MPEG-2 from
    /// 16 kHz, MPEG-2.5 below.
    public static func mp3BitratesKbps(codingRate: Int) -> [Int] {
        if codingRate >= 32000 { return [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320] }
        if codingRate >= 16000 { return [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160] }
        return [8, 16, 24, 32, 40, 48, 56, 64]
    }

    /// The MP3 bitrate LAME uses for a requested `kbps` at `codingRate`: the nearest in
    /// ``mp3BitratesKbps(codingRate:)`` (the lower one on a tie).
    public static func mp3BitrateKbps(nearest kbps: Double, codingRate: Int) -> Int {
        mp3BitratesKbps(codingRate: codingRate).min { abs(Double($0) - kbps) < abs(Double($1) - kbps) }!
    }

    /// Opus bitrates libsndfile can ask libopus for, kbps (its compression level spans 6-256 kbps).
    public static let opusBitrateRangeKbps = 6.0...256.0

    /// Opus encoder complexities (`OPUS_SET_COMPLEXITY`): 0 (fastest) to 10 (best).
    public static let opusComplexityRange = 0...10
    /// The Opus encoder complexity when none is given: 10, what libsndfile, opusenc and ffmpeg use.
    public static let defaultOpusComplexity = OpusMemoryCodec.defaultComplexity
}

/// The settings of one encode and decode.
public struct CodecSettings: Sendable, Equatable {
    public var codec: AudioCodec
    /// MP3 constant bitrate, kbps (one of ``AudioCodec/mp3BitratesKbps(codingRate:)``).
    public var mp3BitrateKbps: Int?
    /// Opus target bitrate, kbps (6-256).
    public var opusBitrateKbps: Int?
    /// Opus encoder complexity, 0-10 (nil: ``AudioCodec/defaultOpusComplexity``, 10).
    public var opusComplexity: Int?
    /// Vorbis VBR quality, 0 (lowest) to 1 (highest) (libvorbis `-q 0` to `-q 10`).
    public var vorbisQuality: Double?

    public init(codec: AudioCodec, mp3BitrateKbps: Int? = nil, opusBitrateKbps: Int? = nil, opusComplexity: Int? = nil,
                vorbisQuality: Double? = nil) {
        self.codec = codec; self.mp3BitrateKbps = mp3BitrateKbps; self.opusBitrateKbps = opusBitrateKbps
        self.opusComplexity = opusComplexity; self.vorbisQuality = vorbisQuality
    }
}

/// Encoding and decoding in memory (no files), sample-aligned with the input.
public enum CodecRoundTrip {
    /// Shortest input handed to a codec, samples (longer than an MP3 frame, 1152, a Vorbis block,
    /// 2048, and an Opus packet, 960 at 48 kHz); shorter inputs are padded with zeros.
    static let minimumFrames = 4096

    /// `samples` at `sampleRate` Hz encoded and decoded with `settings`: as many samples, at lag 0.
    /// Runs at ``AudioCodec/codingRate(forSampleRate:)``, resampling down and back up when that
    /// differs from `sampleRate`.
    /// - Throws: ``AudioError/invalidParameter(name:value:reason:)`` naming the codec and what
    ///   libsndfile (libopus for Opus) said.
    public static func apply(_ samples: [Float], sampleRate: Int, settings: CodecSettings) throws -> [Float] {
        let codec = settings.codec
        let codingRate = codec.codingRate(forSampleRate: sampleRate)
        let format = try format(settings, codingRate: codingRate)
        return try Resampler.through(samples, sampleRate: sampleRate, intermediateRate: codingRate) { unpadded in
            // Inputs shorter than a few codec frames are padded with zeros (and trimmed after), so
            // that every codec returns at least as many samples as went in.
            let input = unpadded.count >= Self.minimumFrames ? unpadded : unpadded + repeatElement(0,
                    count: Self.minimumFrames - unpadded.count)
            var decoded: [Float]
            let complexity = settings.opusComplexity ?? AudioCodec.defaultOpusComplexity
            if codec == .opus {
                do throws(OpusMemoryCodec.Failure) {
                    decoded = try OpusMemoryCodec.roundTrip(input, sampleRate: codingRate, bitrate: opusBitrate(format),
                                                            complexity: complexity)
                } catch {
                    throw AudioError.invalidParameter(name: "codec", value: codec.rawValue,
                                                      reason: "libopus at \(codingRate) Hz: \(error.message)")
                }
            } else {
                do throws(SndfileMemoryCodec.Failure) {
                    decoded = try SndfileMemoryCodec.roundTrip(input, sampleRate: codingRate, format: format)
                } catch {
                    throw AudioError.invalidParameter(name: "codec", value: codec.rawValue,
                                                      reason: "libsndfile at \(codingRate) Hz: \(error.message)")
                }
            }
            if codec == .mp3 && decoded.count > input.count { decoded.removeFirst(min(AudioCodec.mp3UntrimmedDelay,
                                                                                      decoded.count - input.count)) }
            guard decoded.count >= input.count else {
                throw AudioError.invalidParameter(name: "codec", value: codec.rawValue,
                        reason: "libsndfile at \(codingRate) Hz decoded \(decoded.count) of \(input.count) samples")
            }
            if decoded.count > input.count { decoded.removeLast(decoded.count - input.count) }
            if codec == .opus {
                let limit = complexity == AudioCodec.defaultOpusComplexity
                    ? AudioCodec.opusResidualLagLimit : AudioCodec.opusLowComplexityResidualLagLimit
                decoded = realigned(decoded, to: input, maximumLag: limit)
            }
            if decoded.count > unpadded.count { decoded.removeLast(decoded.count - unpadded.count) }
            return decoded
        }
    }

    /// The Opus bitrate, bits per second, libsndfile sets for `format`'s compression level c:
    /// ⌊(1 − c)·250000 + 6000⌋ (`src/ogg_opus.c`, `SFC_SET_COMPRESSION_LEVEL`), computed as it does.
    static func opusBitrate(_ format: SndfileMemoryCodec.Format) -> Int {
        Int(((1.0 - format.compressionLevel!) * 250000.0) + 6000.0)
    }

    /// `y` shifted by the lag in ±`maximumLag` that maximises its cross-correlation with `x`
    /// (zeros shifted in at the edge); `y` itself when no lag beats 0 (a silent input stays put).
    /// Same length as `y`.
    static func realigned(_ y: [Float], to x: [Float], maximumLag: Int) -> [Float] {
        let n = min(x.count, y.count)
        var bestLag = 0, best = -Float.infinity
        x.withUnsafeBufferPointer { a in
            y.withUnsafeBufferPointer { b in
                for lag in [0] + (1...maximumLag).flatMap({ [-$0, $0] }) {
                    var sum: Float = 0
                    for i in max(0, -lag)..<min(n, n - lag) { sum += a[i] * b[i + lag] }
                    if sum > best { best = sum; bestLag = lag }
                }
            }
        }
        guard bestLag != 0 else { return y }
        // y[i + lag] lines up with x[i].
        return (0..<y.count).map { i in (0..<y.count).contains(i + bestLag) ? y[i + bestLag] : 0 }
    }

    /// libsndfile's format code and settings for `settings`.
    static func format(_ settings: CodecSettings, codingRate: Int) throws -> SndfileMemoryCodec.Format {
        func missing(_ name: String) -> AudioError {
            .invalidParameter(name: name, value: "(none)", reason: "needed for \(settings.codec.rawValue)")
        }
        switch settings.codec {
        case .mp3:
            guard let kbps = settings.mp3BitrateKbps else { throw missing("mp3-bitrate-kbps") }
            // libsndfile maps the compression level c to ⌊max − c·(max − min)⌋ kbps over the MPEG
            // version's range; half a kbit above the target survives the truncation.
            let rates = AudioCodec.mp3BitratesKbps(codingRate: codingRate)
            let high = Double(rates.last!), low = Double(rates.first!)
            guard rates.contains(kbps) else {
                throw AudioError.invalidParameter(name: "mp3-bitrate-kbps", value: "\(kbps)",
                        reason: "not an MP3 bitrate at \(codingRate) Hz (\(rates.map(String.init).joined(separator: ",")))")
            }
            let level = kbps == rates.last! ? 0 : (high - Double(kbps) - 0.5) / (high - low)
            return .mp3(constantBitrateLevel: level)
        case .opus:
            guard let kbps = settings.opusBitrateKbps else { throw missing("opus-bitrate-kbps") }
            guard AudioCodec.opusBitrateRangeKbps.contains(Double(kbps)) else {
                throw AudioError.invalidParameter(name: "opus-bitrate-kbps", value: "\(kbps)", reason: "must be 6-256")
            }
            if let complexity = settings.opusComplexity, !AudioCodec.opusComplexityRange.contains(complexity) {
                throw AudioError.invalidParameter(name: "opus-complexity", value: "\(complexity)", reason: "must be 0-10")
            }
            // libsndfile: bitrate = ⌊(1 − c)·250000 + 6000⌋ bps.
            let level = min(1, max(0, 1 - (Double(kbps) * 1000 - 6000 + 0.5) / 250_000))
            return .opus(compressionLevel: level)
        case .vorbis:
            guard let quality = settings.vorbisQuality else { throw missing("vorbis-quality") }
            return .vorbis(quality: quality)
        case .ulaw: return .ulaw
        case .alaw: return .alaw
        case .gsm: return .gsm
        }
    }
}
