import Foundation

extension MixSettings {
    /// Reads the degradation settings (``MixOptions`` degradation fields) from named values.
    /// - Throws: ``MixError/invalidOption(name:value:reason:)`` naming the key.
    static func parseDegradations(_ values: Values, into options: inout MixOptions) throws {
        func spec(_ key: String) throws -> ValueSpec? { try values.spec(key) }
        func number(_ key: String) throws -> Double? { try values.number(key) }
        func integer(_ key: String) throws -> Int? { try values.integer(key) }
        func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws -> T? where T.RawValue == String {
            try values.choice(key, type)
        }
        func text(_ key: String) -> String? { values.one(key) }
        options.bandwidthHz = try spec("bandwidth-hz")
        if let list = text("bandwidth-rates") {
            options.bandwidthRates = try list.split(separator: ",", omittingEmptySubsequences: false).map { part in
                guard let rate = Int(part.trimmingCharacters(in: .whitespaces)) else {
                    throw MixError.invalidOption(name: "bandwidth-rates", value: list, reason: "'\(part)' is not a whole number of Hz")
                }
                return rate
            }
        }
        options.bandwidthProbability = try number("bandwidth-probability")
        options.targetBandwidth = try choice("target-bandwidth", MixOptions.TargetBandwidth.self)
        if let list = text("codec") {
            var codecs: [AudioCodec] = []
            for name in list.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
                guard let codec = AudioCodec(rawValue: name) else {
                    throw MixError.invalidOption(name: "codec", value: list,
                        reason: "unknown codec '\(name)'; expected some of \(AudioCodec.allCases.map(\.rawValue).joined(separator: ","))")
                }
                if !codecs.contains(codec) { codecs.append(codec) }
            }
            options.codecs = codecs
        }
        options.codecProbability = try number("codec-probability")
        options.mp3BitrateKbps = try spec("mp3-bitrate-kbps")
        options.opusBitrateKbps = try spec("opus-bitrate-kbps")
        options.opusComplexity = try text("opus-complexity").map { try CountRange(parsing: $0, option: "opus-complexity") }
        options.vorbisQuality = try spec("vorbis-quality")
        options.packetLoss = try spec("packet-loss")
        options.packetLossProbability = try number("packet-loss-probability")
        options.packetMs = try number("packet-ms")
        options.maxBurstPackets = try integer("max-burst-packets")
        options.concealment = try choice("concealment", MixOptions.Concealment.self)
        options.clipDistortion = try spec("clip-distortion")
        options.clipQuantiles = try text("clip-quantiles").map { try ClipQuantiles(parsing: $0) }
        options.clipDistortionProbability = try number("clip-distortion-probability")
        options.degradationsPerClip = try degradationCounts(values)
        options.silencedClips = try choice("silenced-clips", MixOptions.SilencedClips.self)
    }

    /// `degradations-per-clip` as COUNT:PROBABILITY pairs, or as a range `LOW:HIGH` with
    /// `degradations-per-clip-weights` (one weight per count).
    static func degradationCounts(_ values: Values) throws -> DegradationCounts? {
        let weights = values.one("degradations-per-clip-weights")
        guard let text = values.one("degradations-per-clip") else {
            guard let weights else { return nil }
            throw MixError.invalidOption(name: "degradations-per-clip-weights", value: weights,
                                         reason: "has no effect without --degradations-per-clip LOW:HIGH")
        }
        if let weights { return try DegradationCounts(range: text, weights: weights) }
        do { return try DegradationCounts(parsing: text) } catch {
            // `0:3` reads as count 0 with probability 3: say how a range is given.
            if (try? CountRange(parsing: text, option: "degradations-per-clip")) != nil {
                throw MixError.invalidOption(name: "degradations-per-clip", value: text,
                    reason: "a range of counts needs --degradations-per-clip-weights (one weight per count, summing to 1)")
            }
            throw error
        }
    }
}
