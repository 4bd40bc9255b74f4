import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// `statisticsFrom` (`sekit features --stats-from`): a test export stores the training export's
/// statistics, or is refused naming what differs.
extension FeatureExportTests {
    @Test func aTestExportStoresTheTrainingExportsStatistics() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let corpus = folder.url.appendingPathComponent("corpus")
        _ = try mixCorpus(corpus, count: 6)
        var options = FeatureExportOptions()
        options.targets = [.clean, .irm]
        options.split = "train"
        let train = folder.url.appendingPathComponent("train.h5"), test = folder.url.appendingPathComponent("test.h5")
        _ = try FeatureExport.run(corpus: corpus, output: train, options: options)
        options.split = "test"
        let own = try FeatureExport.run(corpus: corpus, output: folder.url.appendingPathComponent("own.h5"), options: options)
        #expect(own.statisticsSplit == "all", "a test-only export describes its own clips without --stats-from")
        options.statisticsFrom = train
        let copied = try FeatureExport.run(corpus: corpus, output: test, options: options)
        #expect(copied.statisticsSplit == "train")
        let source = try FeatureFileReader(url: train), made = try FeatureFileReader(url: test)
        #expect(try made.statisticsStreams() == ["clean", "noisy"])
        for stream in ["clean", "noisy"] {
            let a = try source.statistics(stream: stream), b = try made.statistics(stream: stream)
            #expect(a.mean == b.mean && a.count == b.count && b.split == "train", "\(stream)")
            for (x, y) in zip(a.standardDeviation, b.standardDeviation) {
                #expect(abs(x - y) <= 2 * x.ulp, "\(stream): std \(x) copied as \(y)")
            }
        }
        // The frames are the test clips', the statistics the training clips'.
        #expect(made.clips.allSatisfy { $0.split == "test" })
        #expect(try made.frames(stream: "noisy", range: 0..<5) != source.frames(stream: "noisy", range: 0..<5))
    }

    @Test func statisticsOfOtherValuesOrWithoutAStreamAreRefused() throws {
        // A corpus and its export with `irm` (statistics of `noisy` only).
        let setup = try predictionsSetup(); defer { setup.folder.cleanup() }
        let (folder, corpus, train) = (setup.folder, setup.corpus, setup.features)
        var options = FeatureExportOptions()
        options.targets = [.irm]
        var other = options
        other.stft.fftSize = 256; other.stft.winLength = 256; other.stft.hopLength = 128
        other.statisticsFrom = train
        let refused = folder.url.appendingPathComponent("refused.h5")
        #expect {
            _ = try FeatureExport.run(corpus: corpus, output: refused, options: other)
        } throws: { error in
            let text = "\(error)"
            return text.contains("stats-from") && text.contains(train.path) && text.contains("n_fft is 512 there, 256 in this export")
                && text.contains("hop_length is 256 there, 128 in this export")
        }
        var withClean = options
        withClean.targets = [.clean]
        withClean.statisticsFrom = train
        #expect {
            _ = try FeatureExport.run(corpus: corpus, output: refused, options: withClean)
        } throws: { error in
            "\(error)".contains("no statistics for stream 'clean' (it has: noisy)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.contains("refused") }
        #expect(left.isEmpty, "nothing written: \(left)")
    }
}
