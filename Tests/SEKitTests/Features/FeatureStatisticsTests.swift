import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

@Suite struct FeatureStatisticsTests {
    /// `frames × bins` values `offset + scale × N(0,1)`-ish (sum of uniforms), deterministic.
    static func values(frames: Int, bins: Int, offset: Float, scale: Float, seed: UInt64) -> [Float] {
        var generator = SplitMix64(seed: seed)
        return (0..<frames * bins).map { index in
            let noise = (0..<4).map { _ in Float.random(in: -1...1, using: &generator) }.reduce(0, +)
            return offset + Float(index % bins) + scale * noise
        }
    }

    /// numpy's float64 mean and std along frames of the same float32 values.
    static func numpyMeanStd(_ values: [Float], bins: Int, folder: TemporaryFolder) throws -> (mean: [Double], std: [Double]) {
        try PythonReference.writeRaw(values, to: folder.file("x.f32"))
        try PythonReference.run("""
        import numpy as np, sys
        x = np.fromfile(sys.argv[1], '<f4').astype(np.float64).reshape(-1, int(sys.argv[2]))
        np.concatenate([x.mean(axis=0), x.std(axis=0)]).tofile(sys.argv[3])
        """, arguments: [folder.file("x.f32").path, String(bins), folder.file("out.f64").path])
        let result = try PythonReference.readRawDoubles(folder.file("out.f64"))
        return (Array(result[..<bins]), Array(result[bins...]))
    }

    static func maxRelativeError(_ a: [Double], _ b: [Double]) -> Double {
        zip(a, b).map { abs($0 - $1) / max(abs($1), 1e-300) }.max() ?? .infinity
    }

    @Test(.enabled(if: PythonReference.available, "run through scripts/test.sh"),
          arguments: [(Float(0), Float(1)), (Float(1e6), Float(1)), (Float(-3e4), Float(0.01))])
    func matchesNumpyInBatchesAndMerges(offset: Float, scale: Float) throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let bins = 7, frames = 5000
        let values = Self.values(frames: frames, bins: bins, offset: offset, scale: scale, seed: 42)
        let reference = try Self.numpyMeanStd(values, bins: bins, folder: folder)

        // One pass in uneven batches (clip-sized), as the writer sees them.
        var whole = FeatureStatistics(bins: bins)
        var start = 0, batch = 1
        while start < frames {
            let end = min(start + batch, frames)
            try whole.add(frames: Array(values[start * bins..<end * bins]))
            start = end
            batch = batch * 3 % 977 + 1
        }
        #expect(whole.count == frames)
        #expect(Self.maxRelativeError(whole.mean, reference.mean) < 1e-12)
        #expect(Self.maxRelativeError(whole.standardDeviation, reference.std) < 1e-9)

        // Three workers over interleaved shares, merged: the same statistics.
        var workers = [FeatureStatistics](repeating: FeatureStatistics(bins: bins), count: 3)
        for frame in stride(from: 0, to: frames, by: 50) {
            let end = min(frame + 50, frames)
            try workers[(frame / 50) % 3].add(frames: Array(values[frame * bins..<end * bins]))
        }
        var merged = FeatureStatistics(bins: bins)
        for worker in workers.reversed() { try merged.merge(worker) }
        #expect(merged.count == frames)
        #expect(Self.maxRelativeError(merged.mean, reference.mean) < 1e-12)
        #expect(Self.maxRelativeError(merged.standardDeviation, reference.std) < 1e-9)

        if offset >= 1e6 {
            // The data set is hard: the textbook one-pass formula E[x²] − E[x]² in Float is far off.
            var sum = [Float](repeating: 0, count: bins), sumSquares = [Float](repeating: 0, count: bins)
            for (index, value) in values.enumerated() {
                sum[index % bins] += value
                sumSquares[index % bins] += value * value
            }
            let naive = (0..<bins).map { bin -> Double in
                let mean = sum[bin] / Float(frames)
                return Double(max(sumSquares[bin] / Float(frames) - mean * mean, 0)).squareRoot()
            }
            #expect(Self.maxRelativeError(naive, reference.std) > 0.1)
        }
    }

    @Test func edgeCases() throws {
        var statistics = FeatureStatistics(bins: 3)
        #expect(statistics.standardDeviation == [0, 0, 0])
        try statistics.add(frames: [])
        #expect(statistics.count == 0)
        #expect(throws: FeatureFileError.invalidParameter(name: "frames", value: "4 values",
                                                          reason: "not a whole number of 3-bin frames")) {
            try statistics.add(frames: [1, 2, 3, 4])
        }
        try statistics.add(frames: [1, 2, 3])
        #expect(statistics.mean == [1, 2, 3])
        #expect(statistics.standardDeviation == [0, 0, 0])
        try statistics.add(frames: [3, 2, 7])
        #expect(statistics.mean == [2, 2, 5])
        #expect(statistics.standardDeviation == [1, 0, 2])
        #expect(throws: FeatureFileError.self) { try statistics.merge(FeatureStatistics(bins: 2)) }
        var empty = FeatureStatistics(bins: 3)
        try empty.merge(statistics)
        #expect(empty == statistics)

        // float16: statistics of the rounded values (2049 rounds to 2048 in float16).
        var half = FeatureStatistics(bins: 1)
        try half.add(frames: [2049, 2049], dtype: .float16)
        #expect(half.mean == [2048])
    }
}
