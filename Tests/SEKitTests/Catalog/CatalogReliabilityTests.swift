import Foundation
import GRDB
import Testing
@testable import SEKit
@testable import SEKitCatalog
@testable import SEKitSignal

@Suite struct CatalogReliabilityTests {
    /// Eight writers, each with its own connection pool (as separate processes would have), recording
    /// runs and clips into one fresh catalogue at once: all succeed and nothing is lost.
    @Test func eightConcurrentWritersLoseNothing() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("shared.sqlite")
        let writers = 8, batches = 10, clipsPerBatch = 25
        let failures = NSLock()
        nonisolated(unsafe) var errors: [String] = []
        DispatchQueue.concurrentPerform(iterations: writers) { writer in
            do {
                let catalog = try Catalog.open(at: url)   // every writer races to create and migrate the file
                let run = try catalog.beginRun(kind: .mix, name: "writer-\(writer)", commandLine: ["test"], params: ["writer": "\(writer)"])
                for batch in 0..<batches {
                    let clips = (0..<clipsPerBatch).map { CatalogTestSupport.clip(run, index: batch * clipsPerBatch + $0) }
                    try catalog.insertClips(clips)
                }
                try catalog.finishRun(run)
            } catch {
                failures.lock(); errors.append("writer \(writer): \(error)"); failures.unlock()
            }
        }
        #expect(errors.isEmpty, "\(errors)")
        let catalog = try Catalog.open(at: url)
        let runs = try catalog.runs()
        #expect(runs.count == writers && runs.allSatisfy { $0.status == .finished })
        #expect(try catalog.clips().count == writers * batches * clipsPerBatch)
        for run in runs { #expect(try catalog.clips(filter: "run = '\(run.id)'").count == batches * clipsPerBatch) }
    }

    @Test func mergeIsIdempotentAndCompletesRuns() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        var shards: [URL] = []
        let wav = folder.file("corpus/a.wav")
        try CatalogTestSupport.writeWAV(wav)
        for shard in 0..<3 {
            let url = folder.file("shard-\(shard).sqlite")
            let catalog = try Catalog.open(at: url)
            // Every shard imports the same corpus: the source id is the same, so it merges into one row.
            _ = try ImportJob.run(ImportJob.Request(paths: [folder.file("corpus")], kind: .noise, corpus: "toy"),
                    context: RunContext(catalog: catalog, commandLine: ["import"])).result
            let run = try catalog.beginRun(kind: .mix, commandLine: ["mix", "--shard", "\(shard)/3"], params: ["shard": "\(shard)"])
            try catalog.insertClips((0..<5).map { CatalogTestSupport.clip(run, index: shard * 5 + $0, speech: "toy:a.wav", prefix: "c") },
                                    noises: (0..<5).map { ClipNoiseRecord(clipID: CatalogTestSupport.clip(run, index: shard * 5 + $0,
                                            prefix: "c").id, position: 0, sourceID: "toy:a.wav", offsetSeconds: 0) })
            try catalog.insertRunMetrics([RunMetricRecord(runID: run, metric: "snr", mean: 1, n: 5)])
            if shard != 2 { try catalog.finishRun(run) }
            shards.append(url)
        }
        let out = try Catalog.open(at: folder.file("merged.sqlite"))
        let first = try out.merge(shards)
        #expect(try out.clips().count == 15)
        #expect(try out.sources().count == 1)
        #expect(try out.runs().count == 6)
        #expect(try out.runs(filter: "status = 'running'").count == 1)
        var perTable: [String: Int] = [:]
        for counts in first.inserted.values { for (table, n) in counts { perTable[table, default: 0] += n } }
        // Params: 8 per import run (kind, corpus, paths, added, updated, unchanged, failed, files_failed) + 1 per mix run.
        #expect(perTable == ["runs": 6, "params": 27, "sources": 1, "clips": 15, "clip_noises": 15, "clip_degradations": 0,
                             "clip_degradation_params": 0, "artifacts": 0, "clip_scores": 0, "run_metrics": 3,
                             "run_tags": 0, "run_step_metrics": 0, "listening_tests": 0, "listening_stimuli": 0,
                             "listening_raters": 0, "listening_ratings": 0, "analysed_corpora": 0, "source_analysis": 0,
                             "corpora": 0, "corpus_mix_runs": 0, "score_targets": 0])
        let second = try out.merge(shards + shards)
        #expect(second.totalInserted == 0)
        #expect(try out.clips().count == 15 && out.runs().count == 6)
        // The shard whose run was still running finishes; merging again completes it in the output.
        let shard2 = try Catalog.open(at: shards[2])
        let pending = try shard2.runs(filter: "status = 'running'")[0].id
        try shard2.finishRun(pending)
        let third = try out.merge([shards[2]])
        #expect(third.totalInserted == 0 && third.runsCompleted == 1)
        #expect(try out.run(pending.rawValue).status == .finished)
        #expect(throws: CatalogError.self) { _ = try out.merge([folder.file("missing.sqlite")]) }
        #expect(throws: CatalogError.self) { _ = try out.merge([out.url]) }
    }

    /// A run with the same id but another command line in two catalogues is a conflict: refused
    /// (nothing of the input merged, rolled back) under error and rename, kept and reported under keep-first.
    @Test func mergeRefusesRunsWithTheSameIDAndOtherContent() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        var ids: [RunID] = []
        for name in ["a", "b"] {
            let catalog = try Catalog.open(at: folder.file("\(name).sqlite"))
            let run = try catalog.beginRun(kind: .mix, commandLine: ["sekit", "mix", name])
            try catalog.insertClips([CatalogTestSupport.clip(run, index: 0, prefix: name)], noises: [])
            ids.append(run)
        }
        _ = try Catalog.open(at: folder.file("b.sqlite")).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "UPDATE runs SET id = ?", arguments: [ids[0].rawValue])
            try db.execute(sql: "UPDATE clips SET run_id = ?", arguments: [ids[0].rawValue])
        }
        let out = try Catalog.open(at: folder.file("out.sqlite"))
        _ = try out.merge([folder.file("a.sqlite")])
        for policy in [Catalog.MergeConflictPolicy.error, .rename] {
            do {
                _ = try out.merge([folder.file("b.sqlite")], onConflict: policy)
                Issue.record("merged a conflicting run under \(policy)")
            } catch {
                #expect(error.code == "merge-conflict" && error.description.contains("runs \(ids[0].rawValue)")
                        && error.description.contains("sekit mix b"))
            }
            #expect(try out.clips().count == 1)
        }
        let kept = try out.merge([folder.file("b.sqlite")], onConflict: .keepFirst)
        #expect(kept.conflicts.map(\.table) == ["runs"] && kept.conflicts[0].resolution == "kept-first")
        #expect(try out.run(ids[0].rawValue).commandLine == "sekit mix a")
    }

    @Test func checkFindsVanishedChangedAbandonedAndLeaks() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        for name in ["a", "b", "c"] { try CatalogTestSupport.writeWAV(folder.file("corpus/\(name).wav"),
                                                                      frequencyHz: name == "b" ? 300 : 440) }
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        _ = try ImportJob.run(ImportJob.Request(paths: [folder.file("corpus")], kind: .speech, corpus: "toy"),
                context: RunContext(catalog: catalog, commandLine: ["import"])).result
        #expect(try catalog.check().isClean)

        let run = try catalog.beginRun(kind: .mix, commandLine: ["mix"])
        try catalog.insertClips([CatalogTestSupport.clip(run, index: 0, split: "train", speech: "toy:a.wav"),
                                 CatalogTestSupport.clip(run, index: 1, split: "test", speech: "toy:a.wav"),
                                 CatalogTestSupport.clip(run, index: 2, split: "test", speech: "toy:b.wav")])
        try catalog.finishRun(run)
        // A run left running by a process that has exited on this host.
        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/true")
        try dead.run(); dead.waitUntilExit()
        let abandoned = try catalog.beginRun(kind: .features, commandLine: ["features"])
        try catalog.write { db in try db.execute(sql: "UPDATE runs SET pid = ? WHERE id = ?", arguments: [dead.processIdentifier,
                                                                                                          abandoned.rawValue]) }
        let alive = try catalog.beginRun(kind: .features, commandLine: ["features", "--other"])   // this process: alive

        try FileManager.default.removeItem(at: folder.file("corpus/c.wav"))
        try CatalogTestSupport.writeWAV(folder.file("corpus/b.wav"), frequencyHz: 500)   // same size, new content

        let dry = try catalog.check(dryRun: true)
        #expect(dry.abandonedRuns == [abandoned])
        #expect(try catalog.run(abandoned.rawValue).status == .running)
        let report = try catalog.check()
        #expect(report.missingFiles.map(\.id) == ["toy:c.wav"])
        #expect(report.changedFiles.map(\.id) == ["toy:b.wav"])
        #expect(report.splitLeaks == [.init(sourceID: "toy:a.wav", splits: ["test", "train"])])
        #expect(report.abandonedRuns == [abandoned])
        #expect(report.integrityProblems.isEmpty && !report.isClean)
        let marked = try catalog.run(abandoned.rawValue)
        #expect(marked.status == .failed && marked.finishedAt != nil && (marked.error ?? "").contains("abandoned"))
        #expect(try catalog.run(alive.rawValue).status == .running)
        #expect(try catalog.check().abandonedRuns.isEmpty)
    }

    /// A killed run stays `running` until the next run of the same command on this host marks it failed.
    @Test func nextRunOfTheSameCommandMarksAKilledOneFailed() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        let dead = Process()
        dead.executableURL = URL(fileURLWithPath: "/bin/true")
        try dead.run(); dead.waitUntilExit()
        let killed = try catalog.beginRun(kind: .mix, commandLine: ["sekit", "mix", "--seed", "1"])
        let other = try catalog.beginRun(kind: .mix, commandLine: ["sekit", "mix", "--seed", "2"])
        try catalog.write { db in
            try db.execute(sql: "UPDATE runs SET pid = ? WHERE id IN (?, ?)", arguments: [dead.processIdentifier, killed.rawValue,
                                                                                          other.rawValue])
        }
        let next = try catalog.beginRun(kind: .mix, commandLine: ["sekit", "mix", "--seed", "1"])
        #expect(try catalog.run(killed.rawValue).status == .failed)
        #expect(try catalog.run(other.rawValue).status == .running)   // a different command is left to `catalog check`
        #expect(try catalog.run(next.rawValue).status == .running)
    }

    @Test func importIsIdempotentAndReportsUnreadableFiles() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        try CatalogTestSupport.writeWAV(folder.file("corpus/spk1/x.wav"))
        try CatalogTestSupport.writeWAV(folder.file("corpus/spk2/y.wav"), seconds: 0.2)
        try Data("not audio".utf8).write(to: folder.file("corpus/spk2/broken.wav"))
        try Data("transcript".utf8).write(to: folder.file("corpus/spk2/y.txt"))
        try Data().write(to: folder.file("corpus/empty.flac"))
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        let first = try ImportJob.run(ImportJob.Request(paths: [folder.file("corpus"), folder.file("nope")], kind: .speech, corpus: "toy",
                                              speakerPattern: "^(spk[0-9])"),
                                    context: RunContext(catalog: catalog, commandLine: ["import"])).result
        #expect(first.added == ["toy:spk1/x.wav", "toy:spk2/y.wav"])
        #expect(first.skippedNonAudio == 1)
        #expect(first.failures.map { URL(fileURLWithPath: $0.path).lastPathComponent } == ["nope", "empty.flac", "broken.wav"])
        #expect(first.failures.allSatisfy { !$0.reason.isEmpty && !$0.reason.contains($0.path) })
        let again = try ImportJob.run(ImportJob.Request(paths: [folder.file("corpus")], kind: .speech, corpus: "toy",
                                                        speakerPattern: "^(spk[0-9])"),
                context: RunContext(catalog: catalog, commandLine: ["import"])).result
        #expect(again.added.isEmpty && again.updated.isEmpty && again.unchanged == 2)
        try CatalogTestSupport.writeWAV(folder.file("corpus/spk1/x.wav"), seconds: 0.3)
        let changed = try ImportJob.run(ImportJob.Request(paths: [folder.file("corpus")], kind: .speech, corpus: "toy",
                                                        speakerPattern: "^(spk[0-9])"),
                context: RunContext(catalog: catalog, commandLine: ["import"])).result
        #expect(changed.updated == ["toy:spk1/x.wav"])
        #expect(try catalog.sources().map { "\($0.id) \($0.speaker ?? "-") \($0.frames)" } == ["toy:spk1/x.wav spk1 4800",
                                                                                               "toy:spk2/y.wav spk2 3200"])
        #expect(try catalog.runs(filter: "kind = 'import'").count == 3)
        #expect(throws: CatalogError.self) {
            _ = try ImportJob.run(ImportJob.Request(paths: [], kind: .speech, corpus: "toy", speakerPattern: "("),
                                  context: RunContext(catalog: catalog, commandLine: [])).result
        }
    }

    /// The output catalogue under another name (a symbolic or a hard link) is refused as an
    /// input with a clear message ("database is locked" before).
    @Test func mergingTheOutputIntoItselfThroughALinkIsRefused() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let out = try Catalog.open(at: folder.file("out.sqlite"))
        try FileManager.default.createSymbolicLink(at: folder.file("soft.sqlite"), withDestinationURL: folder.file("out.sqlite"))
        try FileManager.default.linkItem(at: folder.file("out.sqlite"), to: folder.file("hard.sqlite"))
        for name in ["soft.sqlite", "hard.sqlite"] {
            do {
                _ = try out.merge([folder.file(name)])
                Issue.record("\(name) was merged into itself")
            } catch {
                #expect("\(error)".contains("is the output catalogue") && "\(error)".contains("(the same file)"), "\(error)")
            }
        }
    }
}
