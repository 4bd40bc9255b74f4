/// The resampling loops of ``Bootstrap``: allocation-free inner loops over unsafe buffers, one
/// bounded draw per row, all columns of a drawn row added at once.
extension Bootstrap {
    /// Lanes of one SIMD accumulator: a row of up to 8 columns is one 64-byte load.
    typealias Lanes = SIMD8<Double>

    /// The resampled means of every column, resample-major (resample r's columns at
    /// r·columnCount ...). Inputs are validated by the caller.
    static func resampledMeans(rows: [Double], columnCount: Int, resamples: Int, seed: UInt64, jobs: Int) -> [Double] {
        let rowCount = rows.count / columnCount
        // Rows padded with zeros to whole SIMD vectors: a row is `chunks` aligned loads.
        let chunks = (columnCount + Lanes.scalarCount - 1) / Lanes.scalarCount
        let padded = {
            var padded = [Lanes](repeating: Lanes(), count: rowCount * chunks)
            for row in 0..<rowCount {
                for c in 0..<columnCount {
                    padded[row * chunks + c / Lanes.scalarCount][c % Lanes.scalarCount] = rows[row * columnCount + c]
                }
            }
            return padded
        }()
        let blocks = Array(0..<((resamples + blockSize - 1) / blockSize))
        let perBlock = ParallelMap.map(blocks, jobs: jobs) { block -> [Double] in
            let count = min(blockSize, resamples - block * blockSize)
            var rng = generator(seed: seed, block: block)
            var means = [Double](repeating: 0, count: count * columnCount)
            var sums = [Lanes](repeating: Lanes(), count: 2 * chunks)
            padded.withUnsafeBufferPointer { table in
                sums.withUnsafeMutableBufferPointer { sums in
                    means.withUnsafeMutableBufferPointer { means in
                        for r in 0..<count {
                            sumOfDrawnRows(table, chunks: chunks, rowCount: rowCount, sums: sums, rng: &rng)
                            for c in 0..<columnCount {
                                let chunk = c / Lanes.scalarCount, lane = c % Lanes.scalarCount
                                means[r * columnCount + c] = (sums[chunk][lane] + sums[chunks + chunk][lane]) / Double(rowCount)
                            }
                        }
                    }
                }
            }
            return means
        }
        return Array(perBlock.joined())
    }

    /// Draws `rowCount` rows of `table` and adds them up: draws alternate between two sets of
    /// accumulators (`sums[0 ..< chunks]` for even draws, `sums[chunks ..< 2·chunks]` for odd),
    /// two independent chains of additions for the processor to overlap.
    @inline(__always)
    private static func sumOfDrawnRows(_ table: UnsafeBufferPointer<Lanes>, chunks: Int, rowCount: Int,
                                       sums: UnsafeMutableBufferPointer<Lanes>, rng: inout SplitMix64) {
        let bound = UInt64(rowCount)
        if chunks == 1 {
            // Up to 8 columns: the accumulators stay in registers.
            var even = Lanes(), odd = Lanes()
            var k = 0
            while k + 2 <= rowCount {
                even += table[rng.nextIndex(below: bound)]
                odd += table[rng.nextIndex(below: bound)]
                k += 2
            }
            if k < rowCount { even += table[rng.nextIndex(below: bound)] }
            sums[0] = even
            sums[1] = odd
            return
        }
        for i in 0..<sums.count { sums[i] = Lanes() }
        for k in 0..<rowCount {
            let row = rng.nextIndex(below: bound) * chunks
            let accumulator = (k & 1) * chunks
            for chunk in 0..<chunks { sums[accumulator + chunk] += table[row + chunk] }
        }
    }
}
