import Foundation

/// What `sekit listen import` does, as one library entry point: read the test folder's manifest
/// (checked against its audio), read and check every results file first, screen each rater, then
/// store each file's raters and ratings in one transaction of its own.
public enum ListenImportJob {
    /// The test folder and the results files.
    public struct Request: Sendable {
        public var testFolder: URL
        public var results: [URL]
        /// The test's name in the catalogue (default: the name `listen make` gave it, its folder's name unless `--name`).
        public var name: String?

        public init(testFolder: URL, results: [URL]) {
            self.testFolder = testFolder
            self.results = results
        }
    }

    /// A rater as imported.
    public struct ImportedRater: Sendable, Codable, Equatable {
        public var rater: String
        public var file: String
        /// The screening rule that excluded the rater, nil when kept.
        public var rule: String?
    }

    /// What was imported.
    public struct Outcome: Sendable {
        public var test: String
        public var raters: [ImportedRater]
        public var run: RecordedRun
    }

    /// Imports the results.
    /// - Throws: ``ListenError`` for a bad test folder or results file, or a rater already in the
    ///   catalogue or in two files: all found before anything is stored; catalogue errors.
    public static func run(_ request: Request, context: RunContext) throws -> Outcome {
        guard let catalog = context.catalog else {
            throw ListenError.invalidOption(name: "catalog", value: "", reason: "listen import stores the ratings in a catalogue")
        }
        guard !request.results.isEmpty else {
            throw ListenError.invalidOption(name: "results", value: "", reason: "name at least one results file")
        }
        let manifest = try ListeningTestManifest.read(folder: request.testFolder)
        let name = request.name ?? manifest.name
        // Every file read and checked before any is stored.
        var files: [[RaterRatings]] = []
        var raters = try catalog.listeningRaters(test: name)
        for url in request.results {
            let read = try ListeningResultsReader.read(url, manifest: manifest)
            for rater in read where !raters.insert(rater.rater).inserted {
                throw ListenError.duplicateRater(path: url.path, rater: rater.rater, test: name)
            }
            files.append(read)
        }
        let params = ["test": name, "folder": request.testFolder.standardizedFileURL.path, "files": "\(request.results.count)"]
        let recorded = try RecordedRun.begin(context, kind: .other, name: "listen-import \(name)", params: params)
        return try recorded.failing {
            var imported: [ImportedRater] = []
            for raters in files {
                let rules = raters.map { ListeningScreening.exclusion($0, manifest: manifest) }
                try catalog.storeListening(name: name, folder: request.testFolder, manifest: manifest, raters: raters, exclusions: rules)
                imported += zip(raters, rules).map { ImportedRater(rater: $0.rater, file: $0.source, rule: $1) }
            }
            try recorded.finish(params: ["raters": "\(imported.count)", "raters_excluded": "\(imported.filter { $0.rule != nil }.count)"])
            return Outcome(test: name, raters: imported, run: recorded)
        }
    }
}
