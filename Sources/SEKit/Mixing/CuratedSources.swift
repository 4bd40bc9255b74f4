import Foundation

/// Mix inputs `corpus:NAME where EXPR`: the files of a corpus analysed by `sekit catalog analyze`
/// that the filter `EXPR` keeps (the catalogue's filter language over `source_analysis`'s columns),
/// in path order. `corpus:NAME` alone is every file of the analysed corpus analysed without error
/// when the catalogue has an analysed corpus of that name, else (as before analyses existed) the
/// corpus imported by `sekit catalog import`. Speakers come from the imported sources of the same path.
///
/// Each kept file is hashed again: one whose bytes changed since its analysis is refused by name.
/// The selections are collected (``selections``) so that the mix run records what each input kept and
/// left out, and why (``runParams``).
public final class CuratedSources: @unchecked Sendable {
    /// One input's selection, as recorded in the run.
    public struct Selection: Sendable, Codable, Equatable {
        public var input: String
        public var kind: String
        public var corpus: String
        public var filter: String?
        public var kept: Int
        public var excluded: Int
        public var excludedFiles: [AnalysedSourceSelection.Exclusion]

        enum CodingKeys: String, CodingKey {
            case input, kind, corpus, filter, kept, excluded, excludedFiles = "excluded_files"
        }
    }

    let catalog: Catalog
    let jobs: Int
    private let lock = NSLock()
    private var made: [Selection] = []

    /// Selections made so far, in the order the inputs were resolved.
    public var selections: [Selection] { lock.withLock { made } }

    public init(catalog: Catalog, jobs: Int = 1) { self.catalog = catalog; self.jobs = max(1, jobs) }

    /// `text` (an input without its `corpus:` prefix) split into the corpus name and the filter.
    /// - Throws: ``MixError/invalidOption(name:value:reason:)`` when it is neither `NAME` nor `NAME where EXPR`.
    public static func parse(_ text: String, option: String) throws -> (name: String, filter: String?) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let space = trimmed.firstIndex(where: \.isWhitespace) else { return (trimmed, nil) }
        let name = String(trimmed[..<space])
        let rest = trimmed[space...].drop(while: \.isWhitespace)
        let keyword = rest.prefix { !$0.isWhitespace }
        let filter = rest.dropFirst(keyword.count).trimmingCharacters(in: .whitespacesAndNewlines)
        guard keyword.lowercased() == "where", !filter.isEmpty else {
            throw MixError.invalidOption(name: option, value: MixRun.corpusPrefix + text,
                                         reason: "write corpus:NAME or corpus:NAME where CONDITION "
                                             + "(e.g. bandwidth_hz >= 7000 and dnsmos_bak >= 3)")
        }
        return (name, filter)
    }

    /// The files of the input `corpus:text` of `kind` (path, key inside the corpus, speaker).
    /// - Throws: ``MixError`` for an unknown corpus, a filter that keeps nothing or a changed file;
    ///   `CatalogError.filter(expression:column:reason:)` for a bad filter or unknown column.
    public func resolve(_ text: String, kind: MixSource.Kind) throws -> [(path: String, key: String, speaker: String?)] {
        let option = kind.rawValue
        let (name, filter) = try Self.parse(text, option: option)
        let sourceKind = SourceKind(rawValue: kind.rawValue)!
        let analysed = try catalog.analysedCorpus(name) != nil
        if filter == nil && !analysed {
            return try catalog.sources(kind: sourceKind, corpus: name).map { ($0.path, $0.relativePath, $0.speaker) }
        }
        guard analysed else {
            throw MixError.invalidOption(name: option, value: MixRun.corpusPrefix + text, reason: "the catalogue has no corpus '\(name)': "
                + "neither \(kind.rawValue) files imported with `sekit catalog import` nor a corpus analysed with `sekit catalog analyze`")
        }
        let selection = try catalog.selectAnalysedSources(corpus: name, filter: filter)
        guard !selection.kept.isEmpty else {
            let first = selection.excluded.first.map { ": \($0.path) \($0.reason)" } ?? ""
            throw MixError.invalidOption(name: option, value: MixRun.corpusPrefix + text,
                                         reason: "keeps none of the \(selection.excluded.count) analysed files of corpus '\(name)'\(first)")
        }
        try Self.checkUnchanged(selection.kept, option: option, jobs: jobs)
        lock.withLock {
            made.append(Selection(input: MixRun.corpusPrefix + text, kind: kind.rawValue, corpus: name, filter: filter,
                                  kept: selection.kept.count, excluded: selection.excluded.count, excludedFiles: selection.excluded))
        }
        // Speakers of files also imported (`catalog import --speaker-pattern`), by path.
        var speakers: [String: String] = [:]
        for source in try catalog.sources(kind: sourceKind) { if let speaker = source.speaker { speakers[source.path] = speaker } }
        return selection.kept.map { ($0.path, $0.relativePath, speakers[$0.path]) }
    }

    /// Refuses a kept file that is missing or whose bytes changed since it was analysed.
    static func checkUnchanged(_ records: [SourceAnalysisRecord], option: String, jobs: Int) throws {
        let hashes = ParallelMap.map(records, jobs: jobs) { record in try? SHA256.hex(ofFileAt: URL(fileURLWithPath: record.path)) }
        for (record, hash) in zip(records, hashes) where hash != record.sha256 {
            let now = hash.map { "its SHA-256 is now \($0), was \(record.sha256) when analysed" } ?? "it cannot be read"
            throw MixError.invalidOption(name: option, value: record.path,
                                         reason: "changed since `sekit catalog analyze` (\(now)); analyse corpus '\(record.corpus)' again")
        }
    }

    /// The run parameters recording the selections: `curated_sources` (JSON: per input its corpus,
    /// filter, counts and every excluded file with the reason), `curated_sources_kept` and
    /// `curated_sources_excluded` (totals). Empty when no input selected from an analysed corpus.
    public var runParams: [String: String] {
        let all = selections
        guard !all.isEmpty, let json = try? ReportJSON.text(all, style: .compact) else { return [:] }
        return ["curated_sources": json.trimmingCharacters(in: .newlines),
                "curated_sources_kept": "\(all.map(\.kept).reduce(0, +))",
                "curated_sources_excluded": "\(all.map(\.excluded).reduce(0, +))"]
    }
}
