import Foundation

extension MixOptions {
    /// Whether the clean target keeps its full band under `--bandwidth-hz` (`--target-bandwidth`):
    /// ``SEKit/TargetBandwidth``, which the corpus's degradation records share.
    public typealias TargetBandwidth = SEKit.TargetBandwidth

    /// How a lost packet is filled (`--concealment`): ``SEKit/PacketLossConcealment``, which the
    /// corpus's degradation records share.
    public typealias Concealment = PacketLossConcealment

    /// What becomes of a clip whose noisy input the degradations leave silent, or without a level
    /// that can be measured (`--silenced-clips`).
    public enum SilencedClips: String, Sendable, Codable, CaseIterable {
        /// Written like any other, its level recorded as null (the default).
        case keep
        /// Not written: a failed clip, counted in `clips_failed` (the mix goes on and exits 1).
        case fail
    }

    /// Defaults of the degradation options, where the issue and the README give them.
    enum DegradationDefaults {
        static let mp3BitrateKbps = ValueSpec.uniform(low: 16, high: 128)
        static let opusBitrateKbps = ValueSpec.uniform(low: 6, high: 64)
        static let vorbisQuality = ValueSpec.uniform(low: 0.1, high: 0.6)
        static let packetMs = 20.0
        static let maxBurstPackets = 10
    }

    /// The degradation stages these options enable, in application order.
    public var enabledDegradationStages: [Degradation.Stage] {
        var stages: [Degradation.Stage] = []
        if bandwidthHz != nil || bandwidthRates != nil { stages.append(.bandwidth) }
        if codecs != nil { stages.append(.codec) }
        if packetLoss != nil { stages.append(.packetLoss) }
        if clipDistortion != nil || clipQuantiles != nil { stages.append(.clipDistortion) }
        return stages
    }

    /// The probability a clip gets `stage` when stages are drawn one by one (default 1).
    func degradationProbability(_ stage: Degradation.Stage) -> Double {
        switch stage {
        case .bandwidth: bandwidthProbability ?? 1
        case .codec: codecProbability ?? 1
        case .packetLoss: packetLossProbability ?? 1
        case .clipDistortion: clipDistortionProbability ?? 1
        }
    }

    /// Checks the degradation options (ranges, and settings that would have no effect).
    /// - Throws: ``MixError/invalidOption(name:value:reason:)`` naming the option.
    func validateDegradations() throws {
        func fail(_ name: String, _ value: Any, _ reason: String) -> MixError {
            .invalidOption(name: name, value: "\(value)", reason: reason)
        }
        let probabilities: [(String, Double?, Degradation.Stage)] = [
            ("bandwidth-probability", bandwidthProbability, .bandwidth), ("codec-probability", codecProbability, .codec),
            ("packet-loss-probability", packetLossProbability, .packetLoss),
            ("clip-distortion-probability", clipDistortionProbability, .clipDistortion),
        ]
        for (name, value, stage) in probabilities {
            guard let value else { continue }
            guard (0...1).contains(value) else { throw fail(name, value, "must be in [0, 1]") }
            if !enabledDegradationStages.contains(stage) { throw fail(name, value, "has no effect without --\(Self.enablingFlag(stage))") }
            if degradationsPerClip != nil {
                throw fail(name, value, "has no effect with --degradations-per-clip (which draws how many stages a clip gets)")
            }
        }
        if let silencedClips, enabledDegradationStages.isEmpty {
            throw fail("silenced-clips", silencedClips.rawValue,
                       "has no effect without a degradation (--codec, --packet-loss, --clip-distortion, --bandwidth-hz)")
        }
        let nyquist = Double(sampleRate) / 2
        if let bandwidthHz, bandwidthHz.bounds.lowerBound < 1000 || bandwidthHz.bounds.upperBound >= nyquist {
            throw fail("bandwidth-hz", bandwidthHz,
                       "band edges must be in [1000, \(formatNumber(nyquist))) Hz (below half the corpus rate)")
        }
        try validateRateAndQuantileModes()
        if targetBandwidth != nil && !enabledDegradationStages.contains(.bandwidth) { throw fail("target-bandwidth",
                targetBandwidth!.rawValue, "has no effect without --bandwidth-hz") }
        if let codecs, codecs.isEmpty { throw fail("codec", "",
                                                   "name at least one of \(AudioCodec.allCases.map(\.rawValue).joined(separator: ","))") }
        let codecSettings: [(String, ValueSpec?, AudioCodec, ClosedRange<Double>)] = [
            ("mp3-bitrate-kbps", mp3BitrateKbps, .mp3, 8...320), ("opus-bitrate-kbps", opusBitrateKbps, .opus,
                                                                  AudioCodec.opusBitrateRangeKbps),
            ("vorbis-quality", vorbisQuality, .vorbis, 0...1),
        ]
        for (name, spec, codec, range) in codecSettings {
            guard let spec else { continue }
            guard range.contains(spec.bounds.lowerBound) && range.contains(spec.bounds.upperBound) else {
                throw fail(name, spec, "must be within \(formatNumber(range.lowerBound)):\(formatNumber(range.upperBound))")
            }
            guard codecs?.contains(codec) == true else { throw fail(name, spec, "has no effect without \(codec.rawValue) in --codec") }
        }
        if let opusComplexity {
            let range = AudioCodec.opusComplexityRange
            guard range.contains(opusComplexity.low) && range.contains(opusComplexity.high) else {
                throw fail("opus-complexity", opusComplexity, "must be whole numbers within \(range.lowerBound):\(range.upperBound)")
            }
            guard codecs?.contains(.opus) == true else { throw fail("opus-complexity", opusComplexity,
                                                                    "has no effect without opus in --codec") }
        }
        if let packetLoss, packetLoss.bounds.lowerBound < 0 || packetLoss.bounds.upperBound > 1 {
            throw fail("packet-loss", packetLoss, "loss rates must be in [0, 1]")
        }
        if let packetMs {
            guard packetMs > 0 && packetMs <= 1000 else { throw fail("packet-ms", packetMs, "must be in (0, 1000] ms") }
            guard Int((packetMs * Double(sampleRate) / 1000).rounded()) >= 1 else { throw fail("packet-ms", packetMs,
                                                                                               "is shorter than one sample") }
        }
        if let maxBurstPackets, maxBurstPackets < 1 { throw fail("max-burst-packets", maxBurstPackets, "must be at least 1") }
        if packetLoss == nil {
            if let packetMs { throw fail("packet-ms", packetMs, "has no effect without --packet-loss") }
            if let maxBurstPackets { throw fail("max-burst-packets", maxBurstPackets, "has no effect without --packet-loss") }
            if let concealment { throw fail("concealment", concealment.rawValue, "has no effect without --packet-loss") }
        }
        if let clipDistortion, clipDistortion.bounds.lowerBound <= 0 || clipDistortion.bounds.upperBound >= 1 {
            throw fail("clip-distortion", clipDistortion, "thresholds are fractions of the peak, in (0, 1)")
        }
        if let degradationsPerClip {
            let enabled = enabledDegradationStages.count
            guard enabled > 0 else {
                throw fail("degradations-per-clip", degradationsPerClip,
                           "no degradation stage is enabled (--bandwidth-hz, --codec, --packet-loss, --clip-distortion)")
            }
            if let most = degradationsPerClip.entries.map(\.count).max(), most > enabled {
                throw fail("degradations-per-clip", degradationsPerClip,
                           "asks for \(most) degradations but only \(enabled) stage\(enabled == 1 ? " is" : "s are") enabled")
            }
        }
    }

    /// The flag that turns `stage` on.
    static func enablingFlag(_ stage: Degradation.Stage) -> String {
        switch stage {
        case .bandwidth: "bandwidth-hz or --bandwidth-rates"
        case .codec: "codec"
        case .packetLoss: "packet-loss"
        case .clipDistortion: "clip-distortion or --clip-quantiles"
        }
    }
}

/// How many degradation stages a clip gets: counts with their probabilities
/// (`--degradations-per-clip 0:0.25,1:0.4,2:0.2,3:0.15`).
public struct DegradationCounts: Sendable, Codable, Equatable, CustomStringConvertible {
    public struct Entry: Sendable, Codable, Equatable {
        public var count: Int
        public var probability: Double
    }
    /// In the order given.
    public var entries: [Entry]

    /// Parses `COUNT:PROBABILITY,...`; the probabilities must sum to 1 (within 1e-6).
    /// - Throws: ``MixError/invalidOption(name:value:reason:)`` naming `degradations-per-clip`.
    public init(parsing text: String) throws {
        let name = "degradations-per-clip"
        var entries: [Entry] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let fields = part.split(separator: ":", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count == 2, let count = Int(fields[0]), let probability = Double(fields[1]) else {
                throw MixError.invalidOption(name: name, value: text,
                        reason: "expected COUNT:PROBABILITY pairs, e.g. 0:0.25,1:0.4,2:0.2,3:0.15; '\(part)' is not one")
            }
            guard count >= 0 else { throw MixError.invalidOption(name: name, value: text, reason: "count \(count) is negative") }
            guard probability >= 0 && probability <= 1 else {
                throw MixError.invalidOption(name: name, value: text, reason: "probability \(fields[1]) is not in [0, 1]")
            }
            guard !entries.contains(where: { $0.count == count }) else {
                throw MixError.invalidOption(name: name, value: text, reason: "count \(count) is given twice")
            }
            entries.append(Entry(count: count, probability: probability))
        }
        let total = entries.map(\.probability).reduce(0, +)
        guard abs(total - 1) <= 1e-6 else {
            throw MixError.invalidOption(name: name, value: text, reason: "probabilities sum to \(formatNumber(total)), not 1")
        }
        self.entries = entries
    }

    /// Draws a count: one uniform draw against the cumulative probabilities, in the order given.
    public func draw(using generator: inout some RandomNumberGenerator) -> Int {
        let u = generator.nextUnitInterval()
        var cumulative = 0.0
        for entry in entries {
            cumulative += entry.probability
            if u < cumulative { return entry.count }
        }
        return entries.last { $0.probability > 0 }!.count
    }

    public var description: String {
        entries.map { "\($0.count):\(formatNumber($0.probability))" }.joined(separator: ",")
    }
}
