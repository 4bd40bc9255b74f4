/// One frame's gains of a blind method: from the noisy power |Y|² and the noise estimate λ of a
/// frame's bins (0...fftSize/2), a real gain per bin, applied to the noisy spectrum.
protocol SpectralGainRule {
    /// Writes `gain[k]` for every bin. When `detectNoise` (the leading noise estimate), also runs the
    /// method's voice activity detector and returns whether the frame is noise only; otherwise
    /// returns false. Called once per frame, in order.
    mutating func computeGains(power: UnsafeMutableBufferPointer<Double>, noise: UnsafeMutableBufferPointer<Double>,
                               gain: UnsafeMutableBufferPointer<Double>, detectNoise: Bool) -> Bool
    /// μ of the leading estimate's update λ ← μ·λ + (1 − μ)·|Y|² in noise-only frames.
    var noiseSmoothing: Double { get }
}

/// Conventions shared by the gain rules.
enum SpectralConventions {
    /// Smallest noise power a rule divides by: λ is floored here so that a lead-in of digital
    /// silence gives large but finite SNRs instead of 0/0 (far below any recorded noise floor of
    /// audio scaled to ±1).
    static let minimumNoisePower = 1e-30

    /// Σ over all `fftSize` bins of the full (conjugate-symmetric) spectrum, from the half-spectrum
    /// sum of an even-size FFT: every bin but DC and Nyquist counts twice. Loizou's frame
    /// statistics (the VAD's Σ log Λ, specsub's frame SNR) sum over the full FFT.
    @inline(__always)
    static func fullSpectrumSum(halfSum: Double, dc: Double, nyquist: Double) -> Double {
        2 * halfSum - dc - nyquist
    }
}
