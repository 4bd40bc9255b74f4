import Foundation

/// Append-only record of finished clips (`OUT/.sekit/journal.jsonl`), one manifest record a
/// line, appended after a clip's three files are in place. A run killed mid-line leaves a torn
/// last line, which is ignored on resume (that clip is simply made again, byte-identical).
final class MixJournal: @unchecked Sendable {
    let url: URL
    /// Records found when the journal was opened.
    let records: [MixManifestRecord]
    /// Their lines as found (newline included), by clip index: the manifest reuses them.
    let lines: [Int: Data]
    private let handle: FileHandle
    private let encoder = MixManifestRecord.encoder()

    init(url: URL) throws {
        self.url = url
        let fm = FileManager.default
        var found: [MixManifestRecord] = []
        var foundLines: [Int: Data] = [:]
        if let data = fm.contents(atPath: url.path) {
            let decoder = JSONDecoder()
            var seen = Set<String>()
            var validLength = 0
            var position = 0
            for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                let end = position + line.count
                defer { position = end + 1 }
                // Only newline-terminated lines count: a torn last line is dropped.
                guard end < data.count, !line.isEmpty,
                      let record = try? decoder.decode(MixManifestRecord.self, from: Data(line)) else { continue }
                validLength = end + 1
                if seen.insert(record.clipID).inserted {
                    found.append(record)
                    foundLines[record.index] = Data(line) + [UInt8(ascii: "\n")]
                }
            }
            if validLength < data.count {
                // Cut the torn tail so new lines start clean.
                let truncating = try FileHandle(forWritingTo: url)
                try truncating.truncate(atOffset: UInt64(validLength))
                try truncating.close()
            }
        } else {
            _ = fm.createFile(atPath: url.path, contents: nil)
        }
        records = found
        lines = foundLines
        handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
    }

    deinit { try? handle.close() }

    /// The journal (and manifest) line of a record: sorted-key JSON and a newline. Thread-safe.
    func line(for record: MixManifestRecord) throws -> Data {
        var line = try encoder.encode(record)
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// Appends one line from ``line(for:)`` (one `write`). Callers serialise appends.
    func append(line: Data) throws {
        try handle.write(contentsOf: line)
    }
}

/// `OUT/mix.json`: what the corpus in a folder was made from. A second `sekit mix` into the
/// same folder must match it (then it resumes) or is refused.
enum MixSpecFile {
    struct Spec: Codable, Equatable {
        var format = "sekit-mix"
        var formatVersion = 1
        var options: MixOptions
        var clipCount: Int
        var speech: [String]
        var noise: [String]
        var rir: [String]
        /// Every source with its SHA-256 (absent in mixes made before sources were hashed).
        var sources: [SourceIdentity]? = nil
        /// The manifest the clips were rendered from (`sekit mix --from-manifest`); absent for a drawn mix.
        var fromManifest: ManifestIdentity? = nil
        /// `"native"` for a mix whose clips keep their speech source's rate; absent otherwise.
        var sampleRate: String? = nil
        /// The rates the clips of a native-rate mix have, ascending; absent otherwise.
        var sampleRates: [Int]? = nil
        /// How the corpus's SNRs are grouped into subsets (``SNRSubsetRule``): from the SNR
        /// specification of a drawn mix; absent for a re-rendered one and in older mixes.
        var snrSubsets: SNRSubsetRule? = nil
        enum CodingKeys: String, CodingKey {
            case format, formatVersion = "format_version", options, clipCount = "clip_count", speech, noise, rir
            case sources, fromManifest = "from_manifest", sampleRate = "sample_rate", sampleRates = "sample_rates"
            case snrSubsets = "snr_subsets"
        }

        /// Whether `other` describes the same mix, so that a second run into the folder resumes it:
        /// equal but for the sources' paths (the same files reached from another working folder),
        /// their hashes compared only when both record them.
        func isSameMix(as other: Spec) -> Bool {
            let hashes = sources != nil && other.sources != nil
            func comparable(_ spec: Spec) -> Spec {
                var copy = spec
                copy.sources = hashes ? spec.sources?.map { SourceIdentity(kind: $0.kind, key: $0.key, path: "", sha256: $0.sha256) } : nil
                // Derived from the rest (and once listed every speech rate, drawn or not): not compared.
                copy.sampleRates = nil
                copy.snrSubsets = nil
                return copy
            }
            return comparable(self) == comparable(other)
        }
    }

    /// A source of a mix as `mix.json` records it (field `sources`): kind, key (the name the
    /// planner sorts and splits by), path as given, SHA-256 of the file's bytes.
    struct SourceIdentity: Codable, Equatable {
        var kind: MixSource.Kind
        var key: String
        var path: String
        var sha256: String?
    }

    /// The manifest a re-rendered mix came from (`mix.json` `from_manifest`): its path as given and
    /// the SHA-256 of its bytes.
    struct ManifestIdentity: Codable, Equatable {
        var path: String
        var sha256: String
    }

    /// The options to mix into `layout`'s folder with: `options`, except that a folder holding the
    /// same mix made before the onset rule (its `mix.json` options have no `rirAlignment`) keeps
    /// aligning on the RIRs' peaks, so its resumed clips match those already made.
    static func resumedOptions(_ options: MixOptions, layout: MixCorpusLayout) -> MixOptions {
        guard options.rirAlignment != nil, let data = FileManager.default.contents(atPath: layout.specFile.path),
              let existing = try? JSONDecoder().decode(Spec.self, from: data), existing.options.rirAlignment == nil else { return options }
        var old = options
        old.rirAlignment = nil
        return existing.options == old ? old : options
    }

    static func spec(of planner: MixPlanner) -> Spec {
        func describe(_ sources: [MixSource]) -> [String] { sources.map { "\($0.key)\t\($0.frames)\t\($0.sampleRate)" } }
        let all = planner.speech + planner.noise + planner.rirs
        var spec = Spec(options: planner.options, clipCount: planner.clipCount,
                        speech: describe(planner.speech), noise: describe(planner.noise), rir: describe(planner.rirs))
        if all.allSatisfy({ $0.sha256 != nil }) {
            spec.sources = all.map { SourceIdentity(kind: $0.kind, key: $0.key, path: $0.path, sha256: $0.sha256) }
        }
        spec.fromManifest = planner.manifest.map { ManifestIdentity(path: $0.path, sha256: $0.sha256) }
        if planner.manifest == nil { spec.snrSubsets = planner.options.snrSubsetRule }
        if planner.options.isNativeRate {
            spec.sampleRate = MixOptions.nativeRateName
            spec.sampleRates = planner.clipRates()
        }
        return spec
    }

    /// What differs between the mix in a folder and the one asked for, for the refusal message:
    /// options with both values (`snrDB: -5:20 in the folder, 0,5 now`), and counts of
    /// sources that differ.
    static func differencesBetween(_ existing: Spec, _ wanted: Spec) -> String {
        func fields(_ spec: Spec) -> [String: String] {
            var values: [String: String] = [:]
            for child in Mirror(reflecting: spec.options).children {
                guard let label = child.label else { continue }
                let text = "\(child.value)"
                values[label] = text.hasPrefix("Optional(") ? String(text.dropFirst(9).dropLast()) : text == "nil" ? "unset" : text
            }
            return values
        }
        let old = fields(existing), new = fields(wanted)
        var parts = Set(old.keys).union(new.keys).sorted().compactMap { key -> String? in
            old[key] == new[key] ? nil : "\(key): \(old[key] ?? "unset") in the folder, \(new[key] ?? "unset") now"
        }
        if existing.clipCount != wanted.clipCount { parts.append("clips: \(existing.clipCount) in the folder, \(wanted.clipCount) now") }
        for (name, a, b) in [("speech", existing.speech, wanted.speech), ("noise", existing.noise, wanted.noise), ("rir", existing.rir,
                wanted.rir)] where a != b {
            parts.append("\(name) sources: \(Set(a).subtracting(b).count) only in the folder's mix, "
                         + "\(Set(b).subtracting(a).count) only in this one")
        }
        if let before = existing.sources, let now = wanted.sources {
            let hashes = Dictionary(before.map { ("\($0.kind)/\($0.key)", $0.sha256) }, uniquingKeysWith: { first, _ in first })
            let changed = now.filter { source in hashes["\(source.kind)/\(source.key)"].map { $0 != source.sha256 } ?? false }.count
            if changed > 0 { parts.append("sources: \(changed) changed since the folder's mix (SHA-256 differs)") }
        }
        if existing.fromManifest != wanted.fromManifest {
            let before = existing.fromManifest?.path ?? "unset", now = wanted.fromManifest?.path ?? "unset"
            parts.append("from-manifest: \(before) in the folder, \(now) now")
        }
        return parts.isEmpty ? "see its mix.json" : parts.joined(separator: "; ")
    }

    /// Writes `mix.json`, or checks that the existing one describes the same mix.
    ///
    /// A folder holds one kind of run: shards of one command (`manifest-shard-I-of-N.jsonl`) or
    /// one unsharded run (`manifest.jsonl`); running the other kind into it would make a second
    /// set of the same clips, so it is refused unless `overwrite`.
    /// - Returns: whether a different mix was replaced (`overwrite`).
    @discardableResult
    static func claim(layout: MixCorpusLayout, planner: MixPlanner, overwrite: Bool) throws -> Bool {
        let fm = FileManager.default
        let wanted = spec(of: planner)
        let entries = (try? fm.contentsOfDirectory(atPath: layout.root.path)) ?? []
        let conflict: String?
        if let data = fm.contents(atPath: layout.specFile.path) {
            let existing = try? JSONDecoder().decode(Spec.self, from: data)
            if !(existing?.isSameMix(as: wanted) ?? false) {
                let differences = existing.map { differencesBetween($0, wanted) } ?? "its mix.json is not readable"
                conflict = "holds a different mix (\(differences)); choose another folder or ask for it to be overwritten"
            } else {
                let state = (try? fm.contentsOfDirectory(atPath: layout.stateFolder.path)) ?? []
                let sharded = entries.contains { $0.hasPrefix("manifest-shard-") }
                    || state.contains { $0.contains("-shard-") && !$0.hasPrefix("lock") }
                let whole = entries.contains("manifest.jsonl") || state.contains("journal.jsonl")
                if layout.shard == .whole && sharded {
                    conflict = "was made in shards (manifest-shard-*.jsonl); an unsharded run would make every clip a second time: "
                        + "run the shards, or ask for it to be overwritten"
                } else if layout.shard != .whole && whole {
                    conflict = "was made by an unsharded run (manifest.jsonl); a shard would make its clips a second time: "
                        + "choose another folder, or ask for it to be overwritten"
                } else {
                    return false  // the same mix: resume
                }
            }
        } else if entries.contains(where: { !$0.hasPrefix(".") }) {
            // Not made by sekit mix (or its mix.json was removed): nothing in it is ours to replace.
            // (Hidden entries do not count: another shard's mix.json may be on its way in under a
            // temporary name.)
            conflict = "is not empty and holds no mix.json (it was not made by sekit mix: "
                + "\(entries.filter { !$0.hasPrefix(".") }.sorted().prefix(3).joined(separator: ", ")), ...); "
                + "choose an empty or new folder, or ask for it to be overwritten"
        } else {
            conflict = nil
        }
        if let conflict {
            guard overwrite else { throw MixError.outputConflict(path: layout.root.path, reason: conflict) }
            removeMix(layout: layout)
        }
        try fm.createDirectory(at: layout.root, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        try AtomicFile.write(try encoder.encode(wanted), to: layout.specFile)
        return conflict != nil
    }

    /// Removes what sekit mix writes in a folder (stems, archive shards, manifests, the state but
    /// for the lock files, which other writers hold or wait on); anything else in the folder stays.
    static func removeMix(layout: MixCorpusLayout) {
        let fm = FileManager.default
        for folder in [layout.noisyFolder, layout.cleanFolder, layout.noiseFolder] {
            try? fm.removeItem(at: folder)
        }
        for name in (try? fm.contentsOfDirectory(atPath: layout.stateFolder.path)) ?? [] where !name.hasPrefix("lock") {
            try? fm.removeItem(at: layout.stateFolder.appendingPathComponent(name))
        }
        for name in (try? fm.contentsOfDirectory(atPath: layout.root.path)) ?? [] {
            let manifest = name.hasPrefix("manifest") && name.hasSuffix(".jsonl")
            let shard = MixArchiveLayout.isShardFile(name)
            if manifest || shard || name == MixArchiveLayout.file(in: layout.root).lastPathComponent {
                try? fm.removeItem(at: layout.root.appendingPathComponent(name))
            }
        }
        // The shards' own folder (Shar: OUT/shar/): its shard files, then the folder when nothing else is left.
        for format in MixArchiveLayout.Format.allCases {
            guard let folder = MixArchiveLayout.folder(of: format).map(layout.root.appendingPathComponent) else { continue }
            for name in (try? fm.contentsOfDirectory(atPath: folder.path)) ?? [] where MixArchiveLayout.isShardFile(name) {
                try? fm.removeItem(at: folder.appendingPathComponent(name))
            }
            if ((try? fm.contentsOfDirectory(atPath: folder.path)) ?? ["?"]).isEmpty { try? fm.removeItem(at: folder) }
        }
    }

    /// Writes the manifest atomically, one sorted-key JSON object a line; `lines` holds records
    /// already encoded (by clip index), the others are encoded here.
    static func writeManifest(_ records: [MixManifestRecord], lines: [Int: Data] = [:], to url: URL) throws {
        let encoder = MixManifestRecord.encoder()
        var data = Data()
        for record in records {
            if let line = lines[record.index] {
                data.append(line)
            } else {
                data.append(try encoder.encode(record))
                data.append(UInt8(ascii: "\n"))
            }
        }
        try AtomicFile.write(data, to: url)
    }
}
