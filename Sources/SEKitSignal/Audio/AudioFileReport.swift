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

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case path, format, encoding, sampleRate = "sample_rate", channels, frames, durationSeconds = "duration_seconds"
        case peakDBFS = "peak_dbfs", rmsDBFS = "rms_dbfs", activeLevelDBFS = "active_level_dbfs", activeRatio = "active_ratio"
        case lufs, clippedRatio = "clipped_ratio", dcOffset = "dc_offset"
    }

    /// Measures the file at `url` (multichannel files are averaged to mono for the levels),
    /// block by block: memory stays flat whatever the file's length (a 3-hour file is never held).
    /// - Throws: ``AudioError`` naming the file.
    public static func analyze(_ url: URL) throws -> AudioFileReport { try analyze(AudioLocation(url)) }

    /// ``analyze(_:)-(URL)`` of a location (a file, or a member of an archive; `path` is its name).
    public static func analyze(_ location: AudioLocation) throws -> AudioFileReport {
        let info = try AudioFile.info(location)
        var levels = LevelAccumulator()
        var active = ActiveSpeechLevel.Accumulator(sampleRate: info.sampleRate)
        let loudness = try? Ebur128Meter.Session(sampleRate: info.sampleRate)
        var loudnessFailed = false
        var doubles = [Double](repeating: 0, count: AudioFile.defaultBlockFrames)
        try AudioFile.forEachMonoBlock(location) { block in
            levels.add(block)
            let n = block.count
            doubles.withUnsafeMutableBufferPointer { out in for i in 0..<n { out[i] = Double(block[i]) } }
            doubles.withUnsafeBufferPointer { all in
                let part = UnsafeBufferPointer(rebasing: all[0..<n])
                active.add(part)
                if !loudnessFailed { do { try loudness?.add(part) } catch { loudnessFailed = true } }
            }
        }
        let activeLevel = try? active.result()
        let lufs = loudnessFailed ? nil : (try? loudness?.loudness()) ?? nil
        return AudioFileReport(
            path: location.name, format: info.format, encoding: info.encoding, sampleRate: info.sampleRate,
            channels: info.channels, frames: info.frames, durationSeconds: info.durationSeconds,
            peakDBFS: levels.peakDBFS, rmsDBFS: levels.rmsDBFS,
            activeLevelDBFS: activeLevel?.levelDBFS, activeRatio: activeLevel?.activityFactor,
            lufs: lufs.flatMap { $0.isFinite ? $0 : nil },
            clippedRatio: levels.clippedRatio, dcOffset: levels.dcOffset)
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
