import Foundation

/// A gain of the decision-directed family, G(ξ, γ) with ξ the a priori and γ the a posteriori
/// SNR (linear power ratios), written in terms of A = ξ/(1 + ξ) and v = A·γ. The rule evaluates it
/// for a whole frame in ``DecisionDirectedKernel`` (C, four bins at a time).
protocol DecisionDirectedGain {
    /// The kernel's form of this gain.
    static var kernel: DecisionDirectedKernel.Gain { get }
}

extension DecisionDirectedGain {
    /// Smallest v evaluated: a bin of zero power (γ = 0) gets a large finite gain that multiplies
    /// zero, instead of ∞·0.
    static var minimumV: Double { 1e-12 }

    /// The gain for ξ > 0 and γ ≥ 0 (one bin, as the frame computes it; the rule works on whole
    /// frames).
    static func gain(ksi: Double, gamma: Double) -> Double {
        let a = ksi / (1 + ksi)
        return DecisionDirectedKernel.evaluate(.gain(kernel), [a], [max(a * gamma, minimumV)])[0]
    }
}

/// The decision-directed a priori SNR estimate (Ephraim & Malah 1984, eq. 51) and the
/// likelihood-ratio voice activity detector of Loizou's logmmse.m, around one of the gains.
///
/// Per bin of frame l, with λ the noise estimate the frame is processed with:
/// - γ = min(|Y|²/λ, γmax) (logmmse.m caps it at 40 "to avoid overflows");
/// - ξ = max(ξmin, α·|Ŝ(l−1)|²/λ + (1 − α)·max(γ − 1, 0)), and ξ = α + (1 − α)·max(γ − 1, 0) on
///   the first frame (unfloored, as logmmse.m and mmse.m);
/// - G = Gain(ξ, γ) and |Ŝ(l)|² = G²·|Y|².
/// The detector: log Λ = γξ/(1+ξ) − ln(1+ξ) = v − ln(1+ξ) per bin (Sohn, Kim & Sung 1999),
/// summed over all FFT bins and divided by the frame length L (logmmse.m; mmse.m divides by the
/// FFT size); below η the frame is noise only. The per-bin work of a frame is one call of
/// `DecisionDirectedKernel/frame(_:power:noise:previous:gain:parameters:firstFrame:detectNoise:)`.
struct DecisionDirectedRule<Gain: DecisionDirectedGain>: SpectralGainRule {
    let parameters: DecisionDirectedKernel.Parameters
    let vadThreshold: Double
    let noiseSmoothing: Double
    let frameLength: Double
    /// |Ŝ(l−1)|², the previous frame's clean power estimate, per bin.
    let previous: UnsafeMutableBufferPointer<Double>
    var isFirstFrame = true

    init(parameters: BlindEnhancerParameters, frameLength: Int, previous: UnsafeMutableBufferPointer<Double>) {
        self.parameters = DecisionDirectedKernel.Parameters(
            alpha: parameters.alphaDD, ksiMin: pow(10, parameters.ksiMinDB / 10), gammaMax: parameters.gammaMax,
            minimumNoisePower: SpectralConventions.minimumNoisePower, minimumV: Gain.minimumV)
        vadThreshold = parameters.vadThreshold
        noiseSmoothing = parameters.noiseSmoothing
        self.frameLength = Double(frameLength)
        self.previous = previous
    }

    mutating func computeGains(power: UnsafeMutableBufferPointer<Double>, noise: UnsafeMutableBufferPointer<Double>,
                               gain: UnsafeMutableBufferPointer<Double>, detectNoise: Bool) -> Bool {
        let statistics = DecisionDirectedKernel.frame(Gain.kernel, power: power, noise: noise, previous: previous, gain: gain,
                                                      parameters: parameters, firstFrame: isFirstFrame, detectNoise: detectNoise)
        isFirstFrame = false
        guard detectNoise else { return false }
        let total = SpectralConventions.fullSpectrumSum(halfSum: statistics.vSum, dc: statistics.vFirst, nyquist: statistics.vLast)
            - SpectralConventions.fullSpectrumSum(halfSum: statistics.logSum, dc: statistics.logFirst, nyquist: statistics.logLast)
        return total / frameLength < vadThreshold
    }
}
