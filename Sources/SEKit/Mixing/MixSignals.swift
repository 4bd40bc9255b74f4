import Foundation

/// Signal helpers used while rendering a clip (Double precision; pure functions).
enum MixSignals {
    /// Mean of squares (power), with four accumulators.
    static func meanSquare(_ x: [Double]) -> Double {
        guard !x.isEmpty else { return 0 }
        return x.withUnsafeBufferPointer { p in
            var a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0
            var i = 0
            while i + 4 <= p.count {
                a0 += p[i] * p[i]; a1 += p[i + 1] * p[i + 1]; a2 += p[i + 2] * p[i + 2]; a3 += p[i + 3] * p[i + 3]
                i += 4
            }
            while i < p.count { a0 += p[i] * p[i]; i += 1 }
            return (a0 + a1 + a2 + a3) / Double(p.count)
        }
    }


    /// Index of the direct path of a room impulse response: its largest absolute sample.
    static func directPathIndex(_ rir: [Double]) -> Int {
        var best = 0, bestValue = -1.0
        for (i, v) in rir.enumerated() where abs(v) > bestValue { best = i; bestValue = abs(v) }
        return best
    }

    /// `length` samples of `x` from `offset` on, looping `x` when it is shorter than needed;
    /// each wrap joins the end to the start with a linear crossfade of `crossfade` samples.
    static func loopedSegment(_ x: [Float], offset: Int, length: Int, crossfade: Int) -> [Double] {
        let n = x.count
        var out = [Double](repeating: 0, count: length)
        guard n > 0 else { return out }
        if offset + length <= n {
            for i in 0..<length { out[i] = Double(x[offset + i]) }
            return out
        }
        // Build one loop period with a crossfaded seam: the last `fade` samples blend into the first.
        let fade = min(crossfade, n / 2)
        var period = [Double](repeating: 0, count: n - fade)
        for i in 0..<(n - fade) { period[i] = Double(x[i]) }
        if fade > 0 {
            for j in 0..<fade {
                let w = Double(j + 1) / Double(fade + 1)
                // Start of the period fades in while the file's tail fades out.
                period[j] = w * Double(x[j]) + (1 - w) * Double(x[n - fade + j])
            }
        }
        let p = period.count
        var position = offset % p
        for i in 0..<length {
            out[i] = period[position]
            position += 1
            if position == p { position = 0 }
        }
        return out
    }

    /// Converts to Float with a scale (the float32 stems).
    static func toFloat(_ x: [Double], scale: Double) -> [Float] {
        [Float](unsafeUninitializedCapacity: x.count) { out, count in
            x.withUnsafeBufferPointer { p in
                for i in 0..<p.count { out[i] = Float(p[i] * scale) }
            }
            count = x.count
        }
    }

    /// Peak |a + b| and Σ(a + b)² of two equally long signals, without forming the sum
    /// (four independent accumulators, so the loop pipelines).
    static func peakAndEnergy(ofSum a: [Double], _ b: [Double]) -> (peak: Double, energy: Double) {
        precondition(a.count == b.count, "peakAndEnergy: lengths differ")
        return a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in
                var p0 = 0.0, p1 = 0.0, p2 = 0.0, p3 = 0.0, e0 = 0.0, e1 = 0.0, e2 = 0.0, e3 = 0.0
                var i = 0
                while i + 4 <= x.count {
                    let v0 = x[i] + y[i], v1 = x[i + 1] + y[i + 1], v2 = x[i + 2] + y[i + 2], v3 = x[i + 3] + y[i + 3]
                    p0 = max(p0, abs(v0)); p1 = max(p1, abs(v1)); p2 = max(p2, abs(v2)); p3 = max(p3, abs(v3))
                    e0 += v0 * v0; e1 += v1 * v1; e2 += v2 * v2; e3 += v3 * v3
                    i += 4
                }
                while i < x.count { let v = x[i] + y[i]; p0 = max(p0, abs(v)); e0 += v * v; i += 1 }
                return (max(max(p0, p1), max(p2, p3)), e0 + e1 + e2 + e3)
            }
        }
    }

    /// Mean square of float samples, accumulated in Double.
    static func meanSquare(_ x: [Float]) -> Double { Levels.meanSquare(x) }
}

extension MixSignals {
    /// `length` samples of the full convolution `x * h`, starting at `start` (the RIR's direct-path
    /// index), so the reverberant output lines up with the dry input.
    static func convolveAligned(_ x: [Double], _ h: [Double], start: Int, length: Int) -> [Double] {
        let full = Convolution.fft(x, h)
        return (0..<length).map { start + $0 < full.count ? full[start + $0] : 0 }
    }

    /// Fourth-order Butterworth-like low-pass (two RBJ biquads, Q 0.5412 and 1.3066) at `cutoffHz`.
    static func lowpass(_ x: [Double], cutoffHz: Double, sampleRate: Int) -> [Double] {
        var y = x
        for q in [0.541_196_100_146_197, 1.306_562_964_876_377] {
            guard var filter = try? BiquadFilter(.lowPass, frequencyHz: cutoffHz, q: q, sampleRate: sampleRate) else { return x }
            filter.process(&y)
        }
        return y
    }

    /// P.56 active speech power (linear).
    static func activePower(_ x: [Double], sampleRate: Int) throws -> Double {
        try x.withUnsafeBufferPointer { try ActiveSpeechLevel.measure($0, sampleRate: sampleRate).activePower }
    }

    /// Integrated loudness, LUFS.
    static func loudnessLUFS(_ x: [Double], sampleRate: Int) throws -> Double {
        try Levels.loudnessLUFS(x, sampleRate: sampleRate)
    }
}
