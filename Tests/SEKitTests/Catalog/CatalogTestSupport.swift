import Foundation
@testable import SEKit
@testable import SEKitSignal

/// Helpers for catalogue tests: a sine WAV and sample records.
enum CatalogTestSupport {
    /// Records for the score run `run` (written by a test, not by `sekit score`) what `original` scored;
    /// outputs of `parent` when that is an enhance run.
    static func copyScoreTarget(of original: RunID, to run: RunID, enhancedBy parent: RunID? = nil, in catalog: Catalog) throws {
        guard var target = try catalog.scoreTarget(of: original) else { return }
        target.runID = run
        if let parent, try catalog.run(parent.rawValue).kind == .enhance {
            target.enhanceRunID = parent
            target.scored = .enhanced
            target.enhancedFolder = target.enhancedFolder ?? "/enhanced/\(parent)"
        }
        try catalog.recordScoreTarget(target)
    }

    /// Writes a mono 16-bit PCM WAV (44-byte header written by hand) of `seconds` of a sine.
    static func writeWAV(_ url: URL, seconds: Double = 0.1, sampleRate: Int = 16_000, frequencyHz: Double = 440) throws {
        try TestWAV.writePCM16(TestWAV.sine(seconds: seconds, sampleRate: sampleRate, frequencyHz: frequencyHz), sampleRate: sampleRate,
                               to: url)
    }

    /// A clip of `run` with index `index`, in `split`, at `snrDB`.
    static func clip(_ run: RunID, index: Int, split: String = "train", snrDB: Double = 5, speech: String? = nil,
                     prefix: String = "clip") -> ClipRecord {
        ClipRecord(id: "\(prefix)-\(run.rawValue.prefix(8))-\(index)", runID: run, clipIndex: index, split: split,
                   speechSourceID: speech, speechOffsetSeconds: speech == nil ? nil : 0.5, snrRequestedDB: snrDB,
                   snrRealisedDB: snrDB + 0.01, levelDBFS: -26, speechGain: 1, noiseGain: 0.3, clippingScale: 1,
                   seed: Int64(index) * 7919, sampleRate: 16_000, durationSeconds: 4, noisyPath: "noisy/\(index).wav")
    }
}
