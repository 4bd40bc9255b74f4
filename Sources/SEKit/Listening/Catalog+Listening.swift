import Foundation
import GRDB

extension Catalog {
    /// Stores `raters` of the test in `manifest` (its row and stimuli first, when new) in one
    /// transaction: all of them or none.
    /// - Parameters:
    ///   - name: the test's name in the catalogue.
    ///   - folder: the test folder.
    ///   - exclusions: the screening rule that excludes each rater (nil: kept), in the order of `raters`.
    /// - Throws: ``ListenError/duplicateRater(path:rater:test:)`` for a rater already stored;
    ///   ``ListenError/invalidOption(name:value:reason:)`` when the catalogue holds another test of that name.
    func storeListening(
        name: String, folder: URL, manifest: ListeningTestManifest, raters: [RaterRatings],
        exclusions: [String?]
    ) throws {
        var inner: ListenError?
        do {
            try write { db in
                do {
                    try Self.insertTestIfNew(db, name: name, folder: folder, manifest: manifest)
                    for (rater, rule) in zip(raters, exclusions) {
                        if try Row.fetchOne(
                            db, sql: "SELECT 1 FROM listening_raters WHERE test = ? AND rater = ?",
                            arguments: [name, rater.rater]) != nil
                        {
                            throw ListenError.duplicateRater(path: rater.source, rater: rater.rater, test: name)
                        }
                        try db.execute(
                            sql: "INSERT INTO listening_raters (test, rater, source, excluded, rule) VALUES (?, ?, ?, ?, ?)",
                            arguments: [name, rater.rater, rater.source, rule == nil ? 0 : 1, rule])
                        let insert = try db.makeStatement(
                            sql: """
                                INSERT INTO listening_ratings (test, rater, stimulus, scale, score, time_seconds) VALUES (?, ?, ?, ?, ?, ?)
                                """)
                        for rating in rater.ratings {
                            try insert.execute(arguments: [name, rater.rater, rating.stimulus, rating.scale, rating.score, rating.seconds])
                        }
                    }
                } catch let error as ListenError {
                    inner = error
                    throw error
                }
            }
        } catch {
            if let inner { throw inner }
            throw error
        }
    }

    private static func insertTestIfNew(_ db: Database, name: String, folder: URL, manifest: ListeningTestManifest) throws {
        if let hash = try String.fetchOne(db, sql: "SELECT stimuli_hash FROM listening_tests WHERE name = ?", arguments: [name]) {
            guard hash == manifest.stimuliHash else {
                throw ListenError.invalidOption(
                    name: "name", value: name,
                    reason: "the catalogue holds another test of that name (stimuli hash \(hash.prefix(12))…); choose another --name")
            }
            return
        }
        try db.execute(
            sql: "INSERT INTO listening_tests (name, kind, folder, stimuli_hash, seed, imported_at) VALUES (?, ?, ?, ?, ?, ?)",
            arguments: [
                name, manifest.test.rawValue, folder.standardizedFileURL.path, manifest.stimuliHash,
                Int64(bitPattern: manifest.seed), ISO8601DateFormatter().string(from: Date()),
            ])
        let runIDs = Dictionary(uniqueKeysWithValues: manifest.runs.map { ($0.name, $0.id) })
        let insert = try db.makeStatement(
            sql: """
                INSERT INTO listening_stimuli (test, id, trial, clip_id, condition, role, score_run_id, snr_db, file, sha256)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        for (trial, stimulus) in manifest.allStimuli {
            try insert.execute(arguments: [
                name, stimulus.id, trial.id, trial.clip, stimulus.condition, trial.role,
                runIDs[stimulus.condition], trial.snrDB, stimulus.file, stimulus.sha256,
            ])
        }
    }

    /// The raters stored for test `name` (none when there is no such test).
    public func listeningRaters(test name: String) throws(CatalogError) -> Set<String> {
        try read { db in Set(try String.fetchAll(db, sql: "SELECT rater FROM listening_raters WHERE test = ?", arguments: [name])) }
    }

    /// The names of the listening tests that rated one of `runs` (score run ids), sorted.
    public func listeningTests(involving runs: [String]) throws(CatalogError) -> [String] {
        guard !runs.isEmpty else { return [] }
        let marks = Array(repeating: "?", count: runs.count).joined(separator: ", ")
        return try read { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT test FROM listening_stimuli WHERE score_run_id IN (\(marks)) ORDER BY test",
                                arguments: StatementArguments(runs))
        }
    }

    /// The names of the listening tests in the catalogue, sorted.
    public func listeningTestNames() throws(CatalogError) -> [String] {
        try read { db in try String.fetchAll(db, sql: "SELECT name FROM listening_tests ORDER BY name") }
    }

    /// Everything stored of test `name` (or of the only test when `name` is nil).
    /// - Throws: ``ListenError/unknownTest(name:known:)``; catalogue errors.
    public func listeningTest(_ name: String?) throws -> StoredListeningTest {
        let known = try listeningTestNames()
        let chosen: String
        if let name {
            guard known.contains(name) else { throw ListenError.unknownTest(name: name, known: known) }
            chosen = name
        } else {
            guard known.count == 1 else { throw ListenError.unknownTest(name: "", known: known) }
            chosen = known[0]
        }
        return try read { db in
            let test = try Row.fetchOne(
                db, sql: "SELECT kind, folder, stimuli_hash, seed FROM listening_tests WHERE name = ?", arguments: [chosen])!
            var stored = StoredListeningTest(
                name: chosen, kind: ListeningTestKind(rawValue: test[0])!, folder: test[1], stimuliHash: test[2],
                seed: UInt64(bitPattern: test[3]))
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT id, trial, clip_id, condition, role, score_run_id, snr_db FROM listening_stimuli WHERE test = ? ORDER BY id
                    """, arguments: [chosen])
            {
                stored.stimuli.append(
                    .init(
                        id: row[0], trial: row[1], clipID: row[2], condition: row[3], role: row[4], scoreRunID: row[5],
                        snrDB: row[6]))
            }
            for row in try Row.fetchAll(
                db, sql: "SELECT rater, excluded, rule, source FROM listening_raters WHERE test = ? ORDER BY rater",
                arguments: [chosen])
            {
                stored.raters.append(.init(rater: row[0], excluded: row[1], rule: row[2], source: row[3]))
            }
            // The SNR subset rule the compared score runs recorded, when they agree on one.
            let rules = try String.fetchAll(db, sql: """
                SELECT DISTINCT p.value_text FROM params p
                WHERE p.key = ? AND p.run_id IN (SELECT score_run_id FROM listening_stimuli WHERE test = ?)
                """, arguments: [SNRSubsetRule.recordKey, chosen])
            stored.snrRule = rules.count == 1 ? SNRSubsetRule(rawValue: rules[0]) : nil
            let cursor = try Row.fetchCursor(
                db, sql: "SELECT rater, stimulus, scale, score FROM listening_ratings WHERE test = ?", arguments: [chosen])
            while let row = try cursor.next() {
                stored.ratings.append(.init(rater: row[0], stimulus: row[1], scale: row[2], score: row[3]))
            }
            return stored
        }
    }
}

/// A listening test as the catalogue holds it.
public struct StoredListeningTest: Sendable {
    /// A stimulus row.
    public struct Stimulus: Sendable, Codable {
        public var id, trial, clipID, condition, role: String
        public var scoreRunID: String?
        public var snrDB: Double?
    }
    /// A rater row.
    public struct Rater: Sendable, Codable {
        public var rater: String
        public var excluded: Bool
        public var rule: String?
        public var source: String
    }
    /// A rating row.
    public struct Rating: Sendable {
        public var rater, stimulus, scale: String
        public var score: Double
    }

    public var name: String
    public var kind: ListeningTestKind
    public var folder: String
    public var stimuliHash: String
    public var seed: UInt64
    public var stimuli: [Stimulus] = []
    public var raters: [Rater] = []
    public var ratings: [Rating] = []
    /// How the trials' SNRs form subsets: the rule the compared score runs recorded (nil: none
    /// recorded, or they differ).
    public var snrRule: SNRSubsetRule? = nil
}
