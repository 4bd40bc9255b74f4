import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// Long clips are exported a block of frames at a time: the file is the same, byte for byte, as
/// when every clip's streams are made whole (statistics included).
@Suite(.needsFixtures)
struct FeatureExportStreamingTests {
    @Test(arguments: [
        (FeatureDType.float32, FeatureCompression.none, [FeatureTarget.clean, .noise, .irm, .ibm, .psm, .noisyPhase], 512),
        (.float16, .gzip(level: 4), [.clean, .irm], 1024),
    ])
    func blockwiseExportWritesTheSameFile(dtype: FeatureDType, compression: FeatureCompression, targets: [FeatureTarget],
                                          fftSize: Int) throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let corpus = folder.url.appendingPathComponent("corpus")
        var mix = MixOptions()
        mix.count = 3; mix.seconds = 36; mix.seed = 11
        mix.split = try SplitSpec(parsing: "train=0.5,test=0.5")
        _ = try MixRun.prepare(options: mix, inputs: MixInputs(speech: [Fixtures.url("speech").path], noise: [Fixtures.url("noise").path]),
                               output: corpus, jobs: 2).run()
        var options = FeatureExportOptions()
        options.stft = STFTConfiguration(fftSize: fftSize)
        options.targets = targets; options.dtype = dtype; options.compression = compression; options.feature = .log1p
        let whole = folder.url.appendingPathComponent("whole.h5"), blocks = folder.url.appendingPathComponent("blocks.h5")
        _ = try FeatureExport.run(corpus: corpus, output: whole, options: options)
        options.streamedClipValues = 0  // every clip a block at a time: 36 s clips span several chunks and blocks
        options.streamedBlockFrames = 1
        _ = try FeatureExport.run(corpus: corpus, output: blocks, options: options)
        #expect(try Data(contentsOf: whole) == Data(contentsOf: blocks))
        let reader = try FeatureFileReader(url: blocks)
        let chunk = try #require(reader.streams.first?.chunkFrames)
        #expect(reader.clips.allSatisfy { $0.numFrames > 2 * chunk }, "clips should span several blocks")
    }
}
