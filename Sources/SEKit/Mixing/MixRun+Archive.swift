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
        for name in shards.map(archive.shardName) + [layout.specFile.lastPathComponent, layout.manifest.lastPathComponent] {
            AtomicFile.removeStaleTemporaries(in: layout.root, named: name)
        }
        let journal = try MixJournal(url: layout.journal)
        var lines = journal.lines
        var records = Dictionary(journal.records.map { ($0.index, $0) }, uniquingKeysWith: { first, _ in first })
        let total = shardIndices.count
        var resumed = 0
        var todo: [Int] = []
        for k in shards {
            let url = layout.root.appendingPathComponent(archive.shardName(k))
            guard fm.fileExists(atPath: url.path) else { todo.append(k); continue }
            if archive.clips(ofShard: k).contains(where: { lines[$0] == nil }) {
                // Killed between renaming the shard and journalling it: its records are in it.
                for (record, line) in try Self.records(inShard: url) where lines[record.index] == nil {
                    try journal.append(line: line)
                    lines[record.index] = line
                    records[record.index] = record
                }
            }
            resumed += archive.clips(ofShard: k).filter { lines[$0] != nil }.count
        }
        progress(resumed, total)
        var written = 0, failures: [(Int, String)] = []
        for k in todo {
            let writer = try TarWriter(url: layout.root.appendingPathComponent(archive.shardName(k)))
            var made: [(record: MixManifestRecord, line: Data)] = []
            try ParallelMap.forEachInOrder(Array(archive.clips(ofShard: k)), jobs: jobs) { index in
                try clipOutcome(index) { clip in try archiveMembers(clip) }
            } consume: { _, outcome in
                switch outcome {
                case .success(let clip):
                    try writer.append(clip.bytes)
                    made.append((clip.record, clip.line))
                case .failure(let failure):
                    failures.append((failure.index, failure.reason))
                }
                progress(resumed + written + made.count, total)
            }
            try writer.finish()
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

    /// A clip's tar members (`ID.noisy.wav`, `ID.clean.wav`, `ID.noise.wav`: the bytes the
    /// folder layout writes; `ID.json`: its manifest line), as archive bytes, with its record.
    private func archiveMembers(_ clip: RenderedClip) throws -> (bytes: Data, record: MixManifestRecord, line: Data) {
        let record = manifestRecord(clip)
        var line = try MixManifestRecord.encoder().encode(record)
        let id = clip.plan.clipID, rate = planner.options.sampleRate
        var bytes = Data()
        func add(_ stem: String, _ samples: UnsafeRawBufferPointer, frames: Int, float: Bool) throws {
            let header = AudioWriter.wavHeader(frames: frames, sampleRate: rate, float: float)
            let name = MixArchiveLayout.memberName(clipID: id, stem: stem)
            try header.withUnsafeBytes { bytes.append(try TarWriter.member(name: name, parts: [$0, samples])) }
        }
        switch clip.stems {
        case let .pcm16(noisy, clean, noise):
            bytes.reserveCapacity(4 * TarWriter.blockBytes + 3 * (TarWriter.padded(44 + 2 * noisy.count)) + 2 * TarWriter.blockBytes)
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
        try line.withUnsafeBytes { bytes.append(try TarWriter.member(name: MixArchiveLayout.recordMemberName(clipID: id), parts: [$0])) }
        line.append(UInt8(ascii: "\n"))
        return (bytes, record, line)
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
