import Foundation

/// `sekit export lhotse`: a mixed corpus (folder or archive) as lhotse manifests, so that lhotse's
/// `load_manifest` and `CutSet` read it without a copy of the audio:
/// - `recordings.jsonl.gz`: one recording per clip, its noisy stem (id `CLIP_ID`);
/// - `supervisions.jsonl.gz`: one supervision per clip over the whole clip (speaker when known);
/// - `cuts.jsonl.gz`: one `MonoCut` per clip (id `CLIP_ID`) with that recording and supervision,
///   and custom fields: the manifest record's fields (`snr_db_realised`, `split`, `level_dbfs`, ...;
///   the stem paths aside) and the clean and noise stems as recordings (`clean`, `noise`, ids
///   `CLIP_ID.clean`, `CLIP_ID.noise`), loaded with `cut.load_clean()` / `cut.load_noise()`.
/// A stem in a folder corpus is a `file` source (absolute path); a member of an archive shard is a
/// `command` source that cuts its byte range out of the shard (`tail -c +OFFSET SHARD | head -c LENGTH`).
/// The files are gzip with mtime 0: the same corpus gives the same bytes.
public enum LhotseExport {
    /// What was written.
    public struct Result: Sendable {
        public var clips: Int
        public var files: [URL]
    }

    /// The manifest files, in the order written.
    public static let fileNames = ["recordings.jsonl.gz", "supervisions.jsonl.gz", "cuts.jsonl.gz"]

    /// Writes the manifests of `corpus` (its clips in `split`, all when nil) into `output`.
    /// - Throws: ``MixError`` for a folder that is not a corpus (or an incomplete one without
    ///   `allowIncomplete`), `AudioError` naming a shard or member that cannot be found.
    public static func run(corpus: URL, output: URL, split: String? = nil, allowIncomplete: Bool = false) throws -> Result {
        let all = try MixManifestRecord.corpusRecords(corpus, allowIncomplete: allowIncomplete).records
        let records = split.map { split in all.filter { $0.split == split } } ?? all
        guard !records.isEmpty else {
            throw MixError.notACorpus(path: corpus.path, reason: MixManifestRecord.noClipsReason(split: split, in: all))
        }
        let stems = try MixCorpusAudio(corpus: corpus.standardizedFileURL)
        var recordings = Data(), supervisions = Data(), cuts = Data()
        for record in records {
            let noisy = try recording(id: record.clipID, stem: record.noisy, record: record, corpus: stems)
            let supervision = supervision(record)
            var custom = try customFields(record)
            custom["clean"] = try recording(id: record.clipID + ".clean", stem: record.clean, record: record, corpus: stems)
            custom["noise"] = try recording(id: record.clipID + ".noise", stem: record.noise, record: record, corpus: stems)
            let cut: [String: Any] = [
                "id": record.clipID, "start": 0, "duration": record.durationSeconds, "channel": 0,
                "supervisions": [supervision], "recording": noisy, "custom": custom, "type": "MonoCut",
            ]
            try append(noisy, to: &recordings)
            try append(supervision, to: &supervisions)
            try append(cut, to: &cuts)
        }
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        var files: [URL] = []
        for (name, lines) in zip(fileNames, [recordings, supervisions, cuts]) {
            let url = output.appendingPathComponent(name)
            try AtomicFile.write(try Gzip.compress(lines), to: url)
            files.append(url)
        }
        return Result(clips: records.count, files: files)
    }

    /// A lhotse `Recording` of one stem (mono, the corpus rate).
    static func recording(id: String, stem: String, record: MixManifestRecord, corpus: MixCorpusAudio) throws -> [String: Any] {
        let location = try corpus.location(of: corpus.root.appendingPathComponent(stem))
        let source: [String: Any]
        if let bytes = location.bytes {
            let command = "tail -c +\(bytes.lowerBound + 1) \(shellQuoted(location.path)) | head -c \(bytes.count)"
            source = ["type": "command", "channels": [0], "source": command]
        } else {
            source = ["type": "file", "channels": [0], "source": location.path]
        }
        return ["id": id, "sources": [source], "sampling_rate": record.sampleRate, "num_samples": record.numSamples,
                "duration": record.durationSeconds, "channel_ids": [0]]
    }

    /// A lhotse `SupervisionSegment` over the whole clip.
    static func supervision(_ record: MixManifestRecord) -> [String: Any] {
        var supervision: [String: Any] = ["id": record.clipID, "recording_id": record.clipID, "start": 0,
                                          "duration": record.durationSeconds, "channel": 0]
        if let speaker = record.speechSources.first?.speaker { supervision["speaker"] = speaker }
        return supervision
    }

    /// The manifest record's fields but the stem paths (which the recordings replace).
    static func customFields(_ record: MixManifestRecord) throws -> [String: Any] {
        let encoded = try MixManifestRecord.encoder().encode(record)
        guard var fields = try JSONSerialization.jsonObject(with: encoded) as? [String: Any] else { return [:] }
        for key in ["noisy", "clean", "noise"] { fields.removeValue(forKey: key) }
        return fields
    }

    static func append(_ object: [String: Any], to lines: inout Data) throws {
        lines.append(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
        lines.append(UInt8(ascii: "\n"))
    }

    /// `text` in single quotes for a POSIX shell.
    static func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
