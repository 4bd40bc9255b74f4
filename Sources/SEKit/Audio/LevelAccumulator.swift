import Foundation

/// Peak, mean square, DC and clipped-sample count of a signal fed block by block, with the same
/// arithmetic as ``Levels`` on the whole signal (mean square in four Double lanes by sample
/// index modulo 4): results are bit-identical as long as every block but the last holds a
/// multiple of 4 samples.
struct LevelAccumulator {
    private(set) var peak: Float = 0
    private var lanes = (0.0, 0.0, 0.0, 0.0)
    private var sum = 0.0
    private var clipped = 0
    private(set) var count = 0
    let clippingThreshold: Float = 0.999

    mutating func add(_ x: UnsafeBufferPointer<Float>) {
        precondition(count % 4 == 0, "LevelAccumulator: only the last block may hold a number of samples that is not a multiple of 4")
        var i = 0
        while i + 4 <= x.count {
            let v0 = Double(x[i]), v1 = Double(x[i + 1]), v2 = Double(x[i + 2]), v3 = Double(x[i + 3])
            lanes.0 += v0 * v0; lanes.1 += v1 * v1; lanes.2 += v2 * v2; lanes.3 += v3 * v3
            i += 4
        }
        while i < x.count { let v = Double(x[i]); lanes.0 += v * v; i += 1 }
        for v in x {
            peak = max(peak, abs(v))
            sum += Double(v)
            if abs(v) >= clippingThreshold { clipped += 1 }
        }
        count += x.count
    }

    var meanSquare: Double { count == 0 ? 0 : (lanes.0 + lanes.1 + lanes.2 + lanes.3) / Double(count) }
    var peakDBFS: Double { 20 * log10(Double(peak)) }
    var rmsDBFS: Double { 10 * log10(meanSquare) }
    var dcOffset: Double { count == 0 ? 0 : sum / Double(count) }
    var clippedRatio: Double { count == 0 ? 0 : Double(clipped) / Double(count) }
}
