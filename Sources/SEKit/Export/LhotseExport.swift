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
    /// - Throws: ``CorpusError`` for a folder that is not a corpus (or an incomplete one without
    ///   `allowIncomplete`), `AudioError` naming a shard or member that cannot be found.
    public static func run(corpus: URL, output: URL, split: String? = nil, allowIncomplete: Bool = false) throws -> Result {
        let all = try MixManifestRecord.corpusRecords(corpus, allowIncomplete: allowIncomplete).records
        let records = split.map { split in all.filter { $0.split == split } } ?? all
        guard !records.isEmpty else {
            throw CorpusError.notACorpus(path: corpus.path, reason: MixManifestRecord.noClipsReason(split: split, in: all))
        }
        let stems = try MixCorpusAudio(corpus: corpus.standardizedFileURL)
        var recordings = Data(), supervisions = Data(), cuts = Data()
        for record in records {
            let noisy = try recording(id: record.clipID, stem: record.noisy, record: record, corpus: stems)
            let clean = try recording(id: record.clipID + ".clean", stem: record.clean, record: record, corpus: stems)
            let noise = try recording(id: record.clipID + ".noise", stem: record.noise, record: record, corpus: stems)
            recordings.append(try LhotseManifest.line(noisy))
            supervisions.append(try LhotseManifest.line(LhotseManifest.supervision(record)))
            cuts.append(try LhotseManifest.line(LhotseManifest.cut(record, noisy: noisy, clean: clean, noise: noise)))
        }
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        var files: [URL] = []
        for (name, lines) in zip(fileNames, [recordings, supervisions, cuts]) {
            let url = output.appendingPathComponent(name)
            try AtomicFile.write(try LhotseManifest.gzip(lines), to: url)
            files.append(url)
        }
        return Result(clips: records.count, files: files)
    }

    /// A lhotse `Recording` of one stem: a file, or a command cutting an archive member's bytes out of its shard.
    static func recording(id: String, stem: String, record: MixManifestRecord, corpus: MixCorpusAudio) throws -> [String: Any] {
        let location = try corpus.location(of: corpus.root.appendingPathComponent(stem))
        guard let bytes = location.bytes else { return LhotseManifest.recording(id: id, source: .file(location.path), record: record) }
        let command = "tail -c +\(bytes.lowerBound + 1) \(shellQuoted(location.path)) | head -c \(bytes.count)"
        return LhotseManifest.recording(id: id, source: .command(command), record: record)
    }

    /// `text` in single quotes for a POSIX shell.
    static func shellQuoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
