import Foundation

/// Normalisation statistics taken from another feature file (`sekit features --stats-from`): a
/// test or validation export normalised with the training export's statistics, never its own.
struct CopiedStatistics {
    /// Per stream, as stored in the source.
    let statistics: [String: FeatureStatistics]
    /// The split they describe (the source's `/stats/STREAM` `split` attribute).
    let split: String

    /// Reads the statistics of `streams` from `source`, after checking that its values were made
    /// as this export's will be (``FeatureFileAttributes/analysisDifferences(from:)``).
    /// - Throws: ``FeatureFileError/invalidParameter(name:value:reason:)`` (`stats-from`) naming the
    ///   attribute that differs, with both values, or the stream without statistics.
    static func read(from source: URL, streams: [String], bins: Int, matching ours: FeatureFileAttributes)
        throws(FeatureFileError) -> CopiedStatistics {
        func refuse(_ reason: String) -> FeatureFileError { .invalidParameter(name: "stats-from", value: source.path, reason: reason) }
        let reader = try FeatureFileReader(url: source)
        let theirs = try FeatureFileAttributes(reading: reader.attributes, path: source.path)
        let differences = theirs.analysisDifferences(from: ours)
        guard differences.isEmpty else {
            let listed = differences.map { "\($0.name) is \($0.ours) there, \($0.theirs) in this export" }
            throw refuse("its statistics describe other values: " + listed.joined(separator: "; "))
        }
        let stored = try reader.statisticsStreams()
        var statistics: [String: FeatureStatistics] = [:], splits: Set<String> = []
        for stream in streams {
            guard stored.contains(stream) else {
                throw refuse("no statistics for stream '\(stream)' (it has: \(stored.joined(separator: ", ")))")
            }
            let s = try reader.statistics(stream: stream)
            guard s.mean.count == bins else { throw refuse("/stats/\(stream) has \(s.mean.count) bins, this export \(bins)") }
            statistics[stream] = FeatureStatistics(count: s.count, mean: s.mean, standardDeviation: s.standardDeviation)
            splits.insert(s.split)
        }
        guard splits.count <= 1 else { throw refuse("its streams' statistics describe different splits (\(splits.sorted()))") }
        return CopiedStatistics(statistics: statistics, split: splits.first ?? "")
    }
}
