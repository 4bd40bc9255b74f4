import Foundation
import GRDB

extension Catalog {
    /// The analysed corpus `name`, nil when it was never analysed.
    public func analysedCorpus(_ name: String) throws(CatalogError) -> AnalysedCorpusRecord? {
        try read { db in try AnalysedCorpusRecord.fetchOne(db, key: name) }
    }

    /// The files of the analysed corpus `name`, in path order (by `relative_path`).
    public func analysedSources(corpus name: String) throws(CatalogError) -> [SourceAnalysisRecord] {
        try read { db in
            try SourceAnalysisRecord.filter(SourceAnalysisRecord.Columns.corpus == name)
                .order(SourceAnalysisRecord.Columns.relativePath).fetchAll(db)
        }
    }

    /// Records an analysis of a corpus in one transaction: the corpus row, the rows in `changed`
    /// (inserted or replacing the row of the same path), and removes the rows of `removed` paths
    /// (files no longer in the folder). Rows not named stay as they are.
    public func recordAnalysis(_ corpus: AnalysedCorpusRecord, changed: [SourceAnalysisRecord],
                               removed: [String]) throws(CatalogError) {
        try write { db in
            try corpus.save(db)
            for path in removed {
                _ = try SourceAnalysisRecord.deleteOne(db, key: ["corpus": corpus.name, "relative_path": path])
            }
            for record in changed { try record.save(db) }
        }
    }

    /// The files of the analysed corpus `name` that `filter` (the filter language over
    /// `source_analysis`'s columns, ``CatalogFilter/Context/sourceAnalysis``) keeps, in path order,
    /// and the others with the reason each was left out: the conditions of the filter's top-level
    /// `and` it fails, with the file's values, or its analysis error. Without a filter every file
    /// analysed without error is kept.
    /// - Throws: ``CatalogError/filter(expression:column:reason:)`` for a bad filter or unknown column.
    public func selectAnalysedSources(corpus name: String, filter: String?) throws(CatalogError) -> AnalysedSourceSelection {
        let records = try analysedSources(corpus: name)
        var conditions: [CatalogFilter.Condition] = []
        if let filter { conditions = try CatalogFilter.conditions(of: filter, context: .sourceAnalysis) }
        let failing: [String: [String]] = try read { db in
            var failing: [String: [String]] = [:]
            for condition in conditions {
                let sql = "SELECT relative_path FROM source_analysis WHERE corpus = ? AND NOT coalesce(\(condition.compiled.sql), 0)"
                var arguments: StatementArguments = [name]
                arguments += condition.compiled.arguments
                for path in try String.fetchAll(db, sql: sql, arguments: arguments) { failing[path, default: []].append(condition.text) }
            }
            return failing
        }
        var selection = AnalysedSourceSelection(corpus: name, filter: filter)
        for record in records {
            if let error = record.error {
                selection.excluded.append(.init(path: record.path, reason: "not analysed: \(error)"))
            } else if let failed = failing[record.relativePath] {
                let reasons = failed.map { "\($0) (\(Self.values(of: $0, in: record)))" }
                selection.excluded.append(.init(path: record.path, reason: "fails " + reasons.joined(separator: "; ")))
            } else {
                selection.kept.append(record)
            }
        }
        return selection
    }

    /// `name = value` for each column of `source_analysis` named in `condition`, comma-separated
    /// (`null` for a missing value), in the order the columns are named.
    package static func values(of condition: String, in record: SourceAnalysisRecord) -> String {
        let row: [String: Any?] = [
            "sample_rate": record.sampleRate, "duration_seconds": record.durationSeconds, "bandwidth_hz": record.bandwidthHz,
            "active_speech_ratio": record.activeSpeechRatio, "clipping_ratio": record.clippingRatio, "dc_offset": record.dcOffset,
            "level_dbfs": record.levelDBFS, "rms_dbfs": record.rmsDBFS, "dnsmos_sig": record.dnsmosSIG, "dnsmos_bak": record.dnsmosBAK,
            "dnsmos_ovrl": record.dnsmosOVRL, "path": record.path, "relative_path": record.relativePath, "sha256": record.sha256,
            "error": record.error,
        ]
        let words = condition.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map { $0.lowercased() }
        var seen: [String] = []
        for word in words where row.keys.contains(word) && !seen.contains(word) { seen.append(word) }
        return seen.map { key in
            switch row[key] ?? nil {
            case let number as Double: "\(key) = \(number)"
            case let number as Int: "\(key) = \(number)"
            case let text as String: "\(key) = '\(text)'"
            default: "\(key) is null"
            }
        }.joined(separator: ", ")
    }
}

/// What `corpus:NAME where ...` selected from an analysed corpus: the files kept (path order) and
/// those left out, each with its reason. Recorded in the mix run (`curated_sources`).
public struct AnalysedSourceSelection: Sendable, Equatable {
    /// A file left out, and why (the failed conditions with the file's values, or its analysis error).
    public struct Exclusion: Sendable, Codable, Equatable {
        public var path: String
        public var reason: String
    }

    public var corpus: String
    public var filter: String?
    public var kept: [SourceAnalysisRecord] = []
    public var excluded: [Exclusion] = []
}
