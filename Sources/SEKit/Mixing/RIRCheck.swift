import Foundation

/// Room impulse responses a mix refuses before it writes any clip: an all-zero response, a
/// response of one sample (no room in it), and a response longer than the clips it would
/// reverberate (its tail would be cut off by the clip).
enum RIRCheck {
    /// Throws for an RIR the source check found silent or of a single sample (other unusable
    /// RIRs, unreadable or shorter than the minimum source duration, stay skipped with a warning).
    /// - Throws: ``MixError/invalidOption(name:value:reason:)`` naming the file.
    static func refuseUnusable(_ checked: (usable: [MixSource], skipped: [SkippedSource]),
                               candidates: [(path: String, key: String)], options: MixOptions) throws {
        for skipped in checked.skipped {
            if skipped.reason.hasPrefix("silent") {
                throw MixError.invalidOption(name: "rir", value: skipped.path, reason: "all samples are zero: not a room impulse response")
            }
            if skipped.reason.hasPrefix("too short"),
               let buffer = try? AudioFile.read(at: URL(fileURLWithPath: skipped.path)), buffer.count <= 1 {
                throw MixError.invalidOption(name: "rir", value: skipped.path,
                    reason: "holds \(buffer.count) sample: a room impulse response needs its direct path and reverberation")
            }
        }
    }

    /// Throws for an RIR longer than the clips: `--seconds` in fixed and concatenate modes, the
    /// shortest speech file under `--length-mode full-utterance`.
    /// - Throws: ``MixError/invalidOption(name:value:reason:)`` naming the file and both lengths.
    static func refuseLonger(_ rirs: [MixSource], than speech: [MixSource], options: MixOptions) throws {
        let rate = options.sampleRate
        let clip: Int, clipName: String
        if options.lengthMode == .fullUtterance {
            guard let shortest = speech.map({ $0.frames(atRate: rate) }).min() else { return }
            clip = shortest
            clipName = "the shortest utterance"
        } else {
            clip = max(1, Int((options.seconds * Double(rate)).rounded()))
            clipName = "a clip (--seconds \(formatNumber(options.seconds)))"
        }
        for rir in rirs.sorted(by: { $0.key < $1.key }) where rir.frames(atRate: rate) > clip {
            let seconds = Double(rir.frames(atRate: rate)) / Double(rate)
            throw MixError.invalidOption(name: "rir", value: rir.path,
                reason: "is \(formatNumber((seconds * 1000).rounded() / 1000)) s long, longer than \(clipName), "
                    + "\(formatNumber((Double(clip) / Double(rate) * 1000).rounded() / 1000)) s: its reverberation would be cut off; "
                    + "give longer clips or shorter impulse responses")
        }
    }
}
