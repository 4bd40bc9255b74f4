import Foundation

/// Signal helpers used while rendering a clip (pure functions). Clips are rendered in Float,
/// as the sources are decoded, with gains and measurements in Double.
enum MixSignals {
    /// Samples summed in Float lanes before the partial sums move to Double (keeps the relative
    /// error of a power below about 1e-6, far below what a dB figure shows).
    static let chunk = 256

    /// Peak |a + k·b| and Σ(a + k·b)² of two equally long signals, without forming the sum.
    static func peakAndEnergy(ofSum a: [Float], _ b: [Float], scaledBy k: Float) -> (peak: Double, energy: Double) {
        precondition(a.count == b.count, "peakAndEnergy: lengths differ")
        return a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in
                guard let xb = x.baseAddress, let yb = y.baseAddress else { return (0, 0) }
                let rx = UnsafeRawPointer(xb), ry = UnsafeRawPointer(yb), blocks = x.count / 8
                var peak = SIMD8<Float>(), total = 0.0, j = 0
                while j < blocks {
                    var acc = SIMD8<Float>()
                    for i in j..<min(blocks, j + chunk / 8) {
                        let v = rx.loadUnaligned(fromByteOffset: 32 * i, as: SIMD8<Float>.self)
                            + k * ry.loadUnaligned(fromByteOffset: 32 * i, as: SIMD8<Float>.self)
                        let magnitude = v.replacing(with: -v, where: v .< 0)
                        peak = peak.replacing(with: magnitude, where: magnitude .> peak)
                        acc += v * v
                    }
                    total += Double(acc.sum())
                    j += chunk / 8
                }
                var top = peak.max()
                for i in (blocks * 8)..<x.count {
                    let v = x[i] + k * y[i]
                    top = max(top, abs(v)); total += Double(v) * Double(v)
                }
                return (Double(top), total)
            }
        }
    }

    /// `length` samples of `x` from `offset` on, looping `x` when it is shorter than needed;
    /// each wrap joins the end to the start with a linear crossfade of `crossfade` samples. The
    /// loop period (`x` without its last `fade` samples, its first `fade` blended with them) is
    /// never formed: only its crossfaded head is, and the rest is copied from `x`.
    static func loopedSegment(_ x: [Float], offset: Int, length: Int, crossfade: Int) -> [Float] {
        let n = x.count
        guard n > 0 else { return [Float](repeating: 0, count: length) }
        if offset == 0 && length == n { return x }
        if offset + length <= n { return Array(x[offset..<(offset + length)]) }
        // One loop period with a crossfaded seam: the last `fade` samples blend into the first.
        let fade = min(crossfade, n / 2)
        let head = (0..<fade).map { j -> Float in
            let w = Double(j + 1) / Double(fade + 1)
            // Start of the period fades in while the file's tail fades out.
            return Float(w * Double(x[j]) + (1 - w) * Double(x[n - fade + j]))
        }
        let p = n - fade
        return [Float](unsafeUninitializedCapacity: length) { out, count in
            x.withUnsafeBufferPointer { x in
                head.withUnsafeBufferPointer { head in
                    var filled = 0, position = offset % p
                    while filled < length {
                        let take = min(p - position, length - filled)
                        let fromHead = max(0, min(fade, position + take) - position)
                        if fromHead > 0 { out.baseAddress!.advanced(by: filled).initialize(from: head.baseAddress! + position,
                                                                                           count: fromHead) }
                        out.baseAddress!.advanced(by: filled + fromHead)
                            .initialize(from: x.baseAddress! + position + fromHead, count: take - fromHead)
                        filled += take
                        position = 0
                    }
                }
            }
            count = length
        }
    }

}

extension MixSignals {
    /// `length` samples of the full convolution `x * h` (computed in Double), starting at `start`
    /// (the RIR's direct-path index), so the reverberant output lines up with the dry input.
    /// Computed a block at a time (`Convolution.fftSegment(_:_:start:length:)`): no whole signal in Double.
    static func convolveAligned(_ x: [Float], _ h: [Float], start: Int, length: Int) -> [Float] {
        Convolution.fftSegment(x, h, start: start, length: length)
    }

    /// Fourth-order Butterworth-like low-pass (two RBJ biquads, Q 0.5412 and 1.3066) at `cutoffHz`,
    /// filtered in Double.
    /// A block of samples at a time goes through both sections (each keeps its state from block
    /// to block), so no whole signal exists in Double: the values of filtering the whole signal
    /// by the first section, then by the second.
    static func lowpass(_ x: [Float], cutoffHz: Double, sampleRate: Int) -> [Float] {
        guard var first = try? BiquadFilter(.lowPass, frequencyHz: cutoffHz, q: 0.541_196_100_146_197, sampleRate: sampleRate),
              var second = try? BiquadFilter(.lowPass, frequencyHz: cutoffHz, q: 1.306_562_964_876_377, sampleRate: sampleRate)
        else { return x }
        let blockLength = 1 << 16
        var block = [Double](repeating: 0, count: min(blockLength, x.count))
        return [Float](unsafeUninitializedCapacity: x.count) { out, count in
            x.withUnsafeBufferPointer { x in
                var start = 0
                while start < x.count {
                    let take = min(blockLength, x.count - start)
                    if take < block.count { block.removeLast(block.count - take) }
                    block.withUnsafeMutableBufferPointer { b in for i in 0..<take { b[i] = Double(x[start + i]) } }
                    first.process(&block)
                    second.process(&block)
                    block.withUnsafeBufferPointer { b in for i in 0..<take { out[start + i] = Float(b[i]) } }
                    start += take
                }
            }
            count = x.count
        }
    }

    /// P.56 active speech power (linear).
    static func activePower(_ x: [Float], sampleRate: Int) throws -> Double {
        try ActiveSpeechLevel.measure(x, sampleRate: sampleRate).activePower
    }

    /// Integrated loudness, LUFS.
    static func loudnessLUFS(_ x: [Float], sampleRate: Int) throws -> Double {
        try Levels.loudnessLUFS(x, sampleRate: sampleRate)
    }
}

extension MixSignals {
    /// Σ gains[k]·stems[k] (equally long stems), in Float.
    static func weightedSum(_ stems: [[Float]], gains: [Double]) -> [Float] {
        guard let length = stems.first?.count else { return [] }
        var sum = [Float](repeating: 0, count: length)
        sum.withUnsafeMutableBufferPointer { out in
            for (stem, gain) in zip(stems, gains) {
                let g = Float(gain)
                stem.withUnsafeBufferPointer { x in for i in 0..<length { out[i] += g * x[i] } }
            }
        }
        return sum
    }
}

extension MixSignals {
    /// x[i]·k for every sample.
    static func scaled(_ x: [Float], by k: Float) -> [Float] {
        [Float](unsafeUninitializedCapacity: x.count) { out, count in
            x.withUnsafeBufferPointer { p in for i in 0..<p.count { out[i] = p[i] * k } }
            count = x.count
        }
    }

    /// a[i] + b[i] for every sample (equally long), and how many sums are at or beyond full scale (|v| ≥ 1).
    static func sumCountingFullScale(_ a: [Float], _ b: [Float]) -> (sum: [Float], fullScale: Int) {
        precondition(a.count == b.count, "sumCountingFullScale: lengths differ")
        var fullScale = 0
        let sum = [Float](unsafeUninitializedCapacity: a.count) { out, count in
            a.withUnsafeBufferPointer { x in
                b.withUnsafeBufferPointer { y in
                    for i in 0..<x.count {
                        let v = x[i] + y[i]
                        out[i] = v
                        fullScale &+= abs(v) >= 1 ? 1 : 0
                    }
                }
            }
            count = a.count
        }
        return (sum, fullScale)
    }
}
