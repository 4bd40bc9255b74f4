import Foundation

/// One clip to score: its reference, the enhanced output and, when known, the noisy input,
/// with what the corpus says about it.
public struct ScorePair: Sendable, Equatable {
    /// Clip id (from the corpus manifest) or the file's path relative to its folder.
    public var clipID: String
    /// The clean reference; nil when a folder is scored on its own (non-intrusive metrics only).
    public var reference: URL?
    public var enhanced: URL?
    public var noisy: URL?
    public var split: String?
    /// Requested SNR of the clip, dB (from the manifest).
    public var snrDB: Double?
    /// The clip's index in its mixed corpus (from the manifest).
    public var corpusIndex: Int? = nil
    /// Kinds of the degradations of the clip's noisy input (`mp3`, `packet-loss`; empty: none), from
    /// a manifest with `degradations`; nil when unknown.
    public var degradations: [String]? = nil
    /// The clip's reverberation (RIR and reference target), from a mix manifest; nil when unknown.
    public var reverberation: ClipReverberation? = nil
    /// What is said in the clip, from the transcript file the scoring was given (nil: none).
    public var transcript: ReferenceTranscript? = nil
}

/// Finds the pairs to score.
public enum ScorePairing {
    /// Pairs files by their path relative to each folder: `REFERENCE/a/b.wav` with
    /// `ENHANCED/a/b.wav` (and `NOISY/a/b.wav`). A reference in another format (`a/b.flac`) with
    /// no enhanced file of its own name pairs with `ENHANCED/a/b.wav`, what `sekit enhance --input`
    /// writes for it, when no other reference has the name `a/b`. A reference without an enhanced
    /// file is still listed (it is scored as a failure, never dropped).
    public static func byName(reference: URL, enhanced: URL?, noisy: URL?) throws -> [ScorePair] {
        let references = try audioFiles(in: reference, option: "reference")
        let enhancedFiles = try enhanced.map { Set(try audioFiles(in: $0, option: "enhanced")) }
        let noisyFiles = try noisy.map { Set(try audioFiles(in: $0, option: "noisy")) }
        guard !references.isEmpty else { throw ScoreError.noPairs(reason: "\(reference.path) holds no audio files") }
        let stemCounts = Dictionary(references.map { (($0 as NSString).deletingPathExtension, 1) }, uniquingKeysWith: +)
        /// The enhanced file of a reference: its own name, or the WAV `enhance` made of it.
        func enhancedName(_ relative: String) -> String {
            let stem = (relative as NSString).deletingPathExtension
            guard let files = enhancedFiles, !files.contains(relative), stemCounts[stem] == 1, files.contains(stem + ".wav") else {
                return relative
            }
            return stem + ".wav"
        }
        return references.map { relative in
            ScorePair(
                clipID: relative,
                reference: reference.appendingPathComponent(relative),
                enhanced: enhanced.map { $0.appendingPathComponent(enhancedName(relative)) },
                noisy: noisy.flatMap { folder in noisyFiles!.contains(relative) ? folder.appendingPathComponent(relative) : nil },
                split: nil, snrDB: nil)
        }
    }

    /// Pairs through a mixed corpus's manifest: reference `OUT/clean/ID.wav`, noisy
    /// `OUT/noisy/ID.wav`, enhanced `ENHANCED/ID.wav` (or `ENHANCED/<noisy path>`). Without
    /// `enhanced`, the noisy input itself is scored (the "noisy" baseline row).
    /// A corpus whose mix did not finish is refused unless `allowIncomplete`
    /// (``MixManifestRecord/corpusRecords(_:allowIncomplete:)``). A missing `enhanced` folder is one
    /// error, unless `enhancedMayBeGone` (a report of a run whose outputs were deleted since: the
    /// pairs still say where the files were).
    public static func fromCorpus(_ corpus: URL, enhanced: URL?, split: String?, allowIncomplete: Bool = false,
                                  enhancedMayBeGone: Bool = false) throws -> [ScorePair] {
        let manifests = MixManifestRecord.files(inCorpus: corpus)
        guard let manifest = manifests.first else {
            throw ScoreError.invalidOption(name: "corpus", value: corpus.path,
                                           reason: "no manifest.jsonl (is it a folder made by sekit mix?)")
        }
        if let enhanced, !enhancedMayBeGone {
            // One error for the folder, rather than one per clip.
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: enhanced.path, isDirectory: &isFolder), isFolder.boolValue else {
                throw ScoreError.invalidOption(name: "enhanced", value: enhanced.path, reason: "no such folder")
            }
        }
        let all = try MixManifestRecord.corpusRecords(corpus, allowIncomplete: allowIncomplete).records
        let records = split.map { split in all.filter { $0.split == split } } ?? all
        guard !records.isEmpty else {
            throw ScoreError.noPairs(reason: "\(manifest.path): \(MixManifestRecord.noClipsReason(split: split, in: all))")
        }
        return records.map { record in
            let noisy = corpus.appendingPathComponent(record.noisy)
            var enhancedURL: URL? = noisy
            if let enhanced {
                let byID = enhanced.appendingPathComponent(record.clipID + ".wav")
                let byPath = enhanced.appendingPathComponent(record.noisy)
                enhancedURL = FileManager.default.fileExists(atPath: byID.path) || !FileManager.default.fileExists(atPath: byPath.path)
                    ? byID : byPath
            }
            // Scoring the noisy input itself: no separate noisy column (it would repeat the scores).
            var pair = ScorePair(clipID: record.clipID, reference: corpus.appendingPathComponent(record.clean),
                                 enhanced: enhancedURL, noisy: enhanced == nil ? nil : noisy, split: record.split,
                                 snrDB: record.snrDBRequested, corpusIndex: record.index, degradations: record.degradations?.map(\.kind))
            pair.reverberation = ClipReverberation(rirPath: record.rir, target: record.target)
            return pair
        }
    }

    /// Every audio file below `enhanced`, scored on its own (no reference: non-intrusive metrics).
    public static func withoutReference(enhanced: URL) throws -> [ScorePair] {
        let files = try audioFiles(in: enhanced, option: "enhanced")
        guard !files.isEmpty else { throw ScoreError.noPairs(reason: "\(enhanced.path) holds no audio files") }
        return files.map { ScorePair(clipID: $0, reference: nil, enhanced: enhanced.appendingPathComponent($0), noisy: nil, split: nil,
                                     snrDB: nil) }
    }

    /// Audio files below `folder`, as sorted relative paths.
    static func audioFiles(in folder: URL, option: String) throws -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ScoreError.invalidOption(name: option, value: folder.path, reason: "not a folder")
        }
        // Links to files and folders are followed (a symlinked folder of references is a folder of references).
        return FolderWalk.files(in: folder.path).files.map(\.relative)
            .filter { SourceDiscovery.audioExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
    }
}
