import Foundation

/// Writes a test's audio files into `DIR/audio/`, numbered in the order written (`s0001.wav` for
/// stimuli, `r0001.wav` for references: names that say nothing of the condition), as 16-bit PCM WAV
/// at the clip's reference rate, and hashes them.
struct StimulusWriter {
    let folder: URL
    private var counts: [String: Int] = [:]

    init(folder: URL) { self.folder = folder }

    /// Writes `samples` as the next file of `prefix`; returns its path relative to the test folder and SHA-256.
    mutating func write(_ samples: [Float], sampleRate: Int, prefix: String) throws -> ListeningTestManifest.Audio {
        let number = (counts[prefix] ?? 0) + 1
        counts[prefix] = number
        let relative = "audio/\(prefix)\(String(format: "%04d", number)).wav"
        let url = folder.appendingPathComponent(relative)
        try AudioWriter.write(AudioBuffer(samples: samples, sampleRate: sampleRate), to: url, format: .wavPCM16)
        return ListeningTestManifest.Audio(file: relative, sha256: try SHA256.hex(ofFileAt: url))
    }
}
