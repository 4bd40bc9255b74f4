import Foundation

/// Energy-ratio metrics: SNR, SI-SDR, SI-SNR.
public enum SignalRatios {
    /// SNR in dB: `10·log10(Σ s² / Σ (s − ŝ)²)`. +inf when the signals are identical.
    /// - Throws: ``MetricError`` for length mismatch, non-finite input or a silent reference.
    public static func snr(reference s: [Double], processed y: [Double]) throws -> Double {
        try MetricError.checkPair(s, y)
        var signal = 0.0, noise = 0.0
        for i in 0..<s.count { signal += s[i] * s[i]; let e = s[i] - y[i]; noise += e * e }
        guard signal > 0 else { throw MetricError.silentReference(metric: "snr") }
        return 10 * log10(signal / noise)
    }

    /// Scale-invariant SDR (Le Roux, Wisdom, Erdogan & Hershey 2019, "SDR – half-baked or well
    /// done?", eq. 3), without mean removal: α = ⟨ŝ, s⟩ / ⟨s, s⟩, target = α·s,
    /// SI-SDR = 10·log10(‖target‖² / ‖ŝ − target‖²). No epsilon is added: a silent reference
    /// throws and a perfect estimate gives +inf.
    public static func siSDR(reference s: [Double], processed y: [Double]) throws -> Double {
        try MetricError.checkPair(s, y)
        var ss = 0.0, sy = 0.0
        for i in 0..<s.count { ss += s[i] * s[i]; sy += s[i] * y[i] }
        guard ss > 0 else { throw MetricError.silentReference(metric: "sisdr") }
        let alpha = sy / ss
        var target = 0.0, residual = 0.0
        for i in 0..<s.count {
            let t = alpha * s[i]
            target += t * t
            let e = y[i] - t
            residual += e * e
        }
        return 10 * log10(target / residual)
    }

    /// Scale-invariant SNR: SI-SDR of the zero-mean signals (each has its own mean removed),
    /// the convention of Conv-TasNet and asteroid's `SingleSrcNegSDR("sisdr", zero_mean=True)`.
    public static func siSNR(reference s: [Double], processed y: [Double]) throws -> Double {
        try MetricError.checkPair(s, y)
        guard !s.isEmpty else { throw MetricError.tooShort(metric: "sisnr", samples: 0, reason: "empty") }
        let ms = s.reduce(0, +) / Double(s.count), my = y.reduce(0, +) / Double(y.count)
        return try siSDR(reference: s.map { $0 - ms }, processed: y.map { $0 - my })
    }
}
