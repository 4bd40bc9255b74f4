import Foundation
@testable import SEKit
@testable import SEKitSignal

/// Synthetic clips for feature-file tests: deterministic pseudo-random values per stream.
enum FeatureFileSample {
    static let metadata = FeatureFileMetadata(sampleRate: 16000, frameConvention: "center: 1 + num_samples // hop_length",
                                              mixRunID: "mix-run-1", featuresRunID: "features-run-1")
    static let attributes: [String: AttributeValue] = [
        "n_fft": 16, "win_length": 16, "hop_length": 8, "window": "hann", "center": 1, "feature": "magnitude", "exponent": 0.3,
    ]
    static let streams = [StreamSpec("noisy", bins: 9), StreamSpec("clean", bins: 9), StreamSpec("irm", bins: 9)]

    struct Clip {
        let clipID: String
        let split: String
        let snrDB: Double?
        let frames: [String: [Float]]
        var numFrames: Int { frames["noisy"]!.count / 9 }
    }

    /// `count` clips with 3...40 frames each, values in [0, 2) (irm in [0, 1)), ids `clip-000`...
    static func clips(count: Int, seed: UInt64 = 7) -> [Clip] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { index in
            let frames = Int.random(in: 3...40, using: &generator)
            var streams: [String: [Float]] = [:]
            for stream in Self.streams {
                let scale: Float = stream.name == "irm" ? 1 : 2
                streams[stream.name] = (0..<frames * stream.bins).map { _ in Float.random(in: 0..<scale, using: &generator) }
            }
            return Clip(clipID: String(format: "clip-%03d", index), split: index % 4 == 3 ? "valid" : "train",
                        snrDB: index == 1 ? nil : Double(index) - 5.5, frames: streams)
        }
    }

    /// Writes `clips` to `url`; returns the statistics of every stream over the train split.
    @discardableResult
    static func write(_ clips: [Clip], to url: URL, dtype: FeatureDType = .float32, compression: FeatureCompression = .none,
                      chunkFrames: Int? = nil, overwrite: Bool = false) throws -> [String: FeatureStatistics] {
        let writer = try FeatureFileWriter(url: url, streams: streams, dtype: dtype, compression: compression, metadata: metadata,
                                           attributes: attributes, chunkFrames: chunkFrames, overwrite: overwrite)
        var statistics = Dictionary(uniqueKeysWithValues: streams.map { ($0.name, FeatureStatistics(bins: $0.bins)) })
        for clip in clips {
            try writer.append(clipID: clip.clipID, split: clip.split, snrDB: clip.snrDB, frames: clip.frames)
            if clip.split == "train" {
                for stream in streams { try statistics[stream.name]!.add(frames: clip.frames[stream.name]!, dtype: dtype) }
            }
        }
        try writer.finish(statistics: statistics)
        return statistics
    }
}
