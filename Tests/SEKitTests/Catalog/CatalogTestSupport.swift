import Foundation
@testable import SEKit

/// Helpers for catalogue tests: a tiny PCM16 WAV writer and sample records.
enum CatalogTestSupport {
    /// Writes a mono 16-bit PCM WAV (44-byte header written by hand) of `seconds` of a sine.
    static func writeWAV(_ url: URL, seconds: Double = 0.1, sampleRate: Int = 16_000, frequencyHz: Double = 440) throws {
        let frames = Int(seconds * Double(sampleRate))
        var data = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); u32(UInt32(36 + frames * 2)); data.append(contentsOf: Array("WAVE".utf8))
        data.append(contentsOf: Array("fmt ".utf8)); u32(16); u16(1); u16(1); u32(UInt32(sampleRate)); u32(UInt32(sampleRate * 2)); u16(2); u16(16)
        data.append(contentsOf: Array("data".utf8)); u32(UInt32(frames * 2))
        for n in 0..<frames {
            let value = Int16(8000 * sin(2 * Double.pi * frequencyHz * Double(n) / Double(sampleRate)))
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
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
