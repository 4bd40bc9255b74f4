import Foundation

/// One rater's ratings read from a results file, checked against the test.
public struct RaterRatings: Sendable, Equatable {
    /// One score.
    public struct Rating: Sendable, Equatable {
        public var stimulus: String
        public var scale: String
        public var score: Double
        public var seconds: Double?
    }

    public var rater: String
    /// The file the ratings came from.
    public var source: String
    public var ratings: [Rating]
}

/// The results file the test page downloads (`results-RATER.json`).
public struct ListeningResultsFile: Codable, Sendable {
    public static let formatName = "sekit-listening-results"

    /// One score as the page writes it.
    public struct Rating: Codable, Sendable {
        public var trial: String
        public var stimulus: String
        public var condition: String
        public var file: String
        public var scale: String
        public var score: Double
        public var seconds: Double?
    }

    public var format: String
    public var version: Int
    public var test: String
    public var kind: String
    public var stimuliHash: String
    public var rater: String
    public var startedAt: String?
    public var finishedAt: String?
    public var ratings: [Rating]
}

/// Reads results files (the page's JSON, webMUSHRA's `mushra.csv`) and checks them against the
/// test's manifest: the stimuli hash, every stimulus the test's (with its condition and file), every
/// score in range and every stimulus rated once on every scale.
public enum ListeningResultsReader {
    /// The columns of webMUSHRA's `mushra.csv` that are read.
    public static let mushraColumns = ["session_test_id", "session_uuid", "trial_id", "rating_stimulus", "rating_score", "rating_time"]

    /// The raters of one results file.
    /// - Throws: ``ListenError`` naming the file: unreadable, another test's, tampered, a rating out
    ///   of range, incomplete, or a rater twice in it.
    public static func read(_ url: URL, manifest: ListeningTestManifest) throws -> [RaterRatings] {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ListenError.badResults(path: url.path, reason: "cannot be read")
        }
        if url.pathExtension.lowercased() == "csv" { return try readMushraCSV(data, path: url.path, manifest: manifest) }
        let file: ListeningResultsFile
        do { file = try JSONDecoder().decode(ListeningResultsFile.self, from: data) } catch {
            throw ListenError.badResults(path: url.path, reason: "not a results file of a `sekit listen` page: \(error)")
        }
        guard file.format == ListeningResultsFile.formatName else {
            throw ListenError.badResults(path: url.path, reason: "format is \(file.format), not \(ListeningResultsFile.formatName)")
        }
        guard file.stimuliHash == manifest.stimuliHash else {
            throw ListenError.otherTest(path: url.path, expectedHash: manifest.stimuliHash, foundHash: file.stimuliHash)
        }
        let stimuli = Dictionary(uniqueKeysWithValues: manifest.allStimuli.map { ($0.stimulus.id, $0.stimulus) })
        for rating in file.ratings {
            guard let stimulus = stimuli[rating.stimulus] else {
                throw ListenError.tampered(path: url.path, reason: "stimulus \(rating.stimulus) is not in the test")
            }
            guard stimulus.condition == rating.condition, stimulus.file == rating.file else {
                throw ListenError.tampered(
                    path: url.path,
                    reason: "stimulus \(rating.stimulus) played \(rating.file) as \(rating.condition); "
                        + "the test has \(stimulus.file) as \(stimulus.condition)")
            }
        }
        let rater = RaterRatings(
            rater: file.rater, source: url.path,
            ratings: file.ratings.map {
                .init(stimulus: $0.stimulus, scale: $0.scale, score: $0.score, seconds: $0.seconds)
            })
        try check(rater, manifest: manifest, path: url.path)
        return [rater]
    }

    /// webMUSHRA's `mushra.csv`: one row per rating, raters by `session_uuid`, pages by `trial_id`
    /// (the clip id), stimuli by condition (`reference` is the hidden reference); `rating_time` in ms.
    static func readMushraCSV(_ data: Data, path: String, manifest: ListeningTestManifest) throws -> [RaterRatings] {
        guard manifest.test == .mushra else {
            throw ListenError.badResults(
                path: path, reason: "a webMUSHRA result belongs to a MUSHRA test; this test is \(manifest.test.rawValue)")
        }
        // A UTF-8 byte-order mark (spreadsheet programs write one) is not part of the first column's name.
        let text = String(decoding: data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...], as: UTF8.self)
        let rows = CSVField.parse(text)
        guard let header = rows.first?.map({ $0.trimmingCharacters(in: .whitespaces) }) else {
            throw ListenError.badResults(path: path, reason: "empty")
        }
        let columns = try mushraColumns.map { name in
            guard let index = header.firstIndex(of: name) else {
                throw ListenError.badResults(
                    path: path, reason: "no column \(name) (a webMUSHRA mushra.csv has \(mushraColumns.joined(separator: ", ")))")
            }
            return index
        }
        let stimuli = Set(manifest.allStimuli.map(\.stimulus.id))
        var byRater: [String: [RaterRatings.Rating]] = [:]
        var order: [String] = []
        for (line, row) in rows.dropFirst().enumerated() where !(row.count == 1 && row[0].isEmpty) {
            guard row.count >= header.count else {
                throw ListenError.badResults(path: path, reason: "row \(line + 2) has \(row.count) fields")
            }
            let field = { (c: Int) in row[columns[c]].trimmingCharacters(in: .whitespaces) }
            guard field(0) == manifest.name else {
                throw ListenError.badResults(
                    path: path, reason: "row \(line + 2): session_test_id \(field(0)) is not this test (\(manifest.name))")
            }
            let stimulus = "\(field(2))/\(field(3))"
            guard stimuli.contains(stimulus) else {
                throw ListenError.tampered(path: path, reason: "row \(line + 2): page \(field(2)) stimulus \(field(3)) is not in the test")
            }
            guard let score = Double(field(4)) else {
                throw ListenError.badResults(path: path, reason: "row \(line + 2): rating_score \(field(4)) is not a number")
            }
            let rater = field(1)
            if byRater[rater] == nil { order.append(rater) }
            byRater[rater, default: []].append(
                .init(stimulus: stimulus, scale: "mushra", score: score, seconds: Double(field(5)).map { $0 / 1000 }))
        }
        guard !order.isEmpty else { throw ListenError.badResults(path: path, reason: "no ratings") }
        return try order.map { rater in
            let ratings = RaterRatings(rater: rater, source: path, ratings: byRater[rater]!)
            try check(ratings, manifest: manifest, path: path)
            return ratings
        }
    }

    /// Scores in range (whole numbers on the category scales), each stimulus rated once on every scale.
    static func check(_ rater: RaterRatings, manifest: ListeningTestManifest, path: String) throws {
        guard !rater.rater.isEmpty else { throw ListenError.badResults(path: path, reason: "no rater id") }
        let kind = manifest.test
        var seen = Set<String>()
        for rating in rater.ratings {
            guard kind.scales.contains(rating.scale) else {
                throw ListenError.badResults(
                    path: path, reason: "rater \(rater.rater): scale \(rating.scale) is not one of \(kind.scales.joined(separator: ", "))")
            }
            guard kind.range.contains(rating.score), kind == .mushra || rating.score.rounded() == rating.score else {
                throw ListenError.badResults(
                    path: path,
                    reason: "rater \(rater.rater): rating \(rating.score) of \(rating.stimulus) is out of range "
                        + "(\(kind.rawValue): \(ReportNumber.fixed(kind.range.lowerBound, decimals: 0)) to "
                        + "\(ReportNumber.fixed(kind.range.upperBound, decimals: 0))\(kind == .mushra ? "" : ", whole numbers"))")
            }
            if let seconds = rating.seconds, !(seconds.isFinite && seconds >= 0) {
                throw ListenError.badResults(
                    path: path, reason: "rater \(rater.rater): the time spent on \(rating.stimulus) is \(seconds) s (a time is at least 0)")
            }
            guard seen.insert("\(rating.stimulus)\t\(rating.scale)").inserted else {
                throw ListenError.badResults(
                    path: path, reason: "rater \(rater.rater) rated \(rating.stimulus) twice on the \(rating.scale) scale "
                        + "(a duplicated row?); each stimulus is rated once per scale")
            }
        }
        let expected = manifest.allStimuli.count * kind.scales.count
        guard seen.count == expected else {
            throw ListenError.badResults(
                path: path,
                reason: "rater \(rater.rater) rated \(seen.count) of the test's \(expected) stimuli and scales; "
                    + "import complete results only")
        }
    }
}
