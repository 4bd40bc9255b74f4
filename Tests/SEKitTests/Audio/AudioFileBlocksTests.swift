import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// `sekit info` measures block by block (flat memory on hour-long files); every figure must be
/// bit-identical to measuring the whole signal at once.
@Suite struct AudioFileBlocksTests {
    @Test(arguments: [1, 2]) func blockwiseMeasurementsEqualWholeSignalOnes(channels: Int) throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        // 3.4 blocks of frames, an odd count, speech-like bursts with silences, and a clipped stretch.
        let frames = 3 * AudioFile.defaultBlockFrames + 26_215
        var g = SplitMix64(seed: 5)
        let signal: [[Float]] = (0..<channels).map { c in
            (0..<frames).map { i in
                let burst = (i / 8000) % 3 == 0 ? 0.0 : 0.4 * sin(Double(i) * (0.03 + 0.01 * Double(c)))
                let x = burst + 0.002 * (g.nextUnitInterval() - 0.5)
                return Float(i > 100_000 && i < 100_050 ? 1.0 : x)
            }
        }
        let interleaved = (0..<(frames * channels)).map { signal[$0 % channels][$0 / channels] }
        let url = folder.file("long.wav")
        try Self.writeFloatWAV(interleaved, channels: channels, sampleRate: 16_000, to: url)

        let report = try AudioFileReport.analyze(url)
        let whole = try AudioFile.read(at: url)
        #expect(whole.count == frames)
        #expect(report.peakDBFS == Levels.peakDBFS(whole.samples))
        #expect(report.rmsDBFS == Levels.rmsDBFS(whole.samples))
        #expect(report.dcOffset == Levels.dcOffset(whole.samples))
        #expect(report.clippedRatio == Levels.clippedRatio(whole.samples))
        let active = try ActiveSpeechLevel.measure(whole.samples, sampleRate: 16_000)
        #expect(report.activeLevelDBFS == active.levelDBFS && report.activeRatio == active.activityFactor)
        #expect(report.lufs == (try Levels.loudnessLUFS(whole.samples, sampleRate: 16_000)))

        var blocks = 0, total = 0
        try AudioFile.forEachMonoBlock(at: url, blockFrames: 4096) { block in
            #expect(Array(block) == Array(whole.samples[total..<(total + block.count)]))
            blocks += 1; total += block.count
        }
        #expect(total == frames && blocks == (frames + 4095) / 4096)
    }

    /// A 32-bit float WAV with `channels` interleaved channels (header written by hand).
    static func writeFloatWAV(_ samples: [Float], channels: Int, sampleRate: Int, to url: URL) throws {
        try TestWAV.writeFloat32(samples, channels: channels, sampleRate: sampleRate, to: url)
    }
}
