import Foundation

/// Energy-ratio metrics: SNR, SI-SDR, SI-SNR. Signals are Float or Double (``MetricSample``);
/// sums are taken in Double.
public enum SignalRatios {
    /// SNR in dB: `10·log10(Σ s² / Σ (s − ŝ)²)`. +inf when the signals are identical.
    /// - Throws: ``MetricError`` for length mismatch, non-finite input or a silent reference.
    @_specialize(exported: true, where T == Float)
    @_specialize(exported: true, where T == Double)
    public static func snr<T: MetricSample>(reference s: [T], processed y: [T]) throws -> Double {
        try MetricError.checkPair(s, y)
        var signal = 0.0, noise = 0.0
        s.withUnsafeBufferPointer { s in
            y.withUnsafeBufferPointer { y in
                for i in 0..<s.count { let si = s[i].double; signal += si * si; let e = si - y[i].double; noise += e * e }
            }
        }
        guard signal > 0 else { throw MetricError.silentReference(metric: "snr") }
        return 10 * log10(signal / noise)
    }

    /// Scale-invariant SDR (Le Roux, Wisdom, Erdogan & Hershey 2019, "SDR – half-baked or well
    /// done?", eq. 3), without mean removal: α = ⟨ŝ, s⟩ / ⟨s, s⟩, target = α·s,
    /// SI-SDR = 10·log10(‖target‖² / ‖ŝ − target‖²). No epsilon is added: a silent reference
    /// throws and a perfect estimate gives +inf.
    @_specialize(exported: true, where T == Float)
    @_specialize(exported: true, where T == Double)
    public static func siSDR<T: MetricSample>(reference s: [T], processed y: [T]) throws -> Double {
        try MetricError.checkPair(s, y)
        return try siSDR(s, y, referenceMean: 0, processedMean: 0, metric: "sisdr")
    }

    /// Scale-invariant SNR: SI-SDR of the zero-mean signals (each has its own mean removed),
    /// the convention of Conv-TasNet and asteroid's `SingleSrcNegSDR("sisdr", zero_mean=True)`.
    /// The centred signals are never formed: each sample is centred where it is used.
    @_specialize(exported: true, where T == Float)
    @_specialize(exported: true, where T == Double)
    public static func siSNR<T: MetricSample>(reference s: [T], processed y: [T]) throws -> Double {
        try MetricError.checkPair(s, y)
        guard !s.isEmpty else { throw MetricError.tooShort(metric: "sisnr", samples: 0, reason: "empty") }
        return try siSDR(s, y, referenceMean: mean(s), processedMean: mean(y), metric: "sisdr")
    }

    /// Σ x / n, summed in order in Double.
    static func mean<T: MetricSample>(_ x: [T]) -> Double {
        var sum = 0.0
        x.withUnsafeBufferPointer { x in for i in 0..<x.count { sum += x[i].double } }
        return sum / Double(x.count)
    }

    /// SI-SDR of `s − referenceMean` and `y − processedMean` (x − 0 is x, so means of 0 give
    /// plain SI-SDR exactly). The pair has been checked.
    static func siSDR<T: MetricSample>(_ s: [T], _ y: [T], referenceMean ms: Double, processedMean my: Double,
                                       metric: String) throws -> Double {
        var ss = 0.0, sy = 0.0
        s.withUnsafeBufferPointer { s in
            y.withUnsafeBufferPointer { y in
                for i in 0..<s.count { let si = s[i].double - ms; ss += si * si; sy += si * (y[i].double - my) }
            }
        }
        guard ss > 0 else { throw MetricError.silentReference(metric: metric) }
        let alpha = sy / ss
        var target = 0.0, residual = 0.0
        s.withUnsafeBufferPointer { s in
            y.withUnsafeBufferPointer { y in
                for i in 0..<s.count {
                    let t = alpha * (s[i].double - ms)
                    target += t * t
                    let e = (y[i].double - my) - t
                    residual += e * e
                }
            }
        }
        return 10 * log10(target / residual)
    }
}
