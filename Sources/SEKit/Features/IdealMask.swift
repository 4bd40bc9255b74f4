/// The ideal (oracle) time-frequency masks, per STFT bin, from the clean speech S, the noise N
/// and the noisy mixture Y: the targets `sekit features` stores and the masks `sekit enhance
/// --method oracle-*` applies. One home for their formulas.
enum IdealMask {
    /// Ideal ratio mask √(|S|² / (|S|² + |N|²)) in [0, 1]; 0 where both are 0.
    @inline(__always)
    static func ratio(speech s: Float, noise n: Float) -> Float {
        let ps = s * s, pn = n * n
        return ps + pn > 0 ? (ps / (ps + pn)).squareRoot() : 0
    }

    /// Ideal binary mask: 1 where |S|² > `threshold`·|N|² (threshold = 10^(LC/10)), else 0.
    @inline(__always)
    static func binary(speech s: Float, noise n: Float, threshold: Float) -> Float {
        s * s > threshold * (n * n) ? 1 : 0
    }

    /// Phase-sensitive mask Re(S·conj(Y)) / |Y|², clipped to [0, 1]; 0 where Y = 0.
    @inline(__always)
    static func phaseSensitive(speechReal sr: Float, speechImaginary si: Float, noisyReal yr: Float, noisyImaginary yi: Float) -> Float {
        let py = yr * yr + yi * yi
        guard py > 0 else { return 0 }
        return min(max((sr * yr + si * yi) / py, 0), 1)
    }
}
