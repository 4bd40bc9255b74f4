import Foundation

/// Writes a test's audio files into `DIR/audio/`, numbered in the order written (`s0001.wav` for
/// stimuli, `r0001.wav` for references: names that say nothing of the condition), as 16-bit PCM WAV
/// at the clip's reference rate, and hashes them. With a loudness target (`listen make
/// --loudness-lufs`) every file is first scaled to that integrated loudness (``LoudnessEqualiser``),
/// its gain and any samples the 16-bit file clipped recorded with it.
struct StimulusWriter {
    let folder: URL
    /// The integrated loudness every file is scaled to, LUFS; nil: written as given.
    let loudnessLUFS: Double?
    private var counts: [String: Int] = [:]
    /// Files written with samples beyond full scale (after the gain), in the order written.
    private(set) var clipped: [ListenMakeJob.ClippedStimulus] = []

    init(folder: URL, loudnessLUFS: Double? = nil) {
        self.folder = folder
        self.loudnessLUFS = loudnessLUFS
    }

    /// Writes `samples` as the next file of `prefix`; returns its path relative to the test folder,
    /// SHA-256 and, when equalised, gain and clipped samples.
    /// - Parameter label: what the file is, for messages (`clip s1-0000003, condition logmmse`).
    /// - Throws: ``ListenError/invalidOption(name:value:reason:)`` naming `label` for a signal whose
    ///   loudness cannot be measured (silent, or shorter than a 400 ms gating block); audio errors.
    mutating func write(_ samples: [Float], sampleRate: Int, prefix: String, label: String) throws -> ListeningTestManifest.Audio {
        let number = (counts[prefix] ?? 0) + 1
        counts[prefix] = number
        let relative = "audio/\(prefix)\(String(format: "%04d", number)).wav"
        let url = folder.appendingPathComponent(relative)
        var output = samples
        var gainDB: Double?
        if let loudnessLUFS {
            (output, gainDB) = try LoudnessEqualiser.scale(samples, sampleRate: sampleRate, toLUFS: loudnessLUFS, label: label)
        }
        let written = try AudioWriter.write(AudioBuffer(samples: output, sampleRate: sampleRate), to: url, format: .wavPCM16)
        var audio = ListeningTestManifest.Audio(file: relative, sha256: try SHA256.hex(ofFileAt: url))
        audio.gainDB = gainDB
        if loudnessLUFS != nil, written.clippedSamples > 0 {
            audio.clippedSamples = written.clippedSamples
            clipped.append(.init(file: relative, label: label, samples: written.clippedSamples))
        }
        return audio
    }
}
