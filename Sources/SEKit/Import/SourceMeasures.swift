import Foundation

/// What `sekit catalog analyze` measures of one source file, natively: its effective bandwidth
/// (`EffectiveBandwidth`), P.56 active speech ratio and level, clipping ratio, DC offset and RMS
/// level (the measures of `sekit info`, `AudioFileReport`), of the file's mono mix.
public struct SourceMeasures: Sendable, Equatable {
    public var sampleRate: Int
    public var durationSeconds: Double
    /// Effective bandwidth, Hz; nil for a silent file.
    public var bandwidthHz: Double?
    /// Fraction of the file P.56 counts as active speech; 0 when it finds none.
    public var activeSpeechRatio: Double
    /// Fraction of samples with |x| ≥ 0.999.
    public var clippingRatio: Double
    /// Mean sample value.
    public var dcOffset: Double
    /// P.56 active speech level, dBFS; nil when P.56 finds no active speech.
    public var levelDBFS: Double?
    /// RMS level, dBFS; nil for a silent file.
    public var rmsDBFS: Double?

    /// Measures the file at `url`, block by block (memory stays flat whatever its length).
    /// - Throws: `AudioError` naming the file.
    public static func measure(_ url: URL) throws -> SourceMeasures {
        let report = try AudioFileReport.analyze(url)
        var bandwidth = EffectiveBandwidth(sampleRate: report.sampleRate)
        _ = try AudioFile.forEachMonoBlock(at: url) { block in bandwidth.add(block) }
        return SourceMeasures(sampleRate: report.sampleRate, durationSeconds: report.durationSeconds, bandwidthHz: bandwidth.result(),
                              activeSpeechRatio: report.activeRatio ?? 0, clippingRatio: report.clippedRatio, dcOffset: report.dcOffset,
                              levelDBFS: report.activeLevelDBFS, rmsDBFS: report.rmsDBFS.isFinite ? report.rmsDBFS : nil)
    }
}
