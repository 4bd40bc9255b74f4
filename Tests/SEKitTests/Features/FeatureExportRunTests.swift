import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// `sekit features` as a recorded run: the file is recorded before it takes its final name, and
/// temporary files of killed writers are removed.
@Suite struct FeatureExportRunTests {
    @Test func theArtifactIsRecordedWithTheFinalFilesHashAndStaleTemporariesGo() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        var options = MixOptions()
        options.count = 3; options.seconds = 0.5
        let corpus = folder.file("corpus")
        _ = try MixRun.prepare(options: options, inputs: try GeneratedSources.mixInputs(in: folder), output: corpus, jobs: 1).run()
        let output = folder.file("f.h5")
        let stale = folder.file(".f.h5.tmp-4194301")
        try Data(count: 1 << 20).write(to: stale)
        let catalog = try Catalog.open(at: folder.file("catalog.sqlite"))
        let (result, run) = try FeaturesJob.run(.init(corpus: corpus, output: output, options: FeatureExportOptions()),
                                                     context: RunContext(catalog: catalog, commandLine: ["sekit", "features"]))
        #expect(result.clips == 3)
        #expect(!FileManager.default.fileExists(atPath: stale.path), "a killed writer's temporary file is removed")
        let details = try catalog.runDetails(run.id!.rawValue)
        #expect(details.run.status == .finished)
        let artifact = try #require(details.artifacts.first)
        #expect(artifact.path == output.standardizedFileURL.path && artifact.kind == "features-hdf5")
        #expect(artifact.sha256 == (try SHA256.hex(ofFileAt: output)))
        #expect(artifact.bytes == (try FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int))
    }
}
