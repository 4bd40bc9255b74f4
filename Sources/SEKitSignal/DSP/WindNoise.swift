import Foundation

/// Wind noise after the airflow-driven model of Mirabilii and Habets ("Simulating wind noise with
/// airflow speed-dependent characteristics", IWAENC 2018), the generator the URGENT challenge's
/// simulation uses, implemented from the paper's description:
///
/// 1. An airflow speed profile u(t): `max(1, ⌊1.5·gustiness⌋)` speeds drawn from a Weibull
///    distribution (shape 2, scale 5 m/s: the usual model of wind speeds), spread evenly over the
///    signal and joined with raised-cosine steps (gustiness 1 is a constant wind, 10 a gusty one;
///    the URGENT simulation draws it uniformly in 3-10, as ``parameters(seed:)`` does).
/// 2. A white Gaussian excitation.
/// 3. An all-pole (LPC) filter whose spectrum follows the airflow: a double real pole at
///    r = exp(−2π f_c / fs) with the corner f_c = 20 Hz per m/s (100 Hz at 5 m/s): the low-pass,
///    −12 dB per octave long-term spectrum of wind noise, moving up with the speed. The
///    coefficients are updated every 32 samples and normalised to unit output power.
/// 4. A gain that follows the dynamic pressure, u², so gusts are louder as well as brighter.
///
/// The result is scaled to unit RMS. Deterministic: the same seed gives the same samples.
public enum WindNoise {
    /// What one wind-noise signal is drawn from.
    public struct Parameters: Sendable, Codable, Equatable {
        /// How gusty the wind is (number of speed points per 1.5).
        public var gustiness: Double
        /// The airflow speeds of the profile, m/s, evenly spread over the signal.
        public var speedsMetresPerSecond: [Double]
        /// Seed of the excitation.
        public var excitationSeed: UInt64
    }

    /// Weibull shape and scale of the airflow speeds (m/s).
    static let weibullShape = 2.0, weibullScaleMetresPerSecond = 5.0
    /// Filter corner per unit of airflow speed, Hz per m/s, and its lowest value, Hz.
    static let cornerHzPerMetrePerSecond = 20.0, minimumCornerHz = 10.0
    /// Samples between filter-coefficient updates.
    static let block = 32
    /// The URGENT simulation's gustiness range.
    public static let gustinessRange = 3.0...10.0

    /// Draws the parameters of a wind-noise signal from `seed`: gustiness uniform in 3-10, then the speeds.
    public static func parameters(seed: UInt64) -> Parameters {
        var rng = SplitMix64(seed: seed)
        let gustiness = gustinessRange.lowerBound + rng.nextUnitInterval() * (gustinessRange.upperBound - gustinessRange.lowerBound)
        let points = max(1, Int(1.5 * gustiness))
        let speeds = (0..<points).map { _ -> Double in
            // Inverse transform: λ·(−ln(1 − U))^(1/k).
            weibullScaleMetresPerSecond * pow(-log(1 - rng.nextUnitInterval()), 1 / weibullShape)
        }
        return Parameters(gustiness: gustiness, speedsMetresPerSecond: speeds, excitationSeed: rng.next())
    }

    /// The airflow speed at sample `i` of `count`: the profile's points evenly spread, joined by raised-cosine steps.
    static func speed(at i: Int, count: Int, speeds: [Double]) -> Double {
        guard speeds.count > 1 else { return speeds.first ?? 0 }
        let position = Double(i) / Double(max(1, count - 1)) * Double(speeds.count - 1)
        let k = min(speeds.count - 2, Int(position))
        let t = position - Double(k)
        let w = 0.5 - 0.5 * cos(Double.pi * t)
        return speeds[k] + w * (speeds[k + 1] - speeds[k])
    }

    /// `count` samples of wind noise at `sampleRate` with `parameters`, scaled to unit RMS.
    public static func generate(count: Int, sampleRate: Int, parameters: Parameters) -> [Double] {
        guard count > 0 else { return [] }
        var rng = SplitMix64(seed: parameters.excitationSeed)
        var out = [Double](repeating: 0, count: count)
        var y1 = 0.0, y2 = 0.0
        var a1 = 0.0, a2 = 0.0, gain = 0.0
        var spare: Double? = nil
        out.withUnsafeMutableBufferPointer { out in
            for i in 0..<count {
                if i % block == 0 {
                    let u = speed(at: min(count - 1, i + block / 2), count: count, speeds: parameters.speedsMetresPerSecond)
                    let corner = min(0.45 * Double(sampleRate), max(minimumCornerHz, cornerHzPerMetrePerSecond * u))
                    let r = exp(-2 * Double.pi * corner / Double(sampleRate))
                    a1 = 2 * r; a2 = -r * r
                    // White input of unit power through 1/(1 − r z⁻¹)² has power (1 + r²)/(1 − r²)³.
                    let power = (1 + r * r) / pow(1 - r * r, 3)
                    gain = u * u / power.squareRoot()
                }
                let e: Double
                if let s = spare { e = s; spare = nil } else {
                    let u1 = 1 - rng.nextUnitInterval(), u2 = rng.nextUnitInterval()
                    let radius = (-2 * log(u1)).squareRoot(), angle = 2 * Double.pi * u2
                    e = radius * cos(angle); spare = radius * sin(angle)
                }
                let y = e + a1 * y1 + a2 * y2
                y2 = y1; y1 = y
                out[i] = gain * y
            }
        }
        let ms = out.reduce(0) { $0 + $1 * $1 } / Double(count)
        let scale = ms > 0 ? 1 / ms.squareRoot() : 0
        return out.map { $0 * scale }
    }
}
