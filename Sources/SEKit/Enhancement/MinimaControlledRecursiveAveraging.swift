/// Noise power tracking by minima-controlled recursive averaging (Cohen & Berdugo, "Noise
/// estimation by minima controlled recursive averaging for robust speech enhancement", IEEE
/// Signal Processing Letters 9(1), 2002, eqs. 3–10).
///
/// Per bin k of frame l, with |Y|² the noisy power:
/// - frequency smoothing S_f(k) = Σᵢ b(i)·|Y(k−i)|², b = [¼, ½, ¼] (a normalised Hann window of
///   2w + 1 = 3 points; the spectrum of a real signal is mirrored at DC and Nyquist);
/// - time smoothing S(k,l) = αs·S(k,l−1) + (1 − αs)·S_f(k) (eq. 7);
/// - minimum tracking (eqs. 8, 9): S_min = min(S_min, S), S_tmp = min(S_tmp, S); every L frames
///   (the minimum-search window) S_min = min(S_tmp, S) and S_tmp = S;
/// - speech presence I = 1 where S > δ·S_min (eq. 10), p̂ = αp·p̂ + (1 − αp)·I;
/// - noise update λ(k,l+1) = α̃d·λ(k,l) + (1 − α̃d)·|Y(k,l)|² with α̃d = αd + (1 − αd)·p̂ (eqs. 3–5).
/// Frame l is processed with λ(k,l); every state starts from the first frame's spectrum
/// (λ(k,0) = |Y(k,0)|², S = S_min = S_tmp = S_f, p̂ = 0), as in Loizou's mcra_estimation.m.
struct MinimaControlledRecursiveAveraging {
    /// Frequency-smoothing weights b(−1), b(0), b(1).
    static let sideWeight = 0.25, centreWeight = 0.5

    let alphaS: Double, alphaD: Double, alphaP: Double, delta: Double
    /// Minimum-search window L, frames.
    let windowFrames: Int
    let smoothed, minimum, temporary, presence: UnsafeMutableBufferPointer<Double>
    private var framesSeen = 0

    init(parameters: BlindEnhancerParameters, hopSeconds: Double, buffers: borrowing SpectralBuffers) {
        alphaS = parameters.mcraAlphaS
        alphaD = parameters.mcraAlphaD
        alphaP = parameters.mcraAlphaP
        delta = parameters.mcraDelta
        windowFrames = max(1, Int((parameters.mcraWindowSeconds / hopSeconds).rounded()))
        smoothed = buffers.smoothed; minimum = buffers.minimum
        temporary = buffers.temporary; presence = buffers.presence
    }

    /// S_f(k): |Y|² smoothed over three bins, mirrored at both ends (even FFT size).
    @inline(__always)
    static func frequencySmoothed(_ power: UnsafeMutableBufferPointer<Double>, _ k: Int) -> Double {
        let last = power.count - 1
        let below = power[k == 0 ? 1 : k - 1], above = power[k == last ? last - 1 : k + 1]
        return centreWeight * power[k] + sideWeight * (below + above)
    }

    /// Starts every state from the first frame's power: λ = |Y|², S = S_min = S_tmp = S_f, p̂ = 0.
    mutating func start(power: UnsafeMutableBufferPointer<Double>, noise: UnsafeMutableBufferPointer<Double>) {
        for k in 0..<power.count {
            let s = Self.frequencySmoothed(power, k)
            smoothed[k] = s; minimum[k] = s; temporary[k] = s
            presence[k] = 0
            noise[k] = power[k]
        }
        framesSeen = 0
    }

    /// Updates λ from this frame's power, for the next frame.
    mutating func update(power: UnsafeMutableBufferPointer<Double>, noise: UnsafeMutableBufferPointer<Double>) {
        framesSeen += 1
        let last = power.count - 1
        // The end bins (mirrored neighbours), then the inner ones in a loop with no branch, one
        // loop per kind of frame (a restart of the minimum search or not), so that it vectorises.
        let restart = framesSeen % windowFrames == 0
        update(bin: 0, smoothedPower: Self.frequencySmoothed(power, 0), power: power, noise: noise, restart: restart)
        update(bin: last, smoothedPower: Self.frequencySmoothed(power, last), power: power, noise: noise, restart: restart)
        let centre = Self.centreWeight, side = Self.sideWeight
        if restart {
            for k in 1..<last {
                update(bin: k, smoothedPower: centre * power[k] + side * (power[k - 1] + power[k + 1]), power: power, noise: noise,
                       restart: true)
            }
        } else {
            for k in 1..<last {
                update(bin: k, smoothedPower: centre * power[k] + side * (power[k - 1] + power[k + 1]), power: power, noise: noise,
                       restart: false)
            }
        }
    }

    /// Eqs. 3–10 for bin k, given its S_f.
    @inline(__always)
    private func update(bin k: Int, smoothedPower: Double, power: UnsafeMutableBufferPointer<Double>,
                        noise: UnsafeMutableBufferPointer<Double>, restart: Bool) {
        let s = alphaS * smoothed[k] + (1 - alphaS) * smoothedPower
        smoothed[k] = s
        let least = min(restart ? temporary[k] : minimum[k], s)
        minimum[k] = least
        temporary[k] = restart ? s : min(temporary[k], s)
        let speech: Double = s > delta * least ? 1 : 0
        let p = alphaP * presence[k] + (1 - alphaP) * speech
        presence[k] = p
        let smoothing = alphaD + (1 - alphaD) * p
        noise[k] = smoothing * noise[k] + (1 - smoothing) * power[k]
    }
}
