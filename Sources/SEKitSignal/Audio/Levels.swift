import Foundation

/// Level measurements of a signal, in Double. `dBFS` values are `10·log10(mean square)` for RMS
/// (so a full-scale square wave is 0 dBFS and a full-scale sine −3.01 dBFS) and `20·log10(peak)`
/// for peaks; silence gives −inf.
public enum Levels {
    /// Largest absolute sample.
    public static func peak(_ x: [Float]) -> Double {
        var m: Float = 0
        x.withUnsafeBufferPointer { accumulatePeak($0, into: &m) }
        return Double(m)
    }

    /// Mean square (power), computed in Double with four accumulators: the exact measure, for
    /// every recorded figure (``meanSquareChunked(_:)`` is the mixer's faster one for its gains).
    public static func meanSquare(_ x: [Float]) -> Double {
        guard !x.isEmpty else { return 0 }
        var lanes = SquareLanes()
        x.withUnsafeBufferPointer { accumulateSquares($0, into: &lanes) }
        return lanes.total / Double(x.count)
    }

    // MARK: Running accumulations
    // The whole-signal measures above and ``LevelAccumulator`` (block by block) share these, so a
    // long file measured in blocks gives the same bits as the whole signal.

    /// Σx² in four Double lanes by sample index modulo 4 (a block that does not hold a multiple
    /// of 4 samples must be the last one).
    struct SquareLanes {
        var a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0
        var total: Double { a0 + a1 + a2 + a3 }
    }

    static func accumulateSquares(_ p: UnsafeBufferPointer<Float>, into lanes: inout SquareLanes) {
        var i = 0
        while i + 4 <= p.count {
            let v0 = Double(p[i]), v1 = Double(p[i + 1]), v2 = Double(p[i + 2]), v3 = Double(p[i + 3])
            lanes.a0 += v0 * v0; lanes.a1 += v1 * v1; lanes.a2 += v2 * v2; lanes.a3 += v3 * v3
            i += 4
        }
        while i < p.count { let v = Double(p[i]); lanes.a0 += v * v; i += 1 }
    }

    static func accumulatePeak(_ p: UnsafeBufferPointer<Float>, into m: inout Float) {
        for v in p { m = max(m, abs(v)) }
    }

    /// Σx in sample order, continuing `sum`.
    static func accumulateSum(_ p: UnsafeBufferPointer<Float>, into sum: inout Double) {
        for v in p { sum += Double(v) }
    }

    /// Samples with |x| ≥ `threshold`.
    package static func count(atOrAbove threshold: Float, in p: UnsafeBufferPointer<Float>) -> Int {
        var n = 0
        for v in p where abs(v) >= threshold { n += 1 }
        return n
    }

    /// Peak level, dBFS.
    public static func peakDBFS(_ x: [Float]) -> Double { 20 * log10(peak(x)) }

    /// Mean square (power), fast: eight Float lanes summed per 256-sample chunk, chunks summed in
    /// Double; within about 1e-6 relative of ``meanSquare(_:)``, not the same bits. The mixer's
    /// gains use it (mixed corpora are pinned byte for byte to it); recorded figures and
    /// everything else use ``meanSquare(_:)``.
    public static func meanSquareChunked(_ x: [Float]) -> Double {
        guard !x.isEmpty else { return 0 }
        return x.withUnsafeBufferPointer { p in
            let raw = UnsafeRawPointer(p.baseAddress!), blocks = p.count / 8
            let chunkBlocks = 32  // 256 samples in Float lanes before the sum moves to Double
            var total = 0.0, j = 0
            while j < blocks {
                var acc = SIMD8<Float>()
                for k in j..<min(blocks, j + chunkBlocks) {
                    let v = raw.loadUnaligned(fromByteOffset: 32 * k, as: SIMD8<Float>.self)
                    acc += v * v
                }
                total += Double(acc.sum())
                j += chunkBlocks
            }
            for i in (blocks * 8)..<p.count { total += Double(p[i]) * Double(p[i]) }
            return total / Double(p.count)
        }
    }

    /// RMS level, dBFS (`10·log10(mean square)`).
    public static func rmsDBFS(_ x: [Float]) -> Double { 10 * log10(meanSquare(x)) }

    /// DC offset: the mean sample value.
    public static func dcOffset(_ x: [Float]) -> Double {
        guard !x.isEmpty else { return 0 }
        var s = 0.0
        x.withUnsafeBufferPointer { accumulateSum($0, into: &s) }
        return s / Double(x.count)
    }

    /// Fraction of samples at or beyond `threshold` in magnitude (default 0.999, i.e. within
    /// 0.01 dB of full scale: what a clipped recording or a clipped mix shows).
    public static func clippedRatio(_ x: [Float], threshold: Float = 0.999) -> Double {
        guard !x.isEmpty else { return 0 }
        return Double(x.withUnsafeBufferPointer { count(atOrAbove: threshold, in: $0) }) / Double(x.count)
    }

    /// EBU R128 integrated loudness, LUFS (libebur128, BS.1770-4 gating). −inf when silent.
    /// - Throws: ``AudioError/invalidParameter(name:value:reason:)`` for a rate libebur128 refuses.
    public static func loudnessLUFS(_ x: [Double], sampleRate: Int) throws -> Double {
        try x.withUnsafeBufferPointer { try Ebur128Meter.integratedLoudness($0, sampleRate: sampleRate) }
    }

    /// EBU R128 integrated loudness of a Float signal, LUFS (widened to Double in libebur128's
    /// own blocks: the same calls, and value, as for the whole signal in Double).
    public static func loudnessLUFS(_ x: [Float], sampleRate: Int) throws -> Double {
        let session = try Ebur128Meter.Session(sampleRate: sampleRate)
        try SampleConversion.forEachDoubleBlock(x, blockLength: Ebur128Meter.Session.blockFrames) { (block) throws(AudioError) in
            try session.add(block)
        }
        return try session.loudness()
    }
}
