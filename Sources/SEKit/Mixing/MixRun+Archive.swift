import Foundation

extension MixRun {
    /// The archive shards this command shard writes: all of them unsharded, shard k with
    /// k mod N = I − 1 for `--shard I/N`.
    var archiveShards: [Int] {
        guard let archive else { return [] }
        return (0..<archive.shardCount).filter(layout.shard.contains)
    }

    /// ``run(progress:)`` for a mix written as archive shards: each shard not yet written is
    /// rendered (clips in parallel, written in clip order: the bytes do not depend on `--jobs`),
    /// written under a temporary name and renamed, then journalled; a shard under its final name
    /// is finished, so a killed mix resumes at the first unfinished shard.
    func runArchive(progress: @escaping @Sendable (Int, Int) -> Void) throws -> MixResult {
        guard let archive else { preconditionFailure("runArchive without an archive layout") }
        let fm = FileManager.default
        try fm.createDirectory(at: layout.stateFolder, withIntermediateDirectories: true)
        let shards = archiveShards
        if let folder = archive.folder {
            try fm.createDirectory(at: layout.root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for name in shards.flatMap(archive.files(ofShard:)) + [layout.specFile.lastPathComponent, layout.manifest.lastPathComponent] {
            let file = layout.root.appendingPathComponent(name)
            AtomicFile.removeStaleTemporaries(in: file.deletingLastPathComponent(), named: file.lastPathComponent)
        }
        let journal = try MixJournal(url: layout.journal)
        var lines = journal.lines
        var records = Dictionary(journal.records.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
        let total = shardIndices.count
        var resumed = 0
        var todo: [Int] = []
        for k in shards {
            let marker = layout.root.appendingPathComponent(archive.files(ofShard: k).last!)
            let clips = archive.clips(ofShard: k)
            guard fm.fileExists(atPath: marker.path) else { todo.append(k); continue }
            if clips.contains(where: { lines[$0] == nil }) {
                // Killed between finishing the shard and journalling it: a tar shard holds its
                // records (CLIP_ID.json); a Shar shard is made again (the same bytes).
                guard archive.format == .tar else { todo.append(k); continue }
                for (record, line) in try Self.records(inShard: marker) where lines[record.index] == nil {
                    try journal.append(line: line)
                    lines[record.index] = line
                    records[record.index] = record
                }
            }
            resumed += clips.filter { lines[$0] != nil }.count
        }
        progress(resumed, total)
        var written = 0, failures: [(Int, String)] = []
        for k in todo {
            let files = archive.files(ofShard: k).map { layout.root.appendingPathComponent($0) }
            let writers = try (archive.format == .tar ? files : Array(files.dropLast())).map { try TarWriter(url: $0) }
            var cuts = Data()
            var made: [(record: MixManifestRecord, line: Data)] = []
            try ParallelMap.forEachInOrder(Array(archive.clips(ofShard: k)), jobs: jobs) { index in
                try clipOutcome(index) { clip in try archiveMembers(clip, archive: archive) }
            } consume: { _, outcome in
                switch outcome {
                case .success(let clip):
                    for (writer, bytes) in zip(writers, clip.members) { try writer.append(bytes) }
                    cuts.append(clip.cut)
                    made.append((clip.record, clip.line))
                case .failure(let failure):
                    failures.append((failure.index, failure.reason))
                }
                progress(resumed + written + made.count, total)
            }
            for writer in writers { try writer.finish() }
            if archive.format == .shar { try AtomicFile.write(try LhotseManifest.gzip(cuts), to: files.last!) }
            for (record, line) in made {
                if lines[record.index] != line { try journal.append(line: line) }
                lines[record.index] = line
                records[record.index] = record
            }
            written += made.count
        }
        let done = records.values.sorted { $0.index < $1.index }
        try MixSpecFile.writeManifest(done, lines: lines, to: layout.manifest)
        return MixResult(
            written: written, resumed: resumed, failures: failures.sorted { $0.0 < $1.0 },
            skippedSources: skippedSources, records: done, layout: layout,
            audioSeconds: done.reduce(0) { $0 + $1.durationSeconds })
    }

    /// A clip's archive bytes, one `Data` per tar of the shard, with its record and manifest line.
    /// tar: `ID.noisy.wav`, `ID.clean.wav`, `ID.noise.wav` (the bytes the folder layout writes) and
    /// `ID.json` (its manifest line), in the shard's one tar. shar: `ID.wav` and `ID.json` (the
    /// recording's Shar placeholder) in each of `recording`, `clean` and `noise`, and its cut's line.
    private func archiveMembers(_ clip: RenderedClip, archive: MixArchiveLayout)
        throws -> (members: [Data], cut: Data, record: MixManifestRecord, line: Data) {
        let record = manifestRecord(clip)
        var line = try MixManifestRecord.encoder().encode(record)
        let id = clip.plan.clipID, rate = planner.sampleRate(of: clip.plan)
        let format = archive.format
        let placeholders = ["noisy": id, "clean": id + ".clean", "noise": id + ".noise"].mapValues {
            LhotseManifest.recording(id: $0, source: .shar, record: record)
        }
        var members: [Data] = []
        func add(_ stem: String, _ samples: UnsafeRawBufferPointer, frames: Int, float: Bool) throws {
            let header = AudioWriter.wavHeader(frames: frames, sampleRate: rate, float: float)
            let name = archive.memberName(clipID: id, stem: stem)
            var bytes = try header.withUnsafeBytes { try TarWriter.member(name: name, parts: [$0, samples]) }
            if format == .shar {
                try LhotseManifest.line(placeholders[stem]!).withUnsafeBytes {
                    bytes.append(try TarWriter.member(name: MixArchiveLayout.recordMemberName(clipID: id), parts: [$0]))
                }
            }
            members.append(bytes)
        }
        switch clip.stems {
        case let .pcm16(noisy, clean, noise):
            for (stem, codes) in [("noisy", noisy), ("clean", clean), ("noise", noise)] {
                try codes.withUnsafeBytes { try add(stem, $0, frames: codes.count, float: false) }
            }
        case let .float32(noisy, clean, noise):
            for (stem, samples) in [("noisy", noisy), ("clean", clean), ("noise", noise)] {
                if !samples.withUnsafeBufferPointer(PCM16.allFinite), let bad = samples.firstIndex(where: { !$0.isFinite }) {
                    throw AudioError.invalidParameter(name: "samples", value: "sample \(bad)",
                                                      reason: "NaN or infinite; not written to the \(stem) stem")
                }
                try samples.withUnsafeBytes { try add(stem, $0, frames: samples.count, float: true) }
            }
        }
        var cut = Data()
        if format == .tar {
            let name = MixArchiveLayout.recordMemberName(clipID: id)
            try line.withUnsafeBytes { members[2].append(try TarWriter.member(name: name, parts: [$0])) }
            members = [members.reduce(Data(), +)]
        } else {
            cut = try LhotseManifest.line(LhotseManifest.cut(record, noisy: placeholders["noisy"]!, clean: placeholders["clean"]!,
                                                             noise: placeholders["noise"]!))
        }
        line.append(UInt8(ascii: "\n"))
        return (members, cut, record, line)
    }

    /// The records in a written shard's `ID.json` members, with their manifest lines.
    static func records(inShard url: URL) throws -> [(record: MixManifestRecord, line: Data)] {
        let index = try TarIndex(path: url.path)
        guard let handle = FileHandle(forReadingAtPath: url.path) else { throw AudioError.fileNotFound(path: url.path) }
        defer { try? handle.close() }
        let decoder = JSONDecoder()
        return try index.members.filter { $0.name.hasSuffix(".json") }.map { member in
            try handle.seek(toOffset: UInt64(member.bytes.lowerBound))
            var line = try handle.read(upToCount: member.bytes.count) ?? Data()
            do {
                let record = try decoder.decode(MixManifestRecord.self, from: line)
                line.append(UInt8(ascii: "\n"))
                return (record, line)
            } catch {
                throw MixError.outputConflict(path: url.path + ":" + member.name,
                                              reason: "not a manifest record (\(error)); remove the shard to make it again")
            }
        }
    }
}
