import Foundation

/// The lhotse manifest entries SEKit writes for a clip (`sekit export lhotse`, and the cuts of
/// `sekit mix --archive shar`), as JSON objects: a `Recording` per stem, a `SupervisionSegment`
/// over the whole clip, and a `MonoCut` whose custom fields are the clip's manifest record (the stem
/// paths aside) and its clean and noise stems as recordings.
public enum LhotseManifest {
    /// Where a recording's audio is: a file, a shell command printing its bytes, or a Shar placeholder.
    public enum Source: Sendable {
        case file(String)
        case command(String)
        /// Filled by lhotse from the field's tar member (`sources: [{type: shar, source: ""}]`).
        case shar
    }

    /// A `Recording` of one mono stem at the corpus rate.
    public static func recording(id: String, source: Source, record: MixManifestRecord) -> [String: Any] {
        let (type, path): (String, String)
        switch source {
        case .file(let file): (type, path) = ("file", file)
        case .command(let command): (type, path) = ("command", command)
        case .shar: (type, path) = ("shar", "")
        }
        return ["id": id, "sources": [["type": type, "channels": [0], "source": path]], "sampling_rate": record.sampleRate,
                "num_samples": record.numSamples, "duration": record.durationSeconds, "channel_ids": [0]]
    }

    /// A `SupervisionSegment` over the whole clip (with the first speech source's speaker when known).
    public static func supervision(_ record: MixManifestRecord) -> [String: Any] {
        var supervision: [String: Any] = ["id": record.clipID, "recording_id": record.clipID, "start": 0,
                                          "duration": record.durationSeconds, "channel": 0]
        if let speaker = record.speechSources.first?.speaker { supervision["speaker"] = speaker }
        return supervision
    }

    /// The `MonoCut` of a clip: id `CLIP_ID`, its noisy recording, supervision, and custom fields
    /// (the manifest record's fields but the stem paths, and the `clean` and `noise` recordings).
    public static func cut(_ record: MixManifestRecord, noisy: [String: Any], clean: [String: Any],
                           noise: [String: Any]) throws -> [String: Any] {
        let encoded = try MixManifestRecord.encoder().encode(record)
        var custom = (try JSONSerialization.jsonObject(with: encoded) as? [String: Any]) ?? [:]
        for key in ["noisy", "clean", "noise"] { custom.removeValue(forKey: key) }
        custom["clean"] = clean
        custom["noise"] = noise
        return ["id": record.clipID, "start": 0, "duration": record.durationSeconds, "channel": 0,
                "supervisions": [supervision(record)], "recording": noisy, "custom": custom, "type": "MonoCut"]
    }

    /// One JSON line (sorted keys) of `object`, newline included.
    public static func line(_ object: [String: Any]) throws -> Data {
        var data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// `data` gzip-compressed, deterministically (mtime 0): what `.jsonl.gz` manifests hold.
    public static func gzip(_ data: Data) throws -> Data { try Gzip.compress(data) }
}
