/// Per-bin mean and standard deviation of a stream's feature values, accumulated in one
/// streaming pass and mergeable across workers.
///
/// Each `add(frames:dtype:)` call computes the batch's per-bin mean and sum of squared
/// deviations exactly in two passes over the batch (in `Double`), then folds it into the
/// running totals with Chan, Golub & LeVeque's pairwise update ("Updating formulae and a
/// pairwise algorithm for computing sample variances", 1979; eq. 2.1):
///
///     n = nA + nB,  δ = meanB − meanA,
///     mean = meanA + δ·nB/n,
///     M2 = M2A + M2B + δ²·nA·nB/n.
///
/// Unlike the textbook `E[x²] − E[x]²`, this stays accurate when the values sit on a large
/// offset (1e6 + noise). ``merge(_:)`` applies the same update to combine workers. The
/// result depends (in the last bits) on the order of merges: for output that does not depend
/// on `--jobs`, accumulate one batch per clip and merge them in clip order.
public struct FeatureStatistics: Equatable, Sendable {
    /// Values per frame.
    public let bins: Int
    /// Frames accumulated.
    public private(set) var count: Int = 0
    /// Per-bin mean, `[bins]`.
    public private(set) var mean: [Double]
    /// Per-bin sum of squared deviations from the mean (M2), `[bins]`.
    public private(set) var sumSquaredDeviations: [Double]

    /// Empty statistics for frames of `bins` values.
    public init(bins: Int) {
        self.bins = bins
        mean = [Double](repeating: 0, count: bins)
        sumSquaredDeviations = [Double](repeating: 0, count: bins)
    }

    /// Statistics of `count` frames with per-bin `mean` and population `standardDeviation`, as a
    /// file stores them (`/stats/STREAM`): M2 = std² · count. For combining stored statistics
    /// with ``merge(_:)``.
    init(count: Int, mean: [Double], standardDeviation: [Double]) {
        bins = mean.count
        self.count = count
        self.mean = mean
        sumSquaredDeviations = standardDeviation.map { $0 * $0 * Double(count) }
    }

    /// Per-bin population variance (`numpy.var(x, axis=0)`, ddof 0); zeros when empty.
    public var variance: [Double] {
        count == 0 ? [Double](repeating: 0, count: bins) : sumSquaredDeviations.map { $0 / Double(count) }
    }

    /// Per-bin population standard deviation (`numpy.std(x, axis=0)`, ddof 0), the scale a
    /// model's input normalisation divides by; zeros when empty.
    public var standardDeviation: [Double] { variance.map { $0.squareRoot() } }

    /// Adds frames `[numFrames × bins]` row-major. With `dtype: .float16` each value is first
    /// rounded to float16, so the statistics describe the values stored in a float16 file.
    /// - Throws: ``FeatureFileError/invalidParameter(name:value:reason:)`` if the count is not a multiple of `bins`.
    public mutating func add(frames: UnsafeBufferPointer<Float>, dtype: FeatureDType = .float32) throws(FeatureFileError) {
        guard bins > 0, frames.count % bins == 0 else {
            throw .invalidParameter(name: "frames", value: "\(frames.count) values",
                                    reason: "not a whole number of \(bins)-bin frames")
        }
        let frameCount = frames.count / bins
        guard frameCount > 0 else { return }
        if dtype == .float16 {
            let rounded = frames.map { Float(Float16($0)) }
            return try rounded.withUnsafeBufferPointer { buffer throws(FeatureFileError) in try add(frames: buffer) }
        }
        var batch = Batch(bins: bins)
        batch.addToSums(frames)
        batch.addToDeviations(frames)
        add(batch)
    }

    /// Adds frames `[numFrames × bins]` row-major (see ``add(frames:dtype:)-(UnsafeBufferPointer<Float>,_)``).
    public mutating func add(frames: [Float], dtype: FeatureDType = .float32) throws(FeatureFileError) {
        try frames.withUnsafeBufferPointer { buffer throws(FeatureFileError) in try add(frames: buffer, dtype: dtype) }
    }

    /// Folds another worker's statistics in (Chan et al. pairwise update).
    /// - Throws: ``FeatureFileError/invalidParameter(name:value:reason:)`` if the bins differ.
    public mutating func merge(_ other: FeatureStatistics) throws(FeatureFileError) {
        guard other.bins == bins else {
            throw .invalidParameter(name: "statistics", value: "\(other.bins) bins", reason: "cannot merge into \(bins)-bin statistics")
        }
        combine(count: other.count, mean: other.mean, sumSquaredDeviations: other.sumSquaredDeviations)
    }

    private mutating func combine(count otherCount: Int, mean otherMean: [Double], sumSquaredDeviations otherM2: [Double]) {
        guard otherCount > 0 else { return }
        if count == 0 {
            (count, mean, sumSquaredDeviations) = (otherCount, otherMean, otherM2)
            return
        }
        let nA = Double(count), nB = Double(otherCount), n = nA + nB
        for bin in 0..<bins {
            let delta = otherMean[bin] - mean[bin]
            mean[bin] += delta * nB / n
            sumSquaredDeviations[bin] += otherM2[bin] + delta * delta * nA * nB / n
        }
        count += otherCount
    }

    /// Folds in one batch accumulated in its two passes (``Batch``).
    public mutating func add(_ batch: Batch) {
        guard batch.frameCount > 0 else { return }
        precondition(batch.bins == bins && batch.meansFinished, "FeatureStatistics.add: a batch of other bins, or before its second pass")
        combine(count: batch.frameCount, mean: batch.means, sumSquaredDeviations: batch.deviations)
    }

    /// One batch (one clip) of frames, accumulated in two passes over them so that it can be
    /// made a block of frames at a time: the per-bin sums (pass 1: every block, in order), then
    /// the squared deviations from the batch's mean (pass 2: the same blocks again, in order).
    /// Sums run in frame order, so any blocking gives the values of the whole batch at once.
    public struct Batch: Sendable {
        public let bins: Int
        /// Frames of pass 1.
        public private(set) var frameCount = 0
        /// Per-bin sums during pass 1, the means once pass 2 has begun.
        private(set) var means: [Double]
        private(set) var deviations: [Double]
        private(set) var meansFinished = false

        public init(bins: Int) {
            self.bins = bins
            means = [Double](repeating: 0, count: bins)
            deviations = [Double](repeating: 0, count: bins)
        }

        /// Pass 1: adds frames `[n × bins]` row-major (as stored: float16-rounded for a float16 file).
        public mutating func addToSums(_ frames: UnsafeBufferPointer<Float>) {
            precondition(!meansFinished && frames.count % bins == 0, "FeatureStatistics.Batch: pass 1 after pass 2, or a partial frame")
            let bins = bins, frameCount = frames.count / bins
            means.withUnsafeMutableBufferPointer { sums in
                for frame in 0..<frameCount {
                    let row = frame * bins
                    for bin in 0..<bins { sums[bin] += Double(frames[row + bin]) }
                }
            }
            self.frameCount += frameCount
        }

        /// Pass 2: the same frames again, in the same order (the first call turns the sums into means).
        public mutating func addToDeviations(_ frames: UnsafeBufferPointer<Float>) {
            precondition(frames.count % bins == 0, "FeatureStatistics.Batch: a partial frame")
            let bins = bins, frameCount = frames.count / bins
            if !meansFinished {
                let n = Double(self.frameCount)
                means.withUnsafeMutableBufferPointer { sums in for bin in 0..<bins { sums[bin] /= n } }
                meansFinished = true
            }
            means.withUnsafeBufferPointer { means in
                deviations.withUnsafeMutableBufferPointer { m2 in
                    for frame in 0..<frameCount {
                        let row = frame * bins
                        for bin in 0..<bins {
                            let deviation = Double(frames[row + bin]) - means[bin]
                            m2[bin] += deviation * deviation
                        }
                    }
                }
            }
        }
    }
}
