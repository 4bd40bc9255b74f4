import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

@Suite struct BootstrapTests {
    /// 200 clips × 5 metrics of per-clip differences, some columns shifted.
    static func table(rows: Int = 200, columns: Int = 5, seed: UInt64 = 5) -> [Double] {
        var s = SampleSource(seed: seed)
        return (0..<rows * columns).map { i in s.normal() + Double(i % columns) * 0.1 }
    }

    @Test func sameSeedSameIntervalsOtherSeedOtherIntervals() throws {
        let rows = Self.table()
        let a = try Bootstrap.meanIntervals(rows: rows, columnCount: 5, resamples: 1000, seed: 42)
        let b = try Bootstrap.meanIntervals(rows: rows, columnCount: 5, resamples: 1000, seed: 42)
        let c = try Bootstrap.meanIntervals(rows: rows, columnCount: 5, resamples: 1000, seed: 43)
        #expect(a == b)
        #expect(a.count == 5)
        for (x, y) in zip(a, c) { #expect(x != y) }
        for (c, interval) in a.enumerated() {
            let mean = stride(from: c, to: rows.count, by: 5).map { rows[$0] }.reduce(0, +) / 200
            #expect(interval.low < mean && mean < interval.high, "column \(c): \(interval) around \(mean)")
        }
    }

    /// Fixed blocks of resamples with their own generators: the bits do not depend on the number
    /// of worker threads, and the first resamples do not depend on how many follow.
    @Test func resultsDoNotDependOnWorkersOrOnLaterResamples() throws {
        let rows = Self.table(rows: 97, columns: 3)
        let resamples = 7 * Bootstrap.blockSize + 104
        let one = Bootstrap.resampledMeans(rows: rows, columnCount: 3, resamples: resamples, seed: 9, jobs: 1)
        for jobs in [2, 3, 8] {
            #expect(Bootstrap.resampledMeans(rows: rows, columnCount: 3, resamples: resamples, seed: 9, jobs: jobs) == one, "jobs \(jobs)")
            #expect(try Bootstrap.meanIntervals(rows: rows, columnCount: 3, resamples: resamples, seed: 9, jobs: jobs)
                    == Bootstrap.meanIntervals(rows: rows, columnCount: 3, resamples: resamples, seed: 9, jobs: 1))
        }
        let fewer = Bootstrap.resampledMeans(rows: rows, columnCount: 3, resamples: 300, seed: 9, jobs: 2)
        #expect(fewer == Array(one[0..<(300 * 3)]))
        let x = Array(rows[0..<(40 * 3)]), y = Array(rows[(40 * 3)...])
        let differences = try Bootstrap.differenceOfMeansIntervals(x: x, y: y, columnCount: 3, resamples: resamples, seed: 9, jobs: 1)
        for jobs in [2, 5] {
            #expect(try Bootstrap.differenceOfMeansIntervals(x: x, y: y, columnCount: 3, resamples: resamples, seed: 9,
                                                             jobs: jobs) == differences)
        }
        // A column's unpaired interval is the one-column interval of that column.
        let column = { (table: [Double], c: Int) in stride(from: c, to: table.count, by: 3).map { table[$0] } }
        #expect(try Bootstrap.differenceOfMeansInterval(x: column(x, 1), y: column(y, 1), resamples: resamples, seed: 9) == differences[1])
    }

    /// A column's interval is the same bits whether it is bootstrapped alone or with others
    /// (up to 8 columns share one SIMD row, more take several).
    @Test func columnsDoNotAffectEachOther() throws {
        for columns in [5, 11] {
            let rows = Self.table(rows: 61, columns: columns)
            let all = try Bootstrap.meanIntervals(rows: rows, columnCount: columns, resamples: 500, seed: 3)
            for c in [0, columns - 1] {
                let alone = try Bootstrap.meanInterval(stride(from: c, to: rows.count, by: columns).map { rows[$0] }, resamples: 500,
                                                       seed: 3)
                #expect(alone == all[c], "\(columns) columns, column \(c)")
            }
        }
    }

    /// The documented layout: resample 0 of block b draws its rows from
    /// `SplitMix64(seed: childSeed(seed, index: b, stream: Bootstrap.stream))`, one bounded draw per row.
    @Test func resamplesFollowTheDocumentedGenerators() throws {
        let rows = Self.table(rows: 50, columns: 2)
        let means = Bootstrap.resampledMeans(rows: rows, columnCount: 2, resamples: 2 * Bootstrap.blockSize, seed: 77, jobs: 2)
        for block in 0..<2 {
            var rng = SplitMix64(seed: SplitMix64.childSeed(77, index: UInt64(block), stream: Bootstrap.stream))
            var sums = [0.0, 0.0]
            for _ in 0..<50 {
                let row = rng.nextIndex(below: 50)
                sums[0] += rows[row * 2]
                sums[1] += rows[row * 2 + 1]
            }
            let first = block * Bootstrap.blockSize * 2
            #expect(abs(means[first] - sums[0] / 50) < 1e-12 && abs(means[first + 1] - sums[1] / 50) < 1e-12)
        }
    }

    /// Pins what seed 2024 means, so a change to the generator, the draws or the block layout
    /// (which would silently change every reported interval) fails here.
    @Test func seedMeaningIsPinned() throws {
        let rows = Self.table(rows: 30, columns: 2, seed: 1)
        let intervals = try Bootstrap.meanIntervals(rows: rows, columnCount: 2, resamples: 1000, seed: 2024)
        let difference = try Bootstrap.differenceOfMeansInterval(x: Array(rows[0..<30]), y: Array(rows[30..<60]),
                                                                  resamples: 1000, seed: 2024)
        let bits = intervals.flatMap { [$0.low.bitPattern, $0.high.bitPattern] } + [difference.low.bitPattern, difference.high.bitPattern]
        #expect(bits == [13_818_015_402_209_607_356, 4_603_219_824_119_206_595, 13_823_931_724_100_888_258, 4_601_350_186_723_598_337,
                         13_825_628_142_906_006_083, 4_603_198_671_400_736_918],
                "\(intervals), \(difference)")
    }

    @Test func boundedDrawsStayInRangeAndAreUniform() {
        var rng = SplitMix64(seed: 1)
        for _ in 0..<1000 { #expect(rng.nextIndex(below: 1) == 0) }
        let huge = UInt64(1) << 63 + 12345   // most draws of the first try are rejected
        for _ in 0..<1000 { #expect(UInt64(rng.nextIndex(below: huge)) < huge) }
        var counts = [0, 0, 0]
        for _ in 0..<30_000 { counts[rng.nextIndex(below: 3)] += 1 }
        // Each count ~ Binomial(30000, 1/3): SD ≈ 81.6; allow 4 SDs.
        for count in counts { #expect(abs(count - 10_000) < 330, "\(counts)") }
    }

    /// The interval ends equal `numpy.percentile(stats, [50 − 50c, 50 + 50c])` (default linear
    /// method) of the resampled statistics, to the last bit, for odd and even resample counts.
    @Test(.enabled(if: PythonReference.available, "run through scripts/test.sh"))
    func percentilesMatchNumpy() throws {
        let rows = Self.table(rows: 40, columns: 1)
        struct Case: Codable { let stats: [Double]; let confidence: Double }
        var cases: [Case] = []
        for (resamples, confidence) in [(1, 0.95), (2, 0.95), (999, 0.95), (10_000, 0.95), (1000, 0.99), (1001, 0.9), (77, 0.5), (5000,
                                                                                                                                  0.8)] {
            cases.append(Case(stats: Bootstrap.resampledMeans(rows: rows, columnCount: 1, resamples: resamples, seed: 11, jobs: 2),
                              confidence: confidence))
        }
        let references = try JSONReference.run("""
        import sys, json, numpy as np
        out = []
        for case in json.load(open(sys.argv[1])):
            c = case['confidence']
            out.append([float(v) for v in np.percentile(np.asarray(case['stats']), [50 - 50 * c, 50 + 50 * c])])
        print(json.dumps(out))
        """, input: cases, as: [[Double]].self)
        for (c, reference) in zip(cases, references) {
            let interval = Bootstrap.percentileIntervals(c.stats, columnCount: 1, confidence: c.confidence)[0]
            #expect(interval.low == reference[0] && interval.high == reference[1],
                    "\(c.stats.count) resamples at \(c.confidence): \(interval) vs numpy \(reference)")
        }
    }

    /// Coverage by simulation: for n = 30 draws from N(μ, σ²), the percentile interval of the
    /// mean covers μ with probability ≈ P(|T₂₉| ≤ z₀.₉₇₅·√(29/30)) ≈ 0.936 (the bootstrap spreads the
    /// mean by the plug-in σ̂√((n−1)/n)/√n and uses normal, not t, quantiles), which tends to
    /// 0.95 as n grows. Over 600 trials (800 resamples each, to stay within seconds in a debug
    /// build) the observed rate must lie within 3 binomial standard deviations (±3.0 points) of
    /// that; the nominal 0.95 is inside the same band.
    @Test func meanIntervalCoversTheTrueMeanAtTheExpectedRate() throws {
        let trials = 600, n = 30, mu = 1.3
        var s = SampleSource(seed: 95)
        let samples = (0..<trials).map { _ in s.normals(n, mean: mu, sd: 2) }
        let covered = try samples.enumerated().filter { trial, values in
            try Bootstrap.meanInterval(values, resamples: 800, seed: UInt64(trial)).contains(mu)
        }.count
        let expected = 2 * StudentT.cdf(1.959963984540054 * (29.0 / 30).squareRoot(), degreesOfFreedom: 29) - 1
        let bound = 3 * (expected * (1 - expected) / Double(trials)).squareRoot()
        let rate = Double(covered) / Double(trials)
        #expect(abs(rate - expected) <= bound, "coverage \(rate), expected \(expected) ± \(bound)")
    }

    /// The same for mean(y) − mean(x) of two independent samples of 30 (Welch's t with about 58
    /// degrees of freedom in place of T₂₉: expected ≈ 0.941).
    @Test func differenceIntervalCoversTheTrueDifferenceAtTheExpectedRate() throws {
        let trials = 1000, n = 30
        var s = SampleSource(seed: 58)
        var covered = 0
        for trial in 0..<trials {
            let x = s.normals(n, mean: 0, sd: 1), y = s.normals(n, mean: 0.5, sd: 1)
            if try Bootstrap.differenceOfMeansInterval(x: x, y: y, resamples: 1000, seed: UInt64(trial)).contains(0.5) { covered += 1 }
        }
        let expected = 2 * StudentT.cdf(1.959963984540054 * (29.0 / 30).squareRoot(), degreesOfFreedom: 58) - 1
        let bound = 3 * (expected * (1 - expected) / Double(trials)).squareRoot()
        let rate = Double(covered) / Double(trials)
        #expect(abs(rate - expected) <= bound, "coverage \(rate), expected \(expected) ± \(bound)")
    }

    @Test func differenceIsYMinusX() throws {
        var s = SampleSource(seed: 4)
        let x = s.normals(50, mean: 0), y = s.normals(80, mean: 3)
        let interval = try Bootstrap.differenceOfMeansInterval(x: x, y: y, resamples: 500, seed: 1)
        #expect(interval.low > 2 && interval.high < 4, "\(interval)")
        #expect(try Bootstrap.differenceOfMeansInterval(x: x, y: y, resamples: 500, seed: 1) == interval)
        #expect(try Bootstrap.differenceOfMeansInterval(x: [2], y: [5], resamples: 10, seed: 1) == BootstrapInterval(low: 3, high: 3))
    }

    @Test func edgeCases() throws {
        // One row: every resample is that row.
        #expect(try Bootstrap.meanIntervals(rows: [1.5, -2], columnCount: 2, resamples: 50, seed: 1)
                == [BootstrapInterval(low: 1.5, high: 1.5), BootstrapInterval(low: -2, high: -2)])
        // Constant columns: a degenerate interval at the constant.
        #expect(try Bootstrap.meanInterval([0.25, 0.25, 0.25], resamples: 50, seed: 1) == BootstrapInterval(low: 0.25, high: 0.25))
        #expect(throws: StatisticsError.empty(parameter: "rows")) { try Bootstrap.meanIntervals(rows: [], columnCount: 5, seed: 1) }
        #expect(throws: StatisticsError.nonFinite(parameter: "rows", index: 3, value: .infinity)) {
            try Bootstrap.meanIntervals(rows: [1, 2, 3, .infinity], columnCount: 2, seed: 1)
        }
        #expect(throws: StatisticsError.self) { try Bootstrap.meanIntervals(rows: [1, .nan], columnCount: 1, seed: 1) }
        #expect(throws: StatisticsError.self) { try Bootstrap.meanIntervals(rows: [1, 2, 3], columnCount: 2, seed: 1) }
        #expect(throws: StatisticsError.self) { try Bootstrap.meanIntervals(rows: [1, 2], columnCount: 0, seed: 1) }
        #expect(throws: StatisticsError.self) { try Bootstrap.meanInterval([1, 2], resamples: 0, seed: 1) }
        #expect(throws: StatisticsError.self) { try Bootstrap.meanInterval([1, 2], confidence: 1, seed: 1) }
        #expect(throws: StatisticsError.self) { try Bootstrap.meanInterval([1, 2], seed: 1, jobs: 0) }
        #expect(throws: StatisticsError.empty(parameter: "y")) { try Bootstrap.differenceOfMeansInterval(x: [1], y: [], seed: 1) }
    }
}
