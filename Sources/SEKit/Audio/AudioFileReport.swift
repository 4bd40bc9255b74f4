import Foundation

/// Everything `sekit info` reports about one file. JSON field names (snake_case) are a public
/// contract, documented in the README. Levels of silent signals are −inf (null in JSON).
public struct AudioFileReport: Sendable, Codable, Equatable {
    public var path: String
    public var format: String
    public var encoding: String
    public var sampleRate: Int
    public var channels: Int
    public var frames: Int
    public var durationSeconds: Double
    /// Peak of the mono mix, dBFS (20·log10 of the largest absolute sample).
    public var peakDBFS: Double
    /// RMS of the mono mix, dBFS (10·log10 of the mean square).
    public var rmsDBFS: Double
    /// ITU-T P.56 active speech level, dBFS; nil when no active speech is found.
    public var activeLevelDBFS: Double?
    /// Fraction of the file P.56 counts as active speech.
    public var activeRatio: Double?
    /// EBU R128 integrated loudness, LUFS; nil when the gating finds nothing (silence, or < 0.4 s).
    public var lufs: Double?
    /// Fraction of samples with |x| ≥ 0.999.
    public var clippedRatio: Double
    /// Mean sample value.
    public var dcOffset: Double

    enum CodingKeys: String, CodingKey, CaseIterable {
        case path, format, encoding, sampleRate = "sample_rate", channels, frames, durationSeconds = "duration_seconds"
        case peakDBFS = "peak_dbfs", rmsDBFS = "rms_dbfs", activeLevelDBFS = "active_level_dbfs", activeRatio = "active_ratio"
        case lufs, clippedRatio = "clipped_ratio", dcOffset = "dc_offset"
    }

    /// Measures the file at `url` (multichannel files are averaged to mono for the levels).
    /// - Throws: ``AudioError`` naming the file.
    public static func analyze(_ url: URL) throws -> AudioFileReport {
        let info = try AudioFile.info(at: url)
        let buffer = try AudioFile.read(at: url)
        let doubles = SampleConversion.doubles(buffer.samples)
        let active = try? doubles.withUnsafeBufferPointer { try ActiveSpeechLevel.measure($0, sampleRate: buffer.sampleRate) }
        let loudness = try? Levels.loudnessLUFS(doubles, sampleRate: buffer.sampleRate)
        return AudioFileReport(
            path: url.path, format: info.format, encoding: info.encoding, sampleRate: info.sampleRate,
            channels: info.channels, frames: info.frames, durationSeconds: info.durationSeconds,
            peakDBFS: Levels.peakDBFS(buffer.samples), rmsDBFS: Levels.rmsDBFS(buffer.samples),
            activeLevelDBFS: active?.levelDBFS, activeRatio: active?.activityFactor,
            lufs: loudness.flatMap { $0.isFinite ? $0 : nil },
            clippedRatio: Levels.clippedRatio(buffer.samples), dcOffset: Levels.dcOffset(buffer.samples))
    }

    /// One JSON object on one line; −inf levels become null.
    public func jsonLine() throws -> String {
        var copy = self
        if !copy.peakDBFS.isFinite { copy.peakDBFS = .nan }
        if !copy.rmsDBFS.isFinite { copy.rmsDBFS = .nan }
        let encoder = ReportJSON.encoder(.compact)
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "__null__")
        let text = String(decoding: try encoder.encode(copy), as: UTF8.self)
        return text.replacingOccurrences(of: "\"__null__\"", with: "null")
    }
}
