import Foundation

/// P.808's trapping question spoken, as the recommendation's trapping clips are: the trial's clip, half
/// a second of silence, then a voice asking for the expected answer ("This is an interruption. Please
/// select the answer 3, fair, to confirm your attention."), read by espeak-ng (offline; `scripts/setup.sh`
/// installs it) and resampled to the clip's rate. The page then shows the test's usual question, so only
/// a rater who listens to the end finds the instruction; test.json keeps it as ``ListeningTestManifest/Trial/spokenInstruction``.
enum SpokenTrap {
    /// Silence between the clip and the instruction, seconds.
    static let pauseSeconds = 0.5
    /// espeak-ng's voice and words per minute.
    static let voice = "en-us", wordsPerMinute = 150

    /// What the voice says for `trial` of a `kind` test.
    static func sentence(for trial: ListeningTestManifest.Trial, kind: ListeningTestKind) -> String? {
        guard let expected = trial.expected else { return nil }
        let index = Int(expected - kind.range.lowerBound)
        let labels = kind.labels(scale: kind.scales.last!)
        let label = labels.indices.contains(index) ? ", \(labels[index].lowercased())," : ""
        let scales = kind.scales.count > 1 ? " on every scale" : ""
        return "This is an interruption. Please select the answer \(ReportNumber.fixed(expected, decimals: 0))\(label)\(scales)"
            + " to confirm your attention."
    }

    /// `trial` (a trapping trial) with its stimulus replaced by the clip followed by the spoken instruction,
    /// written through `writer`; its written instruction moves to `spokenInstruction`.
    /// - Throws: ``ListenError/invalidOption(name:value:reason:)`` when espeak-ng is missing or fails;
    ///   audio errors.
    static func speak(_ trial: ListeningTestManifest.Trial, kind: ListeningTestKind, folder: URL,
                      writer: inout StimulusWriter) throws -> ListeningTestManifest.Trial {
        guard let text = sentence(for: trial, kind: kind), let stimulus = trial.stimuli.first else { return trial }
        let clip = try AudioFile.read(at: folder.appendingPathComponent(stimulus.file))
        let speech = try synthesize(text, sampleRate: clip.sampleRate)
        let pause = [Float](repeating: 0, count: Int((pauseSeconds * Double(clip.sampleRate)).rounded()))
        let audio = try writer.write(clip.samples + pause + speech, sampleRate: clip.sampleRate, prefix: "s",
                                     label: "the trapping trial, spoken instruction")
        var spoken = trial
        spoken.stimuli[0] = .init(trial.id, stimulus.condition, audio)
        spoken.spokenInstruction = text
        spoken.instruction = nil
        return spoken
    }

    /// `text` read by espeak-ng, at `sampleRate`.
    static func synthesize(_ text: String, sampleRate: Int) throws -> [Float] {
        let espeak = ExecutablePath.find("espeak-ng")
        guard FileManager.default.isExecutableFile(atPath: espeak.path) else {
            throw ListenError.invalidOption(name: "spoken-trap", value: "",
                                            reason: "espeak-ng was not found on PATH (Debian: apt install espeak-ng)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sekit-spoken-trap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("instruction.wav")
        let process = Process()
        process.executableURL = espeak
        process.arguments = ["-v", voice, "-s", "\(wordsPerMinute)", "-w", wav.path, text]
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ListenError.invalidOption(name: "spoken-trap", value: "", reason: "espeak-ng failed (status "
                + "\(process.terminationStatus)): \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return try AudioFile.read(at: wav, sampleRate: sampleRate).samples
    }
}
