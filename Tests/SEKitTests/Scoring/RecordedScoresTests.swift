import Foundation
import GRDB
import Testing
@testable import SEKit
@testable import SEKitSignal

/// A recorded score run is read back in scoring order (corpus clip index, clips without a `clips`
/// row last by id) from its rows in primary-key order, and its aggregates are recomputed from the
/// same order.
@Suite struct RecordedScoresTests {
    @Test func scoringOrderSortsByIndexWithMissingIndexesLastAndTiesInReadOrder() {
        #expect(RecordedScores.scoringOrder([0, 1, 2, nil, nil]) == nil)
        #expect(RecordedScores.scoringOrder([]) == nil)
        #expect(RecordedScores.scoringOrder([3, nil, 1, 1, nil, 0]) == [5, 2, 3, 0, 1, 4])
    }

    /// Clip ids whose byte order is not their index order, a clip id without a run prefix, a scored
    /// clip without a `clips` row under the run's prefix and one outside it, and degradations on one
    /// clip: `load` gives the order of the former query (a join sorted by clip index, then clip id),
    /// and `recomputeRunMetrics` writes the aggregates `sekit score` computes from that order.
    @Test func readsInScoringOrderAndRecomputesTheSameAggregates() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("catalog.sqlite"))
        let mix = try catalog.beginRun(kind: .mix, name: "corpus", commandLine: ["sekit", "mix"])
        let prefix = mix.rawValue + "/"
        // Index order: z (0), b (1), other (2), m (3), a (4): neither byte order nor Swift's.
        let named = [(prefix + "c-z", 0, 5.0), (prefix + "c-b", 1, -5.0), ("other-clip", 2, 0.0), (prefix + "c-m", 3, 5.0), (prefix + "c-a",
                                                                                                                             4, 10.0)]
        let clips = named.map { id, index, snr in
            var clip = CatalogTestSupport.clip(mix, index: index, split: index % 2 == 0 ? "train" : "test", snrDB: snr)
            clip.id = id
            return clip
        }
        let degradations = [ClipDegradationRecord(clipID: prefix + "c-b", position: 0, stage: "codec", kind: "mp3"),
                            ClipDegradationRecord(clipID: prefix + "c-b", position: 1, stage: "packet-loss", kind: "packet-loss")]
        _ = try catalog.insertClips(clips, degradations: (degradations, []))
        let score = try catalog.beginRun(kind: .score, name: "enhanced", commandLine: ["sekit", "score"],
                                         params: ["metrics": "snr,sisdr", "corpus": folder.file("corpus").path], parent: mix)
        var rows: [ClipScoreRecord] = []
        for (position, id) in (named.map(\.0) + [prefix + "c-gone", "loose.wav"]).enumerated() {
            rows.append(ClipScoreRecord(runID: score, clipID: id, metric: "snr", value: Double(position) * 1.5,
                                        noisyValue: Double(position) - 3))
            rows.append(ClipScoreRecord(runID: score, clipID: id, metric: "sisdr", value: position == 3 ? nil : Double(position * position),
                                        noisyValue: 0.25 * Double(position), error: position == 3 ? "silent output" : nil))
        }
        try catalog.insertClipScores(rows)

        let expectedOrder = try catalog.read { db in
            try String.fetchAll(db, sql: """
                SELECT s.clip_id FROM clip_scores s LEFT JOIN clips c ON c.id = s.clip_id WHERE s.run_id = ? AND s.metric = 'snr'
                ORDER BY c.clip_index IS NULL, c.clip_index, s.clip_id
                """, arguments: [score])
        }
        #expect(expectedOrder == [prefix + "c-z", prefix + "c-b", "other-clip", prefix + "c-m", prefix + "c-a", prefix + "c-gone",
                                  "loose.wav"])
        let (metrics, loaded) = try RecordedScores.load(run: score, from: catalog)
        #expect(metrics == [.snr, .sisdr])
        let ids = loaded.map(\.pair.clipID)
        #expect(Array(ids.prefix(2)) == ["c-z", "c-b"] && Array(ids.suffix(4)) == ["c-m", "c-a", prefix + "c-gone", "loose.wav"])
        #expect(loaded.map(\.pair.corpusIndex) == [0, 1, 2, 3, 4, nil, nil])
        #expect(loaded.map(\.pair.snrDB) == [5, -5, 0, 5, 10, nil, nil])
        #expect(loaded.map(\.pair.degradations) == [[], ["mp3", "packet-loss"], [], [], [], [], []])
        #expect(loaded[3].metricErrors[.sisdr] == "silent output" && loaded[3].enhanced[.snr] == 4.5)

        try catalog.writing { session in try RecordedScores.recomputeRunMetrics(session, run: score) }
        let recorded = try catalog.read { db in
            try RunMetricRecord.filter(Column("run_id") == score.rawValue).order(Column("metric"), Column("subset")).fetchAll(db)
        }
        let expected = ScoreCatalogRecorder.runMetricRecords(ScoreSummary.aggregate(loaded, metrics: metrics), run: score)
            .sorted { ($0.metric, $0.subset) < ($1.metric, $1.subset) }
        #expect(!recorded.isEmpty)
        #expect(recorded == expected)
    }

    /// Without degradations on any scored clip, every clip's kinds are nil (the corpus has none).
    @Test func aCorpusWithoutDegradationsHasNoKinds() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("catalog.sqlite"))
        let mix = try catalog.beginRun(kind: .mix, commandLine: ["sekit", "mix"])
        var clip = CatalogTestSupport.clip(mix, index: 0)
        clip.id = mix.rawValue + "/c-0"
        _ = try catalog.insertClips([clip])
        let score = try catalog.beginRun(kind: .score, commandLine: ["sekit", "score"], params: ["metrics": "snr"], parent: mix)
        try catalog.insertClipScores([ClipScoreRecord(runID: score, clipID: clip.id, metric: "snr", value: 3)])
        let (_, loaded) = try RecordedScores.load(run: score, from: catalog)
        #expect(loaded.map(\.pair.degradations) == [nil])
        #expect(loaded.map(\.pair.clipID) == ["c-0"])
    }
}
