import Foundation

/// `sekit catalog analyze`: every audio file of a corpus folder measured (``SourceMeasures``, and
/// DNSMOS P.835 SIG/BAK/OVRL through SEKit's Python worker) and stored in the catalogue's
/// `source_analysis` table, where the mix's `corpus:NAME where ...` inputs select from it.
///
/// The analysis does not depend on what the files are used for: a folder mixing speech and noise
/// is accepted, and the kind comes from the mix input (`--speech`, `--noise`, `--rir`) that names it.
public enum SourceAnalysisJob {
    /// What to analyse.
    public struct Request: Sendable {
        /// The corpus folder (walked recursively, as the mix walks its input folders).
        public var folder: URL
        /// The corpus name (default: the folder's name).
        public var name: String?
        /// Run DNSMOS (needs SEKit's Python environment with `speechmos`).
        public var dnsmos = true
        /// Worker threads (the results do not depend on it).
        public var jobs = 1

        public init(folder: URL, name: String? = nil) { self.folder = folder; self.name = name }
    }

    /// A file that could not be analysed, and why.
    public struct Failure: Sendable, Equatable {
        public var path: String
        public var reason: String
    }

    /// What an analysis did.
    public struct Report: Sendable, Equatable {
        public var corpus: String
        public var folder: String
        /// Audio files in the folder.
        public var files = 0
        /// Files measured now (new, changed, or earlier failures).
        public var analysed = 0
        /// Files whose bytes (SHA-256) and path are as analysed before: kept as they were.
        public var unchanged = 0
        /// Rows of files no longer in the folder, removed.
        public var removed = 0
        /// Files that could not be analysed (or scored by DNSMOS): path and reason, also recorded in the row.
        public var failures: [Failure] = []
        /// Why DNSMOS did not run when it was asked for (the Python environment is missing or broken).
        public var dnsmosUnavailable: String?

        /// One summary line.
        public var text: String {
            var line = "analysed corpus '\(corpus)' (\(folder)): \(files) files, \(analysed) analysed, \(unchanged) unchanged, "
                + "\(removed) removed, \(failures.count) failed"
            if let dnsmosUnavailable { line += "; DNSMOS not run: \(dnsmosUnavailable)" }
            return line
        }
    }

    /// DNSMOS's outputs stored per file.
    static let dnsmosMetrics: [Metric] = [.dnsmosSIG, .dnsmosBAK, .dnsmosOVRL]
    /// The computation of the `dnsmos` metric.
    static var dnsmosDescriptor: MetricDescriptor { MetricRegistry.descriptor(named: "dnsmos")! }

    /// Analyses the folder and records it in `catalog` (one transaction at the end).
    /// - Parameter pythonPool: the Python workers for DNSMOS (nil: a pool of its own).
    /// - Throws: `CatalogError.invalidParameter(name:value:reason:)` when the folder is missing, not a
    ///   folder, or holds no audio; catalogue errors. Per-file failures are reported, not thrown.
    public static func run(_ request: Request, catalog: Catalog, pythonPool: PythonWorkerPool? = nil,
                           progress: ProgressHandler? = nil) throws -> Report {
        let folder = request.folder.standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CatalogError.invalidParameter(name: "CORPUS", value: request.folder.path, reason: "no such folder")
        }
        let name = request.name ?? folder.lastPathComponent
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty, !name.contains(" ") else {
            throw CatalogError.invalidParameter(name: "name", value: name, reason: "a corpus name is one word (it is written corpus:NAME)")
        }
        let found: [(path: String, key: String)]
        do { found = try SourceDiscovery.files(in: folder.path, option: "CORPUS") } catch {
            throw CatalogError.invalidParameter(name: "CORPUS", value: folder.path, reason: "\(error)")
        }
        let prefix = folder.lastPathComponent + "/"
        let files = found.map { (path: $0.path, relative: String($0.key.dropFirst(prefix.count))) }
        var report = Report(corpus: name, folder: folder.path, files: files.count)
        let previous = Dictionary(try catalog.analysedSources(corpus: name).map { ($0.relativePath, $0) }, uniquingKeysWith: { a, _ in a })
        let hashes: [Result<String, Error>] = ParallelMap.map(files, jobs: request.jobs) { file in
            Result { try SHA256.hex(ofFileAt: URL(fileURLWithPath: file.path)) }
        }
        var todo: [(path: String, relative: String, sha256: String?)] = []
        for (file, hash) in zip(files, hashes) {
            let sha = try? hash.get()
            if let sha, let old = previous[file.relative], old.sha256 == sha, old.path == file.path, old.error == nil,
               !request.dnsmos || old.dnsmosBAK != nil {
                report.unchanged += 1
            } else {
                todo.append((file.path, file.relative, sha))
            }
        }
        var corpus = try catalog.analysedCorpus(name) ?? AnalysedCorpusRecord(name: name, folder: folder.path, analysedAt: Date(),
                                                                             toolVersion: SEKitVersion.string)
        (corpus.folder, corpus.analysedAt, corpus.toolVersion) = (folder.path, Date(), SEKitVersion.string)
        let pool = pythonPool ?? PythonWorkerPool()
        var runDNSMOS = request.dnsmos && !todo.isEmpty
        if runDNSMOS {
            let python = MetricRegistry.pythonPackages(for: dnsmosMetrics)
            do {
                let backend = try pool.describe(packages: python.packages, models: python.models, for: python.metrics,
                                                warming: min(request.jobs, todo.count) - 1)
                corpus.dnsmosBackend = try? ReportJSON.text(backend.runParams, style: .compact).trimmingCharacters(in: .newlines)
            } catch {
                report.dnsmosUnavailable = "\(error)"
                runDNSMOS = false
            }
        }
        let now = Date()
        let records = ParallelMap.map(todo, jobs: request.jobs, progress: progress, workerState: { MetricWorkspace(pythonPool: pool) }) {
            file, workspace in
            analyse(path: file.path, relative: file.relative, sha256: file.sha256, corpus: name, dnsmos: runDNSMOS,
                    workspace: workspace, at: now)
        }
        report.analysed = records.count
        for record in records { if let error = record.error { report.failures.append(Failure(path: record.path, reason: error)) } }
        let present = Set(files.map(\.relative))
        let removed = previous.keys.filter { !present.contains($0) }.sorted()
        report.removed = removed.count
        try catalog.recordAnalysis(corpus, changed: records, removed: removed)
        return report
    }

    /// One file's row: its measures, or the reason it has none.
    static func analyse(path: String, relative: String, sha256: String?, corpus: String, dnsmos: Bool,
                        workspace: MetricWorkspace, at date: Date) -> SourceAnalysisRecord {
        let unread = String(repeating: "0", count: 64)
        var record = SourceAnalysisRecord(corpus: corpus, relativePath: relative, path: path, sha256: sha256 ?? unread,
                                          analysedAt: date)
        do {
            guard sha256 != nil else { throw CatalogError.file(path: path, reason: "cannot be read") }
            let m = try SourceMeasures.measure(URL(fileURLWithPath: path))
            (record.sampleRate, record.durationSeconds, record.bandwidthHz) = (m.sampleRate, m.durationSeconds, m.bandwidthHz)
            (record.activeSpeechRatio, record.clippingRatio, record.dcOffset) = (m.activeSpeechRatio, m.clippingRatio, m.dcOffset)
            (record.levelDBFS, record.rmsDBFS) = (m.levelDBFS, m.rmsDBFS)
        } catch {
            record.error = "\(error)"
            return record
        }
        guard dnsmos else { return record }
        do {
            // As `sekit score` computes the `dnsmos` metric of a file scored on its own.
            let buffer = try AudioFile.read(at: URL(fileURLWithPath: path))
            let values = try dnsmosDescriptor.compute(MetricComparison(processed: buffer.samples, sampleRate: buffer.sampleRate),
                                                      workspace: workspace)
            (record.dnsmosSIG, record.dnsmosBAK, record.dnsmosOVRL) = (values[.dnsmosSIG], values[.dnsmosBAK], values[.dnsmosOVRL])
        } catch {
            record.error = "dnsmos: \(error)"
        }
        return record
    }
}
