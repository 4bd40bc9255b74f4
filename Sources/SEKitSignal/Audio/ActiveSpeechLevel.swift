import Foundation

/// Active speech level by ITU-T P.56 method B.
public struct ActiveSpeechLevel: Sendable, Equatable {
    /// Mean square of the signal over its active part (linear power, full scale = 1).
    public var activePower: Double
    /// Fraction of samples counted active, 0...1.
    public var activityFactor: Double

    /// Active level in dBFS: `10·log10(activePower)`.
    public var levelDBFS: Double { 10 * log10(activePower) }

    /// ITU-T P.56 constants.
    static let timeConstantSeconds = 0.03  // envelope smoothing, T
    static let hangoverSeconds = 0.2       // H
    static let marginDB = 15.9             // M
    /// Thresholds c_j = 2^(j−15), j = 0...14: one 16-bit quantisation step up to half full scale.
    static let thresholds: [Double] = (0..<15).map { pow(2, Double($0) - 15) }

    /// Measures `x` (full scale 1). The envelope is the P.56 two-stage exponential average of |x|
    /// (`p = g·p + (1−g)|x|`, `q = g·q + (1−g)p`, g = e^(−1/(fs·T))); a sample counts as active
    /// for threshold c_j while q ≥ c_j or within the hangover after it fell below. The active level
    /// is where the activity-level curve A_j(dB) = 10·log10(Σx²/a_j) exceeds the threshold level
    /// C_j = 20·log10(c_j) by the margin M; found by linear interpolation between the two
    /// thresholds that bracket it (the reference code bisects to 0.5 dB; interpolation is exact
    /// on the same piecewise-linear curve).
    /// - Throws: ``AudioError/invalidParameter(name:value:reason:)`` when the signal has no active
    ///   part (silent or below the lowest threshold by the margin).
    public static func measure(_ x: UnsafeBufferPointer<Double>, sampleRate: Int) throws -> ActiveSpeechLevel {
        var accumulator = Accumulator(sampleRate: sampleRate)
        accumulator.add(x)
        return try accumulator.result()
    }

    /// The P.56 measurement fed block by block (a long file in constant memory); the same
    /// arithmetic, in the same order, as `measure(_:sampleRate:)` on the whole signal.
    public struct Accumulator: Sendable {
        let sampleRate: Int
        let g: Double
        let hangover: Int
        var active = [Int](repeating: 0, count: thresholds.count)
        var hang: [Int]
        var p = 0.0, q = 0.0, sumSquares = 0.0
        var count = 0

        public init(sampleRate: Int) {
            self.sampleRate = sampleRate
            g = sampleRate > 0 ? exp(-1 / (Double(sampleRate) * timeConstantSeconds)) : 0
            hangover = Int((Double(max(0, sampleRate)) * hangoverSeconds).rounded(.up))
            hang = [Int](repeating: hangover, count: thresholds.count)
        }

        /// Adds the next samples (full scale 1).
        public mutating func add(_ x: UnsafeBufferPointer<Double>) {
            let thresholds = ActiveSpeechLevel.thresholds, levels = thresholds.count
            for k in 0..<x.count {
                let v = x[k]
                sumSquares += v * v
                p = g * p + (1 - g) * abs(v)
                q = g * q + (1 - g) * p
                for j in 0..<levels {
                    if q >= thresholds[j] {
                        active[j] += 1; hang[j] = 0
                    } else if hang[j] < hangover {
                        active[j] += 1; hang[j] += 1
                    } else {
                        break  // thresholds ascend: the higher ones are inactive too
                    }
                }
            }
            count += x.count
        }

        /// The active level of everything added.
        /// - Throws: ``AudioError/invalidParameter(name:value:reason:)`` when nothing was added,
        ///   or the signal has no active part (silent or below the lowest threshold by the margin).
        public func result() throws -> ActiveSpeechLevel {
            let n = count
            guard n > 0, sampleRate > 0 else {
                throw AudioError.invalidParameter(name: "samples", value: "\(n)", reason: "no samples to measure")
            }
            let thresholds = ActiveSpeechLevel.thresholds, levels = thresholds.count
            let silent = AudioError.invalidParameter(name: "samples", value: "\(n) samples", reason: "no active speech (P.56)")
            guard active[0] > 0 else { throw silent }
            func activityDB(_ j: Int) -> Double { 10 * log10(sumSquares / Double(active[j])) }
            func thresholdDB(_ j: Int) -> Double { 20 * log10(thresholds[j]) }
            var previousDelta = activityDB(0) - thresholdDB(0)
            guard previousDelta >= marginDB else { throw silent }
            for j in 1..<levels where active[j] > 0 {
                let delta = activityDB(j) - thresholdDB(j)
                if delta <= marginDB {
                    let t = (previousDelta - marginDB) / (previousDelta - delta)
                    let levelDB = activityDB(j - 1) + t * (activityDB(j) - activityDB(j - 1))
                    let power = pow(10, levelDB / 10)
                    return ActiveSpeechLevel(activePower: power, activityFactor: min(1, sumSquares / Double(n) / power))
                }
                previousDelta = delta
            }
            // Active everywhere above every threshold: the whole signal is active.
            return ActiveSpeechLevel(activePower: sumSquares / Double(active[levels - 1]),
                                     activityFactor: Double(active[levels - 1]) / Double(n))
        }
    }

    /// Measures a Float signal (widened to Double a block at a time: the same value).
    public static func measure(_ x: [Float], sampleRate: Int) throws -> ActiveSpeechLevel {
        var accumulator = Accumulator(sampleRate: sampleRate)
        SampleConversion.forEachDoubleBlock(x) { accumulator.add($0) }
        return try accumulator.result()
    }
}
