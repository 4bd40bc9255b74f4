import Foundation

/// Peak, mean square, DC and clipped-sample count of a signal fed block by block, through the
/// same running accumulations as ``Levels`` on the whole signal: results are bit-identical as
/// long as every block but the last holds a multiple of 4 samples.
struct LevelAccumulator {
    private var peak: Float = 0
    private var lanes = Levels.SquareLanes()
    private var sum = 0.0
    private var clipped = 0
    private(set) var count = 0
    let clippingThreshold: Float = 0.999

    mutating func add(_ x: UnsafeBufferPointer<Float>) {
        precondition(count % 4 == 0, "LevelAccumulator: only the last block may hold a number of samples that is not a multiple of 4")
        Levels.accumulateSquares(x, into: &lanes)
        Levels.accumulatePeak(x, into: &peak)
        Levels.accumulateSum(x, into: &sum)
        clipped += Levels.count(atOrAbove: clippingThreshold, in: x)
        count += x.count
    }

    var meanSquare: Double { count == 0 ? 0 : lanes.total / Double(count) }
    var peakDBFS: Double { 20 * log10(Double(peak)) }
    var rmsDBFS: Double { 10 * log10(meanSquare) }
    var dcOffset: Double { count == 0 ? 0 : sum / Double(count) }
    var clippedRatio: Double { count == 0 ? 0 : Double(clipped) / Double(count) }
}
