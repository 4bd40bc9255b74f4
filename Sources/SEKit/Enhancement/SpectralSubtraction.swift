import Foundation

/// Power spectral subtraction with over-subtraction and a spectral floor (Berouti, Schwartz &
/// Makhoul, "Enhancement of speech corrupted by acoustic noise", ICASSP 1979), as Loizou's
/// specsub.m:
///
/// |Ŝ|² = |Y|² − α·λ where that is at least β·λ, else β·λ;  G = |Ŝ|/|Y|
///
/// with the noisy phase. The over-subtraction α is fixed (`over-subtraction`) or set per frame
/// from the frame's SNR = 10·log10(Σ|Y|²/Σλ) over all FFT bins by Berouti's rule for power
/// subtraction (specsub.m's `berouti`): α = α₀ − SNR·(3/20) for −5 ≤ SNR ≤ 20 dB with α₀ = 4,
/// 5 below −5 dB, 1 above 20 dB. specsub.m's detector: a frame whose SNR is below 3 dB is noise
/// only. A bin of zero power gets gain 0. The per-bin sums and gains are ``SpectralSubtractionKernel``'s.
struct SpectralSubtraction: SpectralGainRule {
    /// Berouti's α₀, the over-subtraction at 0 dB.
    static let bodyOverSubtraction = 4.0
    /// Slope of α in SNR, per dB (3/20).
    static let overSubtractionSlope = 3.0 / 20
    /// The SNR range, dB, over which α varies linearly, and α outside it.
    static let lowSNRDB = -5.0, highSNRDB = 20.0
    static let lowSNROverSubtraction = 5.0, highSNROverSubtraction = 1.0

    let overSubtraction: Double?
    let spectralFloor: Double
    let vadThresholdDB: Double
    let noiseSmoothing: Double

    init(parameters: BlindEnhancerParameters) {
        overSubtraction = parameters.overSubtraction
        spectralFloor = parameters.spectralFloor
        vadThresholdDB = parameters.specsubVADThresholdDB
        noiseSmoothing = parameters.specsubNoiseSmoothing
    }

    /// Berouti's α for a frame SNR in dB (specsub.m's `berouti`).
    static func berouti(snrDB: Double) -> Double {
        if snrDB < lowSNRDB { return lowSNROverSubtraction }
        if snrDB > highSNRDB { return highSNROverSubtraction }
        return bodyOverSubtraction - snrDB * overSubtractionSlope
    }

    mutating func computeGains(power: UnsafeMutableBufferPointer<Double>, noise: UnsafeMutableBufferPointer<Double>,
                               gain: UnsafeMutableBufferPointer<Double>, detectNoise: Bool) -> Bool {
        let bins = power.count, floor = SpectralConventions.minimumNoisePower
        let sums = SpectralSubtractionKernel.sums(power: power, noise: noise, minimumNoisePower: floor)
        let fullPower = SpectralConventions.fullSpectrumSum(halfSum: sums.power, dc: power[0], nyquist: power[bins - 1])
        let fullNoise = SpectralConventions.fullSpectrumSum(halfSum: sums.noise, dc: max(noise[0], floor), nyquist: max(noise[bins - 1],
                                                                                                                        floor))
        let snrDB = 10 * log10(fullPower / fullNoise)
        let alpha = overSubtraction ?? Self.berouti(snrDB: snrDB)
        SpectralSubtractionKernel.gains(power: power, noise: noise, into: gain, overSubtraction: alpha, spectralFloor: spectralFloor,
                                        minimumNoisePower: floor)
        return detectNoise && snrDB < vadThresholdDB
    }
}
