import Foundation

/// A second-order IIR section from Robert Bristow-Johnson's "Cookbook formulae for audio EQ
/// biquad filter coefficients", normalised so a0 = 1:
/// `y[n] = b0·x[n] + b1·x[n−1] + b2·x[n−2] − a1·y[n−1] − a2·y[n−2]`.
///
/// State persists across calls (transposed direct form II, in Double), so filtering a signal in
/// one call or in blocks of any size gives identical output, like `vDSP_deq22` used block-wise.
public struct BiquadFilter: Sendable, Equatable {
    /// Filter shapes of the cookbook.
    public enum Kind: String, Sendable, CaseIterable, Codable {
        case lowPass, highPass
        /// Band-pass with constant 0 dB peak gain.
        case bandPass
        /// Peaking EQ: `gainDB` at the centre frequency.
        case peaking
        case lowShelf, highShelf
    }

    public let kind: Kind
    /// Corner / centre frequency, Hz.
    public let frequencyHz: Double
    public let q: Double
    public let gainDB: Double
    public let sampleRate: Int
    public let b0: Double, b1: Double, b2: Double, a1: Double, a2: Double
    private var z1 = 0.0, z2 = 0.0

    /// Designs a filter. `q` = 1/√2 gives a Butterworth low/high-pass; shelves use the cookbook's
    /// slope S = 1 form through `q` (pass 1/√2 for S = 1).
    /// - Throws: ``DSPError/invalidParameter(name:value:reason:)`` for a frequency outside (0, Nyquist) or q ≤ 0.
    public init(_ kind: Kind, frequencyHz: Double, q: Double = 1 / 2.0.squareRoot(), gainDB: Double = 0, sampleRate: Int) throws(DSPError) {
        guard frequencyHz > 0, frequencyHz < Double(sampleRate) / 2 else {
            throw DSPError.invalidParameter(name: "frequencyHz", value: "\(frequencyHz)", reason: "must be in (0, \(sampleRate / 2)) Hz")
        }
        guard q > 0, q.isFinite else { throw DSPError.invalidParameter(name: "q", value: "\(q)", reason: "must be positive") }
        self.kind = kind; self.frequencyHz = frequencyHz; self.q = q; self.gainDB = gainDB; self.sampleRate = sampleRate
        let w0 = 2 * Double.pi * frequencyHz / Double(sampleRate)
        let cosW = cos(w0), sinW = sin(w0)
        let alpha = sinW / (2 * q)
        let A = pow(10, gainDB / 40)
        var b: (Double, Double, Double), a: (Double, Double, Double)
        switch kind {
        case .lowPass:
            b = ((1 - cosW) / 2, 1 - cosW, (1 - cosW) / 2); a = (1 + alpha, -2 * cosW, 1 - alpha)
        case .highPass:
            b = ((1 + cosW) / 2, -(1 + cosW), (1 + cosW) / 2); a = (1 + alpha, -2 * cosW, 1 - alpha)
        case .bandPass:
            b = (alpha, 0, -alpha); a = (1 + alpha, -2 * cosW, 1 - alpha)
        case .peaking:
            b = (1 + alpha * A, -2 * cosW, 1 - alpha * A); a = (1 + alpha / A, -2 * cosW, 1 - alpha / A)
        case .lowShelf:
            let s = 2 * A.squareRoot() * alpha
            b = (A * ((A + 1) - (A - 1) * cosW + s), 2 * A * ((A - 1) - (A + 1) * cosW), A * ((A + 1) - (A - 1) * cosW - s))
            a = ((A + 1) + (A - 1) * cosW + s, -2 * ((A - 1) + (A + 1) * cosW), (A + 1) + (A - 1) * cosW - s)
        case .highShelf:
            let s = 2 * A.squareRoot() * alpha
            b = (A * ((A + 1) + (A - 1) * cosW + s), -2 * A * ((A - 1) + (A + 1) * cosW), A * ((A + 1) + (A - 1) * cosW - s))
            a = ((A + 1) - (A - 1) * cosW + s, 2 * ((A - 1) - (A + 1) * cosW), (A + 1) - (A - 1) * cosW - s)
        }
        b0 = b.0 / a.0; b1 = b.1 / a.0; b2 = b.2 / a.0; a1 = a.1 / a.0; a2 = a.2 / a.0
    }

    /// Clears the state (as if the input had been silent forever).
    public mutating func reset() { z1 = 0; z2 = 0 }

    /// Filters `x` in place, continuing from the state left by the previous call.
    public mutating func process(_ x: inout [Double]) {
        var s1 = z1, s2 = z2
        let b0 = b0, b1 = b1, b2 = b2, a1 = a1, a2 = a2
        x.withUnsafeMutableBufferPointer { p in
            for i in 0..<p.count {
                let input = p[i]
                let y = b0 * input + s1
                s1 = b1 * input - a1 * y + s2
                s2 = b2 * input - a2 * y
                p[i] = y
            }
        }
        z1 = s1; z2 = s2
    }

    /// Filters a Float block (computed in Double), continuing the state.
    public mutating func process(_ x: [Float]) -> [Float] {
        var d = SampleConversion.doubles(x)
        process(&d)
        return d.map(Float.init)
    }

    /// Analytic frequency response magnitude at `hz`, dB: |H(e^{jω})| with ω = 2π·hz/fs.
    public func responseDB(atHz hz: Double) -> Double {
        let w = 2 * Double.pi * hz / Double(sampleRate)
        // H = (b0 + b1 z^-1 + b2 z^-2) / (1 + a1 z^-1 + a2 z^-2), z = e^{jw}
        let nr = b0 + b1 * cos(w) + b2 * cos(2 * w), ni = -(b1 * sin(w) + b2 * sin(2 * w))
        let dr = 1 + a1 * cos(w) + a2 * cos(2 * w), di = -(a1 * sin(w) + a2 * sin(2 * w))
        return 10 * log10((nr * nr + ni * ni) / (dr * dr + di * di))
    }
}
