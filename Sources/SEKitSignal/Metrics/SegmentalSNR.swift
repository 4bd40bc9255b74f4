import Foundation

/// Segmental SNR as computed by `comp_snr.m` in Loizou, "Speech Enhancement: Theory and
/// Practice" (2nd ed., 2013), the reference of the fixtures' `results.mat`.
public enum SegmentalSNR {
    /// Frame length, ms (30 ms).
    static let frameMilliseconds = 30.0
    /// Per-frame clamp, dB.
    static let minimumDB = -10.0, maximumDB = 35.0

    /// segSNR of a comparison, computed once per comparison (shared by `segsnr` and the composite).
    package static func compute(_ comparison: MetricComparison) throws -> Double {
        try comparison.analysis("segsnr") {
            try compute(reference: comparison.reference.samples, processed: comparison.processed, sampleRate: comparison.sampleRate)
        }
    }

    /// Mean over frames of `10·log10(Σ(w·s)² / (Σ(w·(s − ŝ))² + eps) + eps)`, each clamped to
    /// [−10, 35] dB. Frames are `round(0.03·fs)` samples with hop `floor(len/4)` (75% overlap),
    /// windowed by MATLAB's `hanning(len)` (0.5·(1 − cos(2πn/(len+1))), n = 1...len); the frame
    /// count is `floor(N/hop − len/hop)`, as in comp_snr.m; eps is 2.220446049250313e-16 (MATLAB eps).
    /// - Throws: ``MetricError`` for length mismatch, non-finite input, or fewer than one frame.
    @_specialize(exported: true, where T == Float)
    @_specialize(exported: true, where T == Double)
    public static func compute<T: MetricSample>(reference s: [T], processed y: [T], sampleRate: Int) throws -> Double {
        try MetricError.checkPair(s, y)
        let length = Int((frameMilliseconds * Double(sampleRate) / 1000).rounded())
        let hop = length / 4
        let frames = Int((Double(s.count) / Double(hop) - Double(length) / Double(hop)).rounded(.down))
        guard frames >= 1, hop > 0 else {
            throw MetricError.tooShort(metric: "segsnr", samples: s.count, reason: "needs at least one \(length)-sample frame")
        }
        let eps = Double.ulpOfOne
        let window = Window.matlabHanning(length: length)
        var total = 0.0
        s.withUnsafeBufferPointer { s in
            y.withUnsafeBufferPointer { y in
                window.withUnsafeBufferPointer { w in
                    let quads = length / 4
                    for f in 0..<frames {
                        let start = f * hop
                        // Four running sums of each energy (independent add chains).
                        var signal = SIMD4<Double>(), noise = SIMD4<Double>()
                        for k in 0..<quads {
                            let i = 4 * k
                            let c0 = s[start + i].double * w[i], c1 = s[start + i + 1].double * w[i + 1]
                            let c2 = s[start + i + 2].double * w[i + 2], c3 = s[start + i + 3].double * w[i + 3]
                            let e0 = c0 - y[start + i].double * w[i], e1 = c1 - y[start + i + 1].double * w[i + 1]
                            let e2 = c2 - y[start + i + 2].double * w[i + 2], e3 = c3 - y[start + i + 3].double * w[i + 3]
                            signal[0] += c0 * c0; signal[1] += c1 * c1; signal[2] += c2 * c2; signal[3] += c3 * c3
                            noise[0] += e0 * e0; noise[1] += e1 * e1; noise[2] += e2 * e2; noise[3] += e3 * e3
                        }
                        var signalEnergy = signal.sum(), noiseEnergy = noise.sum()
                        for i in (4 * quads)..<length {
                            let c = s[start + i].double * w[i]
                            let e = c - y[start + i].double * w[i]
                            signalEnergy += c * c; noiseEnergy += e * e
                        }
                        let value = 10 * log10(signalEnergy / (noiseEnergy + eps) + eps)
                        total += min(max(value, minimumDB), maximumDB)
                    }
                }
            }
        }
        return total / Double(frames)
    }
}
