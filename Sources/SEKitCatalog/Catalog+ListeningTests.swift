import Foundation
import GRDB

extension Catalog {
    /// A rater's row with its ratings, as ``storeListening(test:stimuli:raters:)`` stores them.
    package typealias RaterWithRatings = (rater: ListeningRaterRecord, ratings: [ListeningRatingRecord])

    /// Why ``storeListening(test:stimuli:raters:)`` stored nothing.
    package enum ListeningStoreRefusal: Error, Sendable {
        /// The catalogue holds another test of that name: its stimuli hash.
        case otherTestOfThatName(storedStimuliHash: String)
        /// The rater at this index of `raters` is stored already.
        case raterAlreadyStored(index: Int)
    }

    /// Stores `raters` of listening test `test` (its row and `stimuli` first, when the test is new)
    /// in one transaction: all of them or none.
    /// - Returns: nil when stored, else why nothing was.
    package func storeListening(test: ListeningTestRecord, stimuli: [ListeningStimulusRecord],
                                raters: [RaterWithRatings]) throws(CatalogError) -> ListeningStoreRefusal? {
        var refusal: ListeningStoreRefusal?
        do {
            try write { db in
                if let stored = try ListeningTestRecord.fetchOne(db, key: test.name) {
                    guard stored.stimuliHash == test.stimuliHash else {
                        refusal = .otherTestOfThatName(storedStimuliHash: stored.stimuliHash)
                        throw refusal!
                    }
                } else {
                    try test.insert(db)
                    for stimulus in stimuli { try stimulus.insert(db) }
                }
                for (index, entry) in raters.enumerated() {
                    if try entry.rater.exists(db) {
                        refusal = .raterAlreadyStored(index: index)
                        throw refusal!
                    }
                    try entry.rater.insert(db)
                    for rating in entry.ratings { try rating.insert(db) }
                }
            }
        } catch {
            if let refusal { return refusal }
            throw error
        }
        return nil
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

    /// Every row of listening test `name`: the test, its stimuli (by id), raters (by name) and
    /// ratings, and the distinct values of parameter `ruleKey` among the score runs it compared.
    /// Nil when there is no such test.
    package func listeningTestRows(named name: String, ruleKey: String) throws(CatalogError)
        -> (test: ListeningTestRecord, stimuli: [ListeningStimulusRecord], raters: [ListeningRaterRecord],
            ratings: [ListeningRatingRecord], ruleValues: [String])?
    {
        try read { db in
            guard let test = try ListeningTestRecord.fetchOne(db, key: name) else { return nil }
            let stimuli = try ListeningStimulusRecord.filter(ListeningStimulusRecord.Columns.test == name)
                .order(ListeningStimulusRecord.Columns.id).fetchAll(db)
            let raters = try ListeningRaterRecord.filter(ListeningRaterRecord.Columns.test == name)
                .order(ListeningRaterRecord.Columns.rater).fetchAll(db)
            let ratings = try ListeningRatingRecord.filter(ListeningRatingRecord.Columns.test == name).fetchAll(db)
            let rules = try String.fetchAll(db, sql: """
                SELECT DISTINCT p.value_text FROM params p
                WHERE p.key = ? AND p.run_id IN (SELECT score_run_id FROM listening_stimuli WHERE test = ?)
                """, arguments: [ruleKey, name])
            return (test, stimuli, raters, ratings, rules)
        }
    }
}
