import Foundation

/// One line of `OUT/manifest.jsonl`: a clip, its files and everything that made it.
/// Field names are a public contract (snake_case in JSON; see README "sekit mix").
public struct MixManifestRecord: Sendable, Codable, Equatable {
    public struct SpeechSource: Sendable, Codable, Equatable {
        public var path: String
        /// First sample taken from the source, at the corpus rate.
        public var offset: Int
        public var length: Int
        /// Where the piece starts in the clip, samples.
        public var position: Int
        public var speaker: String?
    }
    public struct NoiseSource: Sendable, Codable, Equatable {
        public var path: String
        /// Sample of the (looped) source where the clip's noise starts, at the corpus rate.
        public var offset: Int
        /// This noise's share of the SNR, dB.
        public var snrDB: Double
        /// Linear gain applied to it in the written stems.
        public var gain: Double
        enum CodingKeys: String, CodingKey { case path, offset, snrDB = "snr_db", gain }
    }

    public var clipID: String
    public var index: Int
    public var split: String
    /// Paths relative to the corpus folder.
    public var noisy: String
    public var clean: String
    public var noise: String
    public var sampleRate: Int
    public var numSamples: Int
    public var durationSeconds: Double
    public var speechSources: [SpeechSource]
    public var noiseSources: [NoiseSource]
    public var rir: String?
    public var target: String
    public var snrMode: String
    public var snrDBRequested: Double
    public var snrDBRealised: Double
    public var levelMode: String
    public var levelDBFS: Double
    /// Level of the noisy stem as written, dBFS; `-infinity` (`null` in the manifest) when the
    /// stem is silent (a degradation zeroed it) or, after a degradation, has no measurable level.
    @MeasuredLevel public var levelDBFSRealised: Double
    public var speechGain: Double
    public var clippingScale: Double
    public var clippedSamples: Int
    public var lowpassHz: Double?
    public var seed: UInt64
    /// The degradations of the noisy input, in the order applied, each `{stage, ...parameters}`
    /// (an empty list: the clip drew none); absent when the mix enables no degradation.
    public var degradations: [Degradation]? = nil
    /// The RIR's first arrival (the sample the clip's stems are aligned on), samples at the corpus
    /// rate; absent for clips without an RIR and in mixes aligned on the RIR's peak (made before).
    public var rirOnsetSamples: Int? = nil
    /// Wind noise that replaced the clip's noise sources (`--wind-probability`): its SNR, generator
    /// seed and gustiness; absent otherwise.
    public var wind: WindRecord? = nil

    /// A clip's wind noise (manifest field `wind`).
    public struct WindRecord: Sendable, Codable, Equatable {
        public var snrDB: Double
        public var seed: UInt64
        public var gustiness: Double
        enum CodingKeys: String, CodingKey { case snrDB = "snr_db", seed, gustiness }
    }

    enum CodingKeys: String, CodingKey {
        case clipID = "clip_id", index, split, noisy, clean, noise
        case sampleRate = "sample_rate", numSamples = "num_samples", durationSeconds = "duration_seconds"
        case speechSources = "speech_sources", noiseSources = "noise_sources", rir, target
        case snrMode = "snr_mode", snrDBRequested = "snr_db_requested", snrDBRealised = "snr_db_realised"
        case levelMode = "level_mode", levelDBFS = "level_dbfs", levelDBFSRealised = "level_dbfs_realised"
        case speechGain = "speech_gain", clippingScale = "clipping_scale", clippedSamples = "clipped_samples"
        case lowpassHz = "lowpass_hz", seed, degradations, rirOnsetSamples = "rir_onset_samples", wind
    }

    /// JSON encoder used for manifests: sorted keys, so the bytes depend only on the values.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The manifest files of a corpus folder: `OUT/manifest.jsonl`, or, when the corpus was mixed in
    /// shards that were never joined, every `OUT/manifest-shard-I-of-N.jsonl` (empty when none).
    /// A mix (or shard) that has not written its manifest yet (killed, or still running) is read
    /// from its journal, `OUT/.sekit/journal[-shard-I-of-N].jsonl`, which holds every clip
    /// finished so far: such a corpus is incomplete, and is used only with `--allow-incomplete`.
    public static func files(inCorpus corpus: URL) -> [URL] {
        let fm = FileManager.default
        let whole = corpus.appendingPathComponent("manifest.jsonl")
        if fm.fileExists(atPath: whole.path) { return [whole] }
        let names = Set((try? fm.contentsOfDirectory(atPath: corpus.path)) ?? [])
        let shards = names.filter { $0.hasPrefix("manifest-shard-") && $0.hasSuffix(".jsonl") }
        let state = MixCorpusLayout(root: corpus).stateFolder
        let journals = ((try? fm.contentsOfDirectory(atPath: state.path)) ?? []).filter { name in
            guard name.hasPrefix("journal") && name.hasSuffix(".jsonl") else { return false }
            // journal.jsonl belongs to manifest.jsonl, journal-shard-I-of-N.jsonl to manifest-shard-I-of-N.jsonl.
            return !names.contains("manifest" + name.dropFirst("journal".count))
        }
        return shards.sorted().map { corpus.appendingPathComponent($0) } + journals.sorted().map { state.appendingPathComponent($0) }
    }

    /// Whether `url` is a mix's journal (``files(inCorpus:)``) rather than a manifest.
    static func isJournal(_ url: URL) -> Bool {
        url.deletingLastPathComponent().lastPathComponent == ".sekit" && url.lastPathComponent.hasPrefix("journal")
    }

    /// Every clip of the mixed corpus at `corpus` (all its shards' manifests, in clip order),
    /// checked against the clip count its `mix.json` planned: a mix that did not finish (killed,
    /// a full disk, clips that could not be made, a shard not run) is refused unless
    /// `allowIncomplete`, and the number of missing clips is returned either way (0 for a corpus
    /// without `mix.json`, whose plan is unknown).
    /// - Throws: ``CorpusError/incompleteCorpus(path:present:planned:)``; ``CorpusError/notACorpus(path:reason:)``
    ///   when there is no manifest; decoding errors naming the file.
    public static func corpusRecords(_ corpus: URL, allowIncomplete: Bool) throws -> (records: [MixManifestRecord], missing: Int) {
        let manifests = files(inCorpus: corpus)
        guard !manifests.isEmpty else {
            throw CorpusError.notACorpus(path: corpus.path,
                                      reason: "no manifest.jsonl and no journal of finished clips (is it a folder made by sekit mix?)")
        }
        let records = try read(manifests)
        let spec = MixCorpusLayout(root: corpus).specFile
        guard let data = FileManager.default.contents(atPath: spec.path),
              let planned = try? JSONDecoder().decode(PlannedClips.self, from: data).clipCount else { return (records, 0) }
        let missing = max(0, planned - Set(records.map(\.index)).count)
        if missing > 0 && !allowIncomplete {
            throw CorpusError.incompleteCorpus(path: corpus.path, present: records.count, planned: planned)
        }
        return (records, missing)
    }

    /// What the corpus reads of its `mix.json`: the number of clips the mix planned.
    private struct PlannedClips: Decodable {
        var clipCount: Int
        enum CodingKeys: String, CodingKey { case clipCount = "clip_count" }
    }

    /// Why `split` selects no clip of `records`, for an error: `no clips in split 'dev' (its splits:
    /// test, train)`, or that the corpus has no clips at all.
    public static func noClipsReason(split: String?, in records: [MixManifestRecord]) -> String {
        guard let split else { return "no clips" }
        let splits = Set(records.map(\.split)).sorted()
        return "no clips in split '\(split)'" + (splits.isEmpty ? "" : " (its splits: \(splits.joined(separator: ", ")))")
    }

    /// Every record of several manifests (a corpus's shards), in clip order.
    public static func read(_ urls: [URL]) throws -> [MixManifestRecord] {
        try urls.flatMap { try read($0) }.sorted { $0.index < $1.index }
    }

    /// Reads a manifest (`manifest.jsonl`), one record a line; blank lines are ignored. A mix's
    /// journal is read as its manifest so far: a last line without its newline (a clip being
    /// journalled when the mix was killed) is left out, and a clip journalled twice counts once.
    /// - Throws: ``CorpusError/outputConflict(path:reason:)`` naming the line that does not parse.
    public static func read(_ url: URL) throws -> [MixManifestRecord] {
        var text = try String(contentsOf: url, encoding: .utf8)
        let journal = isJournal(url)
        if journal, let lastNewline = text.lastIndex(of: "\n") {
            text = String(text[...lastNewline])
        } else if journal {
            text = ""
        }
        var seen = Set<Int>()
        return try numberedRecords(text, path: url.path).map(\.record).filter { !journal || seen.insert($0.index).inserted }
    }

    /// The records of a manifest's text with their line numbers (1-based); blank lines are ignored.
    /// - Throws: ``CorpusError/outputConflict(path:reason:)`` naming the line that does not parse.
    static func numberedRecords(_ text: String, path: String) throws -> [(line: Int, record: MixManifestRecord)] {
        let decoder = JSONDecoder()
        var records: [(line: Int, record: MixManifestRecord)] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            do {
                records.append((number + 1, try decoder.decode(MixManifestRecord.self, from: Data(line.utf8))))
            } catch {
                let problem = Self.decodingProblem(error)
                throw CorpusError.notACorpus(path: path, reason: "line \(number + 1) is not a manifest record (\(problem)); "
                                             + "a manifest holds one JSON object a line, as sekit mix writes it")
            }
        }
        return records
    }

    /// What is wrong with a line, in a user's words: not JSON, or the field that is missing or mistyped.
    static func decodingProblem(_ error: Error) -> String {
        func field(_ path: [CodingKey]) -> String { path.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") }
        switch error {
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty: return "not JSON"
        case DecodingError.dataCorrupted(let context): return "\(field(context.codingPath)): \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, let context): return "no field \(field(context.codingPath + [key]))"
        case DecodingError.typeMismatch(let type, let context): return "\(field(context.codingPath)) is not a \(type)"
        case DecodingError.valueNotFound(let type, let context): return "\(field(context.codingPath)) is null, not a \(type)"
        default: return "\(error)"
        }
    }
}
