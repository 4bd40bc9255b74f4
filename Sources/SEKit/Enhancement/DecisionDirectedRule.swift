import Foundation

/// A gain of the decision-directed family, G(ξ, γ) with ξ the a priori and γ the a posteriori
/// SNR (linear power ratios), written in terms of A = ξ/(1 + ξ) and v = A·γ.
protocol DecisionDirectedGain {
    /// The gain from A, v (≥ ``minimumV``) and 1/√v.
    static func gain(wiener a: Double, v: Double, inverseRootV: Double) -> Double
    /// Smallest v evaluated: a bin of zero power (γ = 0) gets a large finite gain that multiplies
    /// zero, instead of ∞·0.
    static var minimumV: Double { get }
    /// Writes G for every bin of a frame from A and v (which it may overwrite).
    static func gains(wiener a: UnsafeMutableBufferPointer<Double>, v: UnsafeMutableBufferPointer<Double>,
                      into gain: UnsafeMutableBufferPointer<Double>)
}

extension DecisionDirectedGain {
    static var minimumV: Double { 1e-12 }

    /// The gain for ξ > 0 and γ ≥ 0 (one bin; the rule works on whole frames).
    static func gain(ksi: Double, gamma: Double) -> Double {
        let a = ksi / (1 + ksi), v = max(a * gamma, minimumV)
        return gain(wiener: a, v: v, inverseRootV: 1 / v.squareRoot())
    }

    /// Writes G for every bin from A and v, in passes short enough for the divisions and square
    /// roots of many bins to be in flight at once: v floored and 1/√v (into `gain`), two bins at
    /// a time, then G.
    static func gains(wiener a: UnsafeMutableBufferPointer<Double>, v: UnsafeMutableBufferPointer<Double>,
                      into gain: UnsafeMutableBufferPointer<Double>) {
        let count = v.count, pairs = count / 2
        let floor = minimumV
        let source = UnsafeMutableRawPointer(v.baseAddress!), target = UnsafeMutableRawPointer(gain.baseAddress!)
        for j in 0..<pairs {
            let floored = pointwiseMax(source.loadUnaligned(fromByteOffset: 16 * j, as: SIMD2<Double>.self), SIMD2(repeating: floor))
            source.storeBytes(of: floored, toByteOffset: 16 * j, as: SIMD2<Double>.self)
            target.storeBytes(of: 1 / floored.squareRoot(), toByteOffset: 16 * j, as: SIMD2<Double>.self)
        }
        for k in (2 * pairs)..<count {
            v[k] = max(v[k], floor)
            gain[k] = 1 / v[k].squareRoot()
        }
        for k in 0..<count { gain[k] = Self.gain(wiener: a[k], v: v[k], inverseRootV: gain[k]) }
    }
}

/// The per-bin buffers of the decision-directed rule.
struct DecisionDirectedScratch {
    /// |Ŝ(l−1)|², the previous frame's clean power estimate.
    let previous: UnsafeMutableBufferPointer<Double>
    /// A = ξ/(1 + ξ) and v = A·γ of the current frame.
    let wiener, v: UnsafeMutableBufferPointer<Double>
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
/// FFT size); below η the frame is noise only.
struct DecisionDirectedRule<Gain: DecisionDirectedGain>: SpectralGainRule {
    let alpha: Double
    let ksiMin: Double
    let gammaMax: Double
    let vadThreshold: Double
    let noiseSmoothing: Double
    let frameLength: Double
    let scratch: DecisionDirectedScratch
    var isFirstFrame = true

    init(parameters: BlindEnhancerParameters, frameLength: Int, scratch: DecisionDirectedScratch) {
        alpha = parameters.alphaDD
        ksiMin = pow(10, parameters.ksiMinDB / 10)
        gammaMax = parameters.gammaMax
        vadThreshold = parameters.vadThreshold
        noiseSmoothing = parameters.noiseSmoothing
        self.frameLength = Double(frameLength)
        self.scratch = scratch
    }

    mutating func computeGains(power: UnsafeMutableBufferPointer<Double>, noise: UnsafeMutableBufferPointer<Double>,
                               gain: UnsafeMutableBufferPointer<Double>, detectNoise: Bool) -> Bool {
        let bins = power.count
        let alpha = alpha, ksiMin = ksiMin, gammaMax = gammaMax, first = isFirstFrame
        let previous = scratch.previous, wiener = scratch.wiener, v = scratch.v
        // Σ v and Σ ln(1+ξ) (the latter as the logarithm of a product, see LogOfProduct).
        var linear = 0.0, product = LogOfProduct(), dcFactor = 1.0, nyquistFactor = 1.0
        for k in 0..<bins {
            let inverseNoise = 1 / max(noise[k], SpectralConventions.minimumNoisePower)
            let gamma = min(power[k] * inverseNoise, gammaMax)
            let excess = max(gamma - 1, 0)
            let ksi = first ? alpha + (1 - alpha) * excess : max(ksiMin, alpha * previous[k] * inverseNoise + (1 - alpha) * excess)
            let a = ksi / (1 + ksi)
            wiener[k] = a
            v[k] = a * gamma
            if detectNoise {
                linear += v[k]
                product.multiply(by: 1 + ksi)
                if k == 0 { dcFactor = 1 + ksi }
                if k == bins - 1 { nyquistFactor = 1 + ksi }
            }
        }
        isFirstFrame = false
        var noiseOnly = false
        if detectNoise {
            let total = SpectralConventions.fullSpectrumSum(halfSum: linear, dc: v[0], nyquist: v[bins - 1])
                - SpectralConventions.fullSpectrumSum(halfSum: product.logarithm, dc: log(dcFactor), nyquist: log(nyquistFactor))
            noiseOnly = total / frameLength < vadThreshold
        }
        Gain.gains(wiener: wiener, v: v, into: gain)
        for k in 0..<bins { previous[k] = gain[k] * gain[k] * power[k] }
        return noiseOnly
    }
}

/// ln Π fₖ of factors fₖ ≥ 1 with one logarithm instead of one per factor: the running product
/// is kept as m·2^e with m in [1, 2) (renormalised after every factor through its bits, exactly),
/// so it never overflows; ln Π = ln m + e·ln 2.
struct LogOfProduct {
    private var mantissa = 1.0
    private var exponent = 0

    /// Multiplies the product by `factor` (finite, ≥ 1).
    @inline(__always)
    mutating func multiply(by factor: Double) {
        let bits = (mantissa * factor).bitPattern
        exponent += Int(bits >> 52) - 1023
        mantissa = Double(bitPattern: (bits & 0x000F_FFFF_FFFF_FFFF) | 0x3FF0_0000_0000_0000)
    }

    var logarithm: Double { log(mantissa) + Double(exponent) * M_LN2 }
}
