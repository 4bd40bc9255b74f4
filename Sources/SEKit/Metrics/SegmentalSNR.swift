import Foundation

/// Segmental SNR as computed by `comp_snr.m` in Loizou, "Speech Enhancement: Theory and
/// Practice" (2nd ed., 2013), the reference of the fixtures' `results.mat`.
public enum SegmentalSNR {
    /// Frame length, ms (30 ms).
    static let frameMilliseconds = 30.0
    /// Per-frame clamp, dB.
    static let minimumDB = -10.0, maximumDB = 35.0

    /// Mean over frames of `10·log10(Σ(w·s)² / (Σ(w·(s − ŝ))² + eps) + eps)`, each clamped to
    /// [−10, 35] dB. Frames are `round(0.03·fs)` samples with hop `floor(len/4)` (75% overlap),
    /// windowed by MATLAB's `hanning(len)` (0.5·(1 − cos(2πn/(len+1))), n = 1...len); the frame
    /// count is `floor(N/hop − len/hop)`, as in comp_snr.m; eps is 2.220446049250313e-16 (MATLAB eps).
    /// - Throws: ``MetricError`` for length mismatch, non-finite input, or fewer than one frame.
    public static func compute(reference s: [Double], processed y: [Double], sampleRate: Int) throws -> Double {
        try MetricError.checkPair(s, y)
        let length = Int((frameMilliseconds * Double(sampleRate) / 1000).rounded())
        let hop = length / 4
        let frames = Int((Double(s.count) / Double(hop) - Double(length) / Double(hop)).rounded(.down))
        guard frames >= 1, hop > 0 else {
            throw MetricError.tooShort(metric: "segsnr", samples: s.count, reason: "needs at least one \(length)-sample frame")
        }
        let eps = Double.ulpOfOne
        let window = (1...length).map { 0.5 * (1 - cos(2 * Double.pi * Double($0) / Double(length + 1))) }
        var total = 0.0
        s.withUnsafeBufferPointer { s in
            y.withUnsafeBufferPointer { y in
                window.withUnsafeBufferPointer { w in
                    let pairs = length / 2
                    @inline(__always) func pair(_ p: UnsafeBufferPointer<Double>, _ i: Int) -> SIMD2<Double> {
                        UnsafeRawPointer(p.baseAddress! + i).loadUnaligned(as: SIMD2<Double>.self)
                    }
                    for f in 0..<frames {
                        let start = f * hop
                        var signal2 = SIMD2<Double>(), noise2 = SIMD2<Double>()
                        for k in 0..<pairs {
                            let i = 2 * k
                            let c = pair(s, start + i) * pair(w, i)
                            let e = c - pair(y, start + i) * pair(w, i)
                            signal2 += c * c; noise2 += e * e
                        }
                        var signal = signal2.sum(), noise = noise2.sum()
                        for i in (2 * pairs)..<length {
                            let c = s[start + i] * w[i]
                            let e = c - y[start + i] * w[i]
                            signal += c * c; noise += e * e
                        }
                        let value = 10 * log10(signal / (noise + eps) + eps)
                        total += min(max(value, minimumDB), maximumDB)
                    }
                }
            }
        }
        return total / Double(frames)
    }
}
