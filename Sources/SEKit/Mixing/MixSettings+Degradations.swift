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
        options.bandwidthProbability = try number("bandwidth-probability")
        options.targetBandwidth = try choice("target-bandwidth", MixOptions.TargetBandwidth.self)
        if let list = text("codec") {
            var codecs: [AudioCodec] = []
            for name in list.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingCharacters(in: .whitespaces) }) {
                guard let codec = AudioCodec(rawValue: name) else {
                    throw MixError.invalidOption(name: "codec", value: list, reason: "unknown codec '\(name)'; expected some of \(AudioCodec.allCases.map(\.rawValue).joined(separator: ","))")
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
        options.clipDistortionProbability = try number("clip-distortion-probability")
        options.degradationsPerClip = try text("degradations-per-clip").map { try DegradationCounts(parsing: $0) }
        options.silencedClips = try choice("silenced-clips", MixOptions.SilencedClips.self)
    }
}
