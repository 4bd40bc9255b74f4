import Foundation

/// The resampler pystoi 0.4.1 uses (its `resample_oct`): an Octave-style Kaiser-windowed sinc
/// low-pass, normalised to unit sum, applied by `scipy.signal.resample_poly` (upsample by p,
/// filter, downsample by q, with resample_poly's zero padding and output alignment). Reproduced
/// so STOI matches pystoi at any input rate; computed directly, one output sample at a time,
/// touching only the filter taps that meet non-zero upsampled input.
enum OctaveResampler {
    /// Design parameters of Octave's `resample`: rejection 10^−3 (60 dB), roll-off 10% of the cut-off.
    static let log10Rejection = -3.0

    /// Resamples `x` from rate `q` to rate `p` (`resample_oct(x, p, q)`).
    static func resample(_ x: [Double], to p: Int, from q: Int) -> [Double] {
        let g = gcd(p, q)
        let up = p / g, down = q / g
        if up == 1 && down == 1 { return x }
        let h = filter(up: up, down: down)
        // resample_poly: h *= up; pre-pad so output samples sit at the filter centre.
        let half = (h.count - 1) / 2
        let prePad = down - half % down
        let preRemove = (half + prePad) / down
        let nIn = x.count
        let nOut = (nIn * up) / down + ((nIn * up) % down != 0 ? 1 : 0)
        var out = [Double](repeating: 0, count: nOut)
        let taps = h.count
        h.withUnsafeBufferPointer { hp in
            x.withUnsafeBufferPointer { xp in
                for i in 0..<nOut {
                    // y_full[m] = Σ_j hpad[j] · u[m − j], hpad[j] = up·h[j − prePad], u[k·up] = x[k].
                    let m = (i + preRemove) * down
                    // j = jh + prePad, need (m − j) ≡ 0 (mod up) and 0 ≤ (m − j)/up < nIn.
                    let base = m - prePad
                    var jh = base % up
                    if jh < 0 { jh += up }
                    var acc = 0.0
                    // k = (base − jh)/up decreases by 1 as jh grows by up.
                    var k = (base - jh) / up
                    while jh < taps {
                        if k < 0 { break }
                        if k < nIn { acc += hp[jh] * xp[k] }
                        jh += up
                        k -= 1
                    }
                    out[i] = acc * Double(up)
                }
            }
        }
        return out
    }

    /// Octave's filter: ideal low-pass `2·p·fc·sinc(2·fc·t)`, t = −L...L, times a Kaiser window,
    /// normalised to unit sum (pystoi divides by the sum before handing it to resample_poly).
    static func filter(up p: Int, down q: Int) -> [Double] {
        let stopbandCutoff = 1 / (2 * Double(max(p, q)))
        let rollOffWidth = stopbandCutoff / 10
        let rejectionDB = -20 * log10Rejection
        let L = ((rejectionDB - 8) / (28.714 * rollOffWidth)).rounded(.up)
        let beta: Double
        if rejectionDB >= 21 && rejectionDB <= 50 {
            beta = 0.5842 * pow(rejectionDB - 21, 0.4) + 0.07886 * (rejectionDB - 21)
        } else if rejectionDB > 50 {
            beta = 0.1102 * (rejectionDB - 8.7)
        } else {
            beta = 0
        }
        let count = Int(2 * L + 1)
        var h = [Double](repeating: 0, count: count)
        let i0Beta = besselI0(beta)
        for n in 0..<count {
            let t = Double(n) - L
            let arg = 2 * stopbandCutoff * t
            let sinc = arg == 0 ? 1 : sin(Double.pi * arg) / (Double.pi * arg)
            let ideal = 2 * Double(p) * stopbandCutoff * sinc
            // numpy.kaiser(M, beta): I0(beta·sqrt(1 − (2n/(M−1) − 1)²)) / I0(beta)
            let r = 2 * Double(n) / Double(count - 1) - 1
            let kaiser = besselI0(beta * max(0, 1 - r * r).squareRoot()) / i0Beta
            h[n] = kaiser * ideal
        }
        let sum = h.reduce(0, +)
        return h.map { $0 / sum }
    }

    /// Modified Bessel function of the first kind, order 0, by its power series (converges for all x).
    static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0
        let q = x * x / 4
        var k = 1.0
        while true {
            term *= q / (k * k)
            sum += term
            if term < sum * 1e-17 { break }
            k += 1
        }
        return sum
    }

    static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
