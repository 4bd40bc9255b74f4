import Foundation

/// Which objective metric agrees with the listeners (`sekit listen correlate`): for every metric
/// that every run's score run holds, the Pearson, Spearman and Kendall correlations (95% Fisher-z
/// intervals, `Correlation`) between the listeners' scores and the metric, at clip level (one point
/// per clip and run: the mean over kept raters against the run's value for the clip) and at system
/// level (one point per run: the means over the test's clips), and the RMSE of the metric as a
/// predictor after the third-order mapping of ITU-T P.1401 (`PolynomialMapping`), plain and
/// epsilon-insensitive (P.1401 §7.3: each listeners' score's 95% confidence interval is its epsilon).
///
/// The listeners' score is the test's scale (P.835: `ovrl`). Anchors and the reference have no
/// score run and are left out; clips where a metric failed are left out of that metric's rows.
public struct ListeningCorrelation: Sendable, Codable {
    /// One metric at one level.
    public struct Row: Sendable, Codable, Equatable {
        public var metric: String
        /// `clip` or `system`.
        public var level: String
        public var pearson: CorrelationEstimate?
        public var spearman: CorrelationEstimate?
        public var kendall: CorrelationEstimate?
        /// RMSE after the third-order mapping, on the listeners' scale; nil with 4 points or fewer.
        public var rmseMapped: Double?
        /// P.1401's epsilon-insensitive RMSE after the same mapping (rmse*: errors inside a point's
        /// 95% interval count as 0); nil with 4 points or fewer, or where a point has no interval (one rater).
        public var rmseStar: Double?
        public var n: Int
    }

    /// One point of a scatter plot: a clip of a run (clip level) or a run (system level).
    public struct Point: Sendable, Codable, Equatable {
        public var condition: String
        public var clip: String?
        public var listeners: Double
        public var metric: Double
        /// Half-width of the listeners' score's 95% Student-t interval over the kept raters' votes
        /// (clip level: the stimulus's; system level: all of the run's votes on the clips that count);
        /// nil with one vote.
        public var ci95: Double?
    }

    public var test: String
    public var scale: String
    public var rows: [Row]
    /// Metric → clip-level points.
    public var clipPoints: [String: [Point]]
    /// Metric → system-level points.
    public var systemPoints: [String: [Point]]

    /// Correlates `test` with the metrics of its runs' score runs in `catalog`.
    /// - Throws: catalogue errors; ``ListenError/badTest(path:reason:)`` when no rater is kept.
    public init(_ test: StoredListeningTest, catalog: Catalog) throws {
        self.test = test.name
        scale = test.kind.scales.last!
        rows = []
        clipPoints = [:]
        systemPoints = [:]
        let table = ListeningTable(test)
        guard !table.raters.isEmpty else {
            throw ListenError.badTest(path: "test \(test.name)", reason: "screening excluded every rater; there is nothing to correlate")
        }
        let means = table.stimulusMeans(scale: scale)
        let votes = table.values(scale: scale)
        let cells = table.trials.count * table.conditions.count
        let runColumns = table.conditions.indices.filter { table.isRun[$0] }
        var scores: [Int: RunScores] = [:]
        for c in runColumns {
            guard let id = table.scoreRunIDs[c], let run = try? catalog.run(id) else { continue }
            scores[c] = try RunScores.load(of: run, from: catalog)
        }
        guard scores.count == runColumns.count, let first = scores.values.first else { return }
        var metrics = first.metrics.filter { metric in scores.values.allSatisfy { $0.values[metric] != nil } }
        metrics.sort()
        for metric in metrics {
            var clip: [Point] = []
            var system: [Point] = []
            for c in runColumns {
                let run = scores[c]!
                let index = run.indexOfClip
                var listenerSum = 0.0
                var metricSum = 0.0
                var count = 0
                var runVotes: [Double] = []
                for (t, clipID) in table.trialClips.enumerated() {
                    guard let i = index[clipID], let value = run.values[metric]?[i], value.isFinite else { continue }
                    let cell = t * table.conditions.count + c
                    let listeners = means[cell]
                    let stimulusVotes = table.raters.indices.map { votes[$0 * cells + cell] }
                    runVotes += stimulusVotes
                    clip.append(
                        Point(
                            condition: table.conditions[c], clip: clipID, listeners: listeners, metric: value,
                            ci95: Self.halfWidth(stimulusVotes)))
                    listenerSum += listeners
                    metricSum += value
                    count += 1
                }
                if count > 0 {
                    system.append(
                        Point(
                            condition: table.conditions[c], clip: nil, listeners: listenerSum / Double(count),
                            metric: metricSum / Double(count), ci95: Self.halfWidth(runVotes)))
                }
            }
            clipPoints[metric] = clip
            systemPoints[metric] = system
            rows.append(Self.row(metric: metric, level: "clip", points: clip))
            rows.append(Self.row(metric: metric, level: "system", points: system))
        }
    }

    static func row(metric: String, level: String, points: [Point]) -> Row {
        let x = points.map(\.metric)
        let y = points.map(\.listeners)
        let mapping = try? PolynomialMapping(x: x, y: y)
        let intervals = points.compactMap(\.ci95)
        let rmseStar = intervals.count == points.count ? try? mapping?.epsilonInsensitiveRMSE(x: x, y: y, ci95: intervals) : nil
        return Row(
            metric: metric, level: level, pearson: try? Correlation.pearson(x, y), spearman: try? Correlation.spearman(x, y),
            kendall: try? Correlation.kendall(x, y), rmseMapped: mapping?.rmse, rmseStar: rmseStar, n: points.count)
    }

    /// Half-width of the 95% Student-t interval of the mean of `votes`; nil when it is undefined
    /// (one vote, or a missing one).
    static func halfWidth(_ votes: [Double]) -> Double? {
        let summary = Summary(values: votes)
        let half = (summary.ci95High - summary.ci95Low) / 2
        return half.isFinite ? half : nil
    }
}
