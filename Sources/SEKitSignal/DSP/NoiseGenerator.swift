import Foundation

/// Coloured noise with a seed.
public enum NoiseColor: String, Sendable, CaseIterable, Codable {
    /// Flat spectrum: Gaussian samples (Box–Muller on SplitMix64).
    case white
    /// 1/f power spectrum (−3.01 dB per octave): white noise shaped in the frequency domain.
    case pink
    /// 1/f² power spectrum (−6.02 dB per octave): white noise shaped in the frequency domain.
    case brown
    /// Wind noise from an airflow speed profile (``WindNoise``, Mirabilii and Habets 2018).
    case wind
}

public enum NoiseGenerator {
    /// `count` samples of `color` noise scaled to `rmsDBFS` (`10·log10(mean square)`), drawn from
    /// a generator seeded with `seed`: the same arguments give the same samples everywhere.
    ///
    /// Pink and brown are made by shaping the spectrum of white Gaussian noise (one FFT over the
    /// whole length): bin k is scaled by k^(−1/2) or k^(−1), DC is removed, frequencies below
    /// 10 Hz are held at the 10 Hz gain so the signal does not wander.
    public static func generate(_ color: NoiseColor, count: Int, sampleRate: Int, rmsDBFS: Double, seed: UInt64) -> [Float] {
        guard count > 0 else { return [] }
        if color == .wind {
            let scale = pow(10, rmsDBFS / 20)
            let wind = WindNoise.generate(count: count, sampleRate: sampleRate, parameters: WindNoise.parameters(seed: seed))
            return wind.map { Float($0 * scale) }
        }
        var rng = SplitMix64(seed: seed)
        var white = [Double](repeating: 0, count: count)
        var i = 0
        while i < count {
            // Box–Muller: two uniforms in (0, 1] give two independent standard normals.
            let u1 = 1 - rng.nextUnitInterval(), u2 = rng.nextUnitInterval()
            let r = (-2 * log(u1)).squareRoot()
            white[i] = r * cos(2 * Double.pi * u2)
            if i + 1 < count { white[i + 1] = r * sin(2 * Double.pi * u2) }
            i += 2
        }
        var shaped = white
        if color != .white {
            let size = count % 2 == 0 ? count : count + 1
            if size != count { shaped.append(0) }
            let fft = RealFFT.double(size: size)
            var spectrum = fft.forward(shaped)
            let exponent = color == .pink ? 0.5 : 1.0
            let floorBin = max(1.0, 10 * Double(size) / Double(sampleRate))
            spectrum[0] = 0; spectrum[1] = 0
            for k in 1..<fft.binCount {
                let g = pow(max(Double(k), floorBin), -exponent)
                spectrum[2 * k] *= g; spectrum[2 * k + 1] *= g
            }
            shaped = Array(fft.inverse(spectrum).prefix(count))
        }
        let ms = shaped.reduce(0) { $0 + $1 * $1 } / Double(count)
        let scale = ms > 0 ? pow(10, rmsDBFS / 20) / ms.squareRoot() : 0
        return shaped.map { Float($0 * scale) }
    }
}
