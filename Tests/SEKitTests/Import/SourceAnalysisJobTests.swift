import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// `catalog analyze` into a real SQLite catalogue: values against known answers, re-analysis, the
/// selection of `corpus:NAME where ...`, and DNSMOS equal to the `dnsmos` metric.
@Suite struct SourceAnalysisJobTests {
    static let rate = 16000

    /// A corpus of synthetic files with known answers, and one that is not audio.
    static func makeCorpus(_ folder: TemporaryFolder) throws -> (clipped: [Float], dc: [Float]) {
        let wide = EffectiveBandwidthTests.bandLimitedNoise(seconds: 2, sampleRate: rate, cutoffHz: 9000, seed: 1)
        try TestWAV.writeFloat32(wide, sampleRate: rate, to: folder.file("corpus/wide.wav"))
        let narrow = EffectiveBandwidthTests.bandLimitedNoise(seconds: 2, sampleRate: rate, cutoffHz: 4000, seed: 2)
        try TestWAV.writeFloat32(narrow, sampleRate: rate, to: folder.file("corpus/narrow.wav"))
        // A tone for one second, then one second of silence; its loudest quarter driven into clipping.
        let clipped: [Float] = (0..<(2 * rate)).map { i in
            guard i < rate else { return 0 }
            return Float(max(-1, min(1, 1.6 * sin(2 * Double.pi * 440 * Double(i) / Double(rate)))))
        }
        try TestWAV.writeFloat32(clipped, sampleRate: rate, to: folder.file("corpus/sub/clipped.wav"))
        let dc = narrow.map { $0 * 0.3 + 0.25 }
        try TestWAV.writeFloat32(dc, sampleRate: rate, to: folder.file("corpus/dc.wav"))
        try Data("not audio".utf8).write(to: folder.file("corpus/bad.wav"))
        return (clipped, dc)
    }

    func rows(_ catalog: Catalog) throws -> [String: SourceAnalysisRecord] {
        Dictionary(uniqueKeysWithValues: try catalog.analysedSources(corpus: "corpus").map { ($0.relativePath, $0) })
    }

    @Test func measuresEachFileAndReanalysesOnlyWhatChanged() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        try FileManager.default.createDirectory(at: folder.file("corpus/sub"), withIntermediateDirectories: true)
        let (clipped, dc) = try Self.makeCorpus(folder)
        let catalog = try Catalog.open(at: folder.file("catalog.sqlite"))
        var request = SourceAnalysisJob.Request(folder: folder.file("corpus"))
        request.dnsmos = false
        request.jobs = 2
        let first = try SourceAnalysisJob.run(request, catalog: catalog)
        #expect((first.files, first.analysed, first.unchanged, first.removed) == (5, 5, 0, 0))
        #expect(first.failures.map { ($0.path as NSString).lastPathComponent } == ["bad.wav"])
        let row = try rows(catalog)
        #expect(row.keys.sorted() == ["bad.wav", "dc.wav", "narrow.wav", "sub/clipped.wav", "wide.wav"])
        #expect(row["bad.wav"]?.error != nil && row["bad.wav"]?.bandwidthHz == nil)
        #expect(row["wide.wav"]?.bandwidthHz == 8000)
        let narrow = try #require(row["narrow.wav"]?.bandwidthHz)
        #expect(narrow >= 4000 && narrow <= 4000 + 4 * EffectiveBandwidthTests.bin16k)
        // Clipping: the samples at |x| >= 0.999, counted here.
        let clippedCount = clipped.filter { abs($0) >= 0.999 }.count
        #expect(row["sub/clipped.wav"]?.clippingRatio == Double(clippedCount) / Double(clipped.count))
        // Half the file is a tone: P.56 counts about half of it active (its 0.2 s hangover adds a little).
        let active = try #require(row["sub/clipped.wav"]?.activeSpeechRatio)
        #expect(active > 0.45 && active < 0.65, "\(active)")
        let mean = dc.reduce(0.0) { $0 + Double($1) } / Double(dc.count)
        #expect(abs(row["dc.wav"]!.dcOffset! - mean) < 1e-9)
        let meanSquare = dc.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(dc.count)
        #expect(abs(row["dc.wav"]!.rmsDBFS! - 10 * log10(meanSquare)) < 1e-6)
        #expect(row.values.allSatisfy { $0.dnsmosBAK == nil && $0.dnsmosSIG == nil && $0.dnsmosOVRL == nil })
        #expect(row["wide.wav"]?.sha256 == (try SHA256.hex(ofFileAt: folder.file("corpus/wide.wav"))))

        // Nothing changed: only the failed file is tried again.
        let second = try SourceAnalysisJob.run(request, catalog: catalog)
        #expect((second.analysed, second.unchanged, second.removed) == (1, 4, 0))
        #expect(try rows(catalog)["wide.wav"]?.analysedAt == row["wide.wav"]?.analysedAt)
        // A changed file is measured again, a removed one leaves.
        try TestWAV.writeFloat32(EffectiveBandwidthTests.bandLimitedNoise(seconds: 2, sampleRate: Self.rate, cutoffHz: 9000, seed: 5),
                                 sampleRate: Self.rate, to: folder.file("corpus/narrow.wav"))
        try FileManager.default.removeItem(at: folder.file("corpus/dc.wav"))
        let third = try SourceAnalysisJob.run(request, catalog: catalog)
        #expect((third.files, third.analysed, third.unchanged, third.removed) == (4, 2, 2, 1))
        let after = try rows(catalog)
        #expect(after["narrow.wav"]?.bandwidthHz == 8000 && after["dc.wav"] == nil)
    }

    @Test func selectionKeepsWhatTheFilterKeepsAndSaysWhyTheOthersLeft() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        try FileManager.default.createDirectory(at: folder.file("corpus/sub"), withIntermediateDirectories: true)
        _ = try Self.makeCorpus(folder)
        let catalog = try Catalog.open(at: folder.file("catalog.sqlite"))
        var request = SourceAnalysisJob.Request(folder: folder.file("corpus"), name: "toy")
        request.dnsmos = false
        _ = try SourceAnalysisJob.run(request, catalog: catalog)
        let selection = try catalog.selectAnalysedSources(corpus: "toy", filter: "bandwidth_hz >= 7000 and clipping_ratio < 0.01")
        #expect(selection.kept.map(\.relativePath) == ["wide.wav"])
        let reasons = Dictionary(uniqueKeysWithValues: selection.excluded.map { (($0.path as NSString).lastPathComponent, $0.reason) })
        #expect(reasons["narrow.wav"]?.hasPrefix("fails bandwidth_hz >= 7000 (bandwidth_hz = 4") == true, "\(reasons)")
        #expect(reasons["clipped.wav"]?.contains("clipping_ratio < 0.01 (clipping_ratio = 0.") == true, "\(reasons)")
        #expect(reasons["bad.wav"]?.hasPrefix("not analysed: ") == true)
        let all = try catalog.selectAnalysedSources(corpus: "toy", filter: nil)
        #expect(all.kept.map(\.relativePath) == ["dc.wav", "narrow.wav", "sub/clipped.wav", "wide.wav"] && all.excluded.count == 1)
        let nulls = try catalog.selectAnalysedSources(corpus: "toy", filter: "dnsmos_bak >= 3")
        #expect(nulls.kept.isEmpty)
        #expect(nulls.excluded.allSatisfy { $0.reason.contains("dnsmos_bak is null") || $0.reason.hasPrefix("not analysed") })
        for (filter, message) in [("foo > 1", "unknown field 'foo'"), ("params.snr_db > 1", "unknown field 'params.snr_db'"),
                                  ("bandwidth_hz >=", "expected a number"), ("path > 3", "is text")] {
            #expect { try catalog.selectAnalysedSources(corpus: "toy", filter: filter) } throws: { error in
                guard case CatalogError.filter = error else { return false }
                return "\(error)".contains(message)
            }
        }
    }

    /// DNSMOS of each file equals the `dnsmos` metric of the same file; the model hashes are recorded.
    @Test(.needsFixtures, .enabled(if: PythonReference.available, "needs SEKIT_PYTHON (run scripts/test.sh)"))
    func dnsmosEqualsTheMetric() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        try FileManager.default.createDirectory(at: folder.file("speech"), withIntermediateDirectories: true)
        for name in ["arctic_a0007.wav", "vctk_p287_001.wav"] {
            try FileManager.default.copyItem(at: Fixtures.url("speech/" + name), to: folder.file("speech/" + name))
        }
        let catalog = try Catalog.open(at: folder.file("catalog.sqlite"))
        let pool = PythonWorkerPool(environment: .located())
        let report = try SourceAnalysisJob.run(SourceAnalysisJob.Request(folder: folder.file("speech")), catalog: catalog, pythonPool: pool)
        #expect(report.dnsmosUnavailable == nil && report.failures.isEmpty, "\(report)")
        let workspace = MetricWorkspace(pythonPool: pool)
        for row in try catalog.analysedSources(corpus: "speech") {
            let buffer = try AudioFile.read(at: URL(fileURLWithPath: row.path))
            let values = try MetricRegistry.descriptor(named: "dnsmos")!.compute(MetricComparison(processed: buffer.samples,
                                                                                                  sampleRate: buffer.sampleRate),
                                                                                 workspace: workspace)
            #expect([row.dnsmosSIG, row.dnsmosBAK, row.dnsmosOVRL] == [values[.dnsmosSIG], values[.dnsmosBAK], values[.dnsmosOVRL]])
            #expect(row.dnsmosBAK != nil)
        }
        let backend = try #require(try catalog.analysedCorpus("speech")?.dnsmosBackend)
        #expect(backend.contains("backend_models_sha256") && backend.contains("backend_speechmos"), "\(backend)")
    }
}
