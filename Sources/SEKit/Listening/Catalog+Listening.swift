import Foundation

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
        let test = ListeningTestRecord(name: name, kind: manifest.test.rawValue, folder: folder.standardizedFileURL.path,
                                       stimuliHash: manifest.stimuliHash, seed: Int64(bitPattern: manifest.seed),
                                       importedAt: ISO8601DateFormatter().string(from: Date()))
        let runIDs = Dictionary(uniqueKeysWithValues: manifest.runs.map { ($0.name, $0.id) })
        let stimuli = manifest.allStimuli.map { trial, stimulus in
            ListeningStimulusRecord(test: name, id: stimulus.id, trial: trial.id, clipID: trial.clip, condition: stimulus.condition,
                                    role: trial.role, scoreRunID: runIDs[stimulus.condition], snrDB: trial.snrDB,
                                    file: stimulus.file, sha256: stimulus.sha256)
        }
        let rows = zip(raters, exclusions).map { rater, rule in
            (rater: ListeningRaterRecord(test: name, rater: rater.rater, source: rater.source, excluded: rule != nil, rule: rule),
             ratings: rater.ratings.map {
                 ListeningRatingRecord(test: name, rater: rater.rater, stimulus: $0.stimulus, scale: $0.scale, score: $0.score,
                                       timeSeconds: $0.seconds)
             })
        }
        switch try storeListening(test: test, stimuli: stimuli, raters: rows) {
        case nil: return
        case .otherTestOfThatName(let hash)?:
            throw ListenError.invalidOption(
                name: "name", value: name,
                reason: "the catalogue holds another test of that name (stimuli hash \(hash.prefix(12))…); choose another --name")
        case .raterAlreadyStored(let index)?:
            throw ListenError.duplicateRater(path: raters[index].source, rater: raters[index].rater, test: name)
        }
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
        guard let rows = try listeningTestRows(named: chosen, ruleKey: SNRSubsetRule.recordKey) else {
            throw ListenError.unknownTest(name: chosen, known: known)
        }
        var stored = StoredListeningTest(
            name: chosen, kind: ListeningTestKind(rawValue: rows.test.kind)!, folder: rows.test.folder,
            stimuliHash: rows.test.stimuliHash, seed: UInt64(bitPattern: rows.test.seed))
        stored.stimuli = rows.stimuli.map {
            .init(id: $0.id, trial: $0.trial, clipID: $0.clipID, condition: $0.condition, role: $0.role, scoreRunID: $0.scoreRunID,
                  snrDB: $0.snrDB)
        }
        stored.raters = rows.raters.map { .init(rater: $0.rater, excluded: $0.excluded, rule: $0.rule, source: $0.source) }
        stored.ratings = rows.ratings.map { .init(rater: $0.rater, stimulus: $0.stimulus, scale: $0.scale, score: $0.score) }
        // The SNR subset rule the compared score runs recorded, when they agree on one.
        stored.snrRule = rows.ruleValues.count == 1 ? SNRSubsetRule(rawValue: rows.ruleValues[0]) : nil
        return stored
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
