import Foundation

/// `DIR/test.json`: everything a listening test's page plays and how its results are checked.
///
/// The page embeds it whole. ``stimuliHash`` is the SHA-256 of the stimuli list with the files'
/// hashes (``computeStimuliHash()``); the page writes it into every results file, and
/// `sekit listen import` refuses results whose hash differs from the folder's.
public struct ListeningTestManifest: Codable, Sendable, Equatable {
    public static let formatName = "sekit-listening-test"
    public static let fileName = "test.json"

    /// An audio file of the test, relative to the test folder, with its SHA-256.
    public struct Audio: Codable, Sendable, Equatable {
        public var file: String
        public var sha256: String
        /// The gain that brought the file to the test's ``ListeningTestManifest/loudnessLUFS``, dB
        /// (absent when the test was not level-equalised).
        public var gainDB: Double? = nil
        /// Samples beyond full scale after that gain, clipped in the 16-bit file (absent when none).
        public var clippedSamples: Int? = nil
    }

    /// One stimulus: what a rater scores.
    public struct Stimulus: Codable, Sendable, Equatable {
        /// `TRIAL/CONDITION`, unique in the test.
        public var id: String
        /// A run's name, `anchor35`, `anchor70` or `reference`.
        public var condition: String
        public var file: String
        public var sha256: String
        /// As ``Audio/gainDB``.
        public var gainDB: Double? = nil
        /// As ``Audio/clippedSamples``.
        public var clippedSamples: Int? = nil
    }

    /// One trial (page): a clip's stimuli, or a gold or trapping question.
    public struct Trial: Codable, Sendable, Equatable {
        /// The trial's id: the clip id without its mix run (`gold`, `trap` for those trials).
        public var id: String
        /// The catalogue clip id (`MIXRUN/CLIP`), as the score runs recorded it.
        public var clip: String
        /// `test`, `gold` or `trap`.
        public var role: String
        /// Requested input SNR of the clip, dB, when the corpus says.
        public var snrDB: Double?
        /// Degradation kinds of the clip's noisy input (empty: none), when known.
        public var degradations: [String]?
        /// What is played first (MUSHRA and DCR: the clean reference; CCR: the noisy input).
        public var reference: Audio?
        public var stimuli: [Stimulus]
        /// The answer a gold or trapping trial expects (on the last scale for P.835).
        public var expected: Double?
        /// The instruction a trapping trial shows.
        public var instruction: String?
        /// The instruction a trapping trial's audio speaks instead (`listen make --spoken-trap`).
        public var spokenInstruction: String? = nil
    }

    /// A run whose outputs are a condition.
    public struct Run: Codable, Sendable, Equatable {
        /// The condition's name (the score run's name).
        public var name: String
        /// The score run's id.
        public var id: String
    }

    public var format = formatName
    public var version = 1
    /// The test's default name (its folder's name).
    public var name: String
    public var test: ListeningTestKind
    public var seed: UInt64
    public var runs: [Run]
    /// Every condition, in order: the runs, then `anchor35`, `anchor70` and `reference` for MUSHRA.
    public var conditions: [String]
    /// Scales each stimulus is rated on.
    public var scales: [String]
    public var scoreMin: Double
    public var scoreMax: Double
    public var trials: [Trial]
    public var stimuliHash: String
    /// The integrated loudness (ITU-R BS.1770-4, LUFS) every audio file of the test was scaled to
    /// (`listen make --loudness-lufs`); absent: the files are at the runs' own levels.
    public var loudnessLUFS: Double? = nil

    /// SHA-256 (hex) over one line per trial (`trial ID ROLE REFERENCE-FILE REFERENCE-SHA256`) and one per
    /// stimulus (`ID CONDITION FILE SHA256`), tab-separated, in order.
    public func computeStimuliHash() -> String {
        var text = "\(format) \(version) \(test.rawValue)\n"
        for trial in trials {
            text += "trial\t\(trial.id)\t\(trial.role)\t\(trial.reference?.file ?? "")\t\(trial.reference?.sha256 ?? "")\n"
            for s in trial.stimuli { text += "\(s.id)\t\(s.condition)\t\(s.file)\t\(s.sha256)\n" }
        }
        return SHA256.hex(of: Data(text.utf8))
    }

    /// Every stimulus with its trial.
    public var allStimuli: [(trial: Trial, stimulus: Stimulus)] {
        trials.flatMap { trial in trial.stimuli.map { (trial, $0) } }
    }

    /// Reads `DIR/test.json` and checks it: its own hash, and the files' hashes when `checkFiles`.
    /// - Throws: ``ListenError/badTest(path:reason:)`` for a missing or unreadable file, an edited
    ///   stimuli list or an audio file that changed.
    public static func read(folder: URL, checkFiles: Bool = true) throws -> ListeningTestManifest {
        let url = folder.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ListenError.badTest(path: url.path, reason: "no such file (is \(folder.path) a folder made by `sekit listen make`?)")
        }
        let manifest: ListeningTestManifest
        do { manifest = try JSONDecoder().decode(ListeningTestManifest.self, from: data) } catch {
            throw ListenError.badTest(path: url.path, reason: "not a listening test manifest: \(error)")
        }
        guard manifest.format == formatName else { throw ListenError.badTest(path: url.path, reason: "format is \(manifest.format)") }
        let hash = manifest.computeStimuliHash()
        guard hash == manifest.stimuliHash else {
            throw ListenError.badTest(
                path: url.path, reason: "its stimuli list was edited after `sekit listen make` (hash \(hash.prefix(12))…)")
        }
        if checkFiles {
            var audio = manifest.allStimuli.map { Audio(file: $0.stimulus.file, sha256: $0.stimulus.sha256) }
            audio += manifest.trials.compactMap(\.reference)
            var checked = Set<String>()
            for item in audio where checked.insert(item.file).inserted {
                let file = folder.appendingPathComponent(item.file)
                guard let found = try? SHA256.hex(ofFileAt: file), found == item.sha256 else {
                    throw ListenError.badTest(
                        path: file.path, reason: "missing or changed since `sekit listen make` (its SHA-256 is not the one in \(fileName))")
                }
            }
        }
        return manifest
    }
}

extension ListeningTestManifest.Stimulus {
    /// The stimulus `TRIAL/CONDITION` of a written file (its gain and clipping carried over).
    init(_ trial: String, _ condition: String, _ audio: ListeningTestManifest.Audio) {
        self.init(
            id: "\(trial)/\(condition)", condition: condition, file: audio.file, sha256: audio.sha256, gainDB: audio.gainDB,
            clippedSamples: audio.clippedSamples)
    }
}
