import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `sekit mix` through the real binary: catalogue recording, kill and resume, catalogued inputs.
@Suite struct MixCommandTests {
    static var sqliteAvailable: Bool { TestEnvironment.sqliteAvailable }

    /// Speech and noise folders of generated ramps (not silent, long enough).
    func makeSources(_ folder: CatalogCLIFolder) throws {
        for i in 0..<6 { try folder.writeWAV("speech/spk\(i % 2)/utt\(i).wav", frames: 16_000, seed: i) }
        for i in 0..<3 { try folder.writeWAV("noise/n\(i).wav", frames: 24_000, seed: 100 + i) }
    }

    @Test(.enabled(if: sqliteAvailable, "needs /usr/bin/sqlite3")) func killedMixResumesAndCatalogueMatchesFolder() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        try makeSources(folder)
        let catalog = folder.path("catalog.sqlite")
        let arguments = ["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "400",
                         "--seconds", "0.5", "--split", "train=0.75,test=0.25", "--seed", "7", "--jobs", "2",
                         "--out", folder.path("out"), "--catalog", catalog]
        // Start, wait until some clips exist, kill -9 mid-run.
        let process = Process()
        process.executableURL = SEKitBinary.url
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let noisy = folder.url.appendingPathComponent("out/noisy")
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let count = (try? FileManager.default.contentsOfDirectory(atPath: noisy.path).count) ?? 0
            if count >= 40 || !process.isRunning { break }
            usleep(2_000)
        }
        let killedEarly = process.isRunning
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(killedEarly, "the mix finished before it could be killed; make it longer")
        #expect(try folder.sqlite(catalog, "SELECT status FROM runs") == "running")

        let again = try SEKitBinary.run(arguments)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("resumed"))
        let files = try FileManager.default.contentsOfDirectory(atPath: noisy.path)
        #expect(files.filter { $0.hasSuffix(".wav") && !$0.hasPrefix(".") }.count == 400)
        #expect(files.filter { $0.hasPrefix(".") }.isEmpty, "temporary files left: \(files.filter { $0.hasPrefix(".") })")
        let manifest = try String(contentsOfFile: folder.path("out/manifest.jsonl"), encoding: .utf8)
        let ids = manifest.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["clip_id"] as? String ?? ""
        }
        #expect(ids.count == 400 && Set(ids).count == 400)
        // One run, reopened and finished, holding exactly the clips of the folder.
        #expect(try folder.sqlite(catalog, "SELECT count(*) || ' ' || group_concat(status) FROM runs") == "1 finished")
        #expect(try folder.sqlite(catalog, "SELECT count(*), count(DISTINCT clip_index) FROM clips") == "400|400")
        let catalogued = try folder.sqlite(catalog, "SELECT substr(id, instr(id, '/') + 1) FROM clips ORDER BY clip_index")
        #expect(catalogued.split(separator: "\n").map(String.init) == ids)
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM clip_noises") == "400")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM artifacts WHERE kind = 'mix-manifest'") == "1")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM clips WHERE abs(snr_realised_db - snr_requested_db) > 0.05") == "0")
        // Sources: registered once each, with hashes, in the corpus named by their folder.
        #expect(try folder.sqlite(catalog,
                                  "SELECT kind || ':' || count(*) FROM sources GROUP BY kind ORDER BY kind") == "noise:3\nspeech:6")
        #expect(try folder.sqlite(catalog, "SELECT DISTINCT corpus FROM sources WHERE kind = 'speech'") == "speech")
    }

    @Test(.enabled(if: sqliteAvailable, "needs /usr/bin/sqlite3")) func aDifferentMixOverwrittenIntoTheFolderIsANewRun() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        try makeSources(folder)
        let catalog = folder.path("catalog.sqlite")
        func mix(seed: Int, extra: [String] = []) throws -> SEKitBinary.Result {
            try SEKitBinary.run(["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "4",
                                 "--seconds", "0.5", "--seed", "\(seed)", "--out", folder.path("out"), "--catalog", catalog] + extra)
        }
        #expect(try mix(seed: 1).status == 0)
        #expect(try mix(seed: 1).status == 0, "the same mix again reopens its run")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM runs") == "1")
        #expect(try mix(seed: 2).status != 0, "a different mix into the same folder is refused without --overwrite")
        let replaced = try mix(seed: 2, extra: ["--overwrite"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM runs WHERE kind = 'mix' AND status = 'finished'") == "2")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM clips WHERE id LIKE '%/s2-%'") == "4")
        // The replaced run's clip rows are gone (their files hold the new mix now); the run stays as history.
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM clips") == "4")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM clip_noises") == "4")
        #expect(try folder.sqlite(catalog,
                "SELECT p.value_text FROM params p JOIN runs r ON r.id = p.run_id WHERE p.key = 'clips_superseded'") == "4")
        let newRun = try folder.sqlite(catalog, "SELECT DISTINCT run_id FROM clips")
        #expect(try folder.sqlite(catalog, "SELECT value_text FROM params WHERE key = 'superseded_by'") == newRun)

        // A shard into the finished unsharded folder would make its clips a second time: refused.
        let shard = try mix(seed: 2, extra: ["--shard", "1/2"])
        #expect(shard.status != 0 && shard.stderr.contains("was made by an unsharded run"), "\(shard.stderr)")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM clips") == "4")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM runs WHERE kind = 'mix'") == "2")
    }

    /// Shards made into one folder: an unsharded run into it is refused; the shards themselves resume.
    @Test func anUnshardedRunIntoAShardedFolderIsRefused() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        try makeSources(folder)
        func mix(_ extra: [String]) throws -> SEKitBinary.Result {
            try SEKitBinary.run(["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "4",
                                 "--seconds", "0.5", "--out", folder.path("out"), "--no-catalog"] + extra)
        }
        #expect(try mix(["--shard", "1/2"]).status == 0)
        #expect(try mix(["--shard", "2/2"]).status == 0)
        #expect(try mix(["--shard", "1/2"]).stdout.contains("resumed"))
        let whole = try mix([])
        #expect(whole.status != 0 && whole.stderr.contains("was made in shards"), "\(whole.stderr)")
    }

    @Test(.enabled(if: sqliteAvailable, "needs /usr/bin/sqlite3")) func mixesCataloguedCorporaWithTheirSpeakers() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        try makeSources(folder)
        let catalog = folder.path("catalog.sqlite")
        let speech = try SEKitBinary.run(["catalog", "import", "--kind", "speech", "--corpus", "ramps", "--speaker-pattern", "(spk[0-9])/",
                                          "--catalog", catalog, folder.path("speech")])
        #expect(speech.status == 0, "\(speech.stderr)")
        let noise = try SEKitBinary.run(["catalog", "import", "--kind", "noise", "--corpus", "hum", "--catalog", catalog,
                                         folder.path("noise")])
        #expect(noise.status == 0, "\(noise.stderr)")
        let mixed = try SEKitBinary.run(["mix", "--speech", "corpus:ramps", "--noise", "corpus:hum", "--count", "12", "--seconds", "0.5",
                                         "--split", "train=0.5,test=0.5", "--disjoint", "speakers", "--out", folder.path("out"),
                                         "--catalog", catalog])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM clips WHERE speech_source_id LIKE 'ramps:%'") == "12")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM sources") == "9", "catalogued files are not registered twice")
        // Speakers came from the catalogue: each speaker's clips are in one split.
        #expect(try folder.sqlite(catalog, """
            SELECT count(*) FROM (SELECT s.speaker FROM clips c JOIN sources s ON s.id = c.speech_source_id
            GROUP BY s.speaker HAVING count(DISTINCT c.split) > 1)
            """) == "0")
        let unknown = try SEKitBinary.run(["mix", "--speech", "corpus:nothing", "--noise", "corpus:hum", "--count", "2",
                                           "--out", folder.path("out2"), "--catalog", catalog])
        #expect(unknown.status != 0 && unknown.stderr.contains("corpus:nothing"))
        let off = try SEKitBinary.run(["mix", "--speech", "corpus:ramps", "--noise", "corpus:hum", "--count", "2",
                                       "--out", folder.path("out3"), "--no-catalog"])
        #expect(off.status != 0 && off.stderr.contains("catalogue"))
    }

    /// Two mixes into one folder: the second is refused at once, naming the first's process; the
    /// first finishes alone (its seed only in the manifest, one file per clip and stem).
    @Test func aSecondMixIntoTheSameFolderIsRefused() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        try makeSources(folder)
        func arguments(seed: Int) -> [String] {
            ["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "400", "--seconds", "0.5",
             "--seed", "\(seed)", "--jobs", "1", "--out", folder.path("out"), "--no-catalog"]
        }
        let first = Process()
        first.executableURL = SEKitBinary.url
        first.arguments = arguments(seed: 1)
        first.standardOutput = FileHandle.nullDevice
        first.standardError = FileHandle.nullDevice
        try first.run()
        let noisy = folder.url.appendingPathComponent("out/noisy")
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, first.isRunning, ((try? FileManager.default.contentsOfDirectory(atPath: noisy.path).count) ?? 0) < 5 {
            usleep(2_000)
        }
        let second = try SEKitBinary.run(arguments(seed: 2))
        let firstWasRunning = first.isRunning
        first.waitUntilExit()
        #expect(firstWasRunning, "the first mix finished before the second started; make it longer")
        #expect(second.status == 1)
        #expect(second.stderr.contains("is being written by process \(first.processIdentifier) on "), "\(second.stderr)")
        #expect(first.terminationStatus == 0)
        let manifest = try String(contentsOfFile: folder.path("out/manifest.jsonl"), encoding: .utf8)
        let lines = manifest.split(separator: "\n")
        #expect(lines.count == 400 && lines.allSatisfy { $0.contains("\"clip_id\":\"s1-") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: noisy.path).count == 400)
    }

    /// A sub-folder of an input that cannot be listed is named as a skipped source (as another
    /// user: root ignores permissions), not left out without a word.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"), "needs root and setpriv"))
    func anUnlistableSubFolderIsNamed() throws {
        let folder = try CatalogCLIFolder()
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path("speech/locked"))
            folder.cleanup()
        }
        try makeSources(folder)
        try folder.writeWAV("speech/locked/hidden.wav", frames: 16_000, seed: 77)
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: folder.path("speech/locked"))
        try FileManager.default.createDirectory(atPath: folder.path("writable"), withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path("writable"))
        let result = try SEKitBinary.run(["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "2",
                                          "--seconds", "0.5", "--out", folder.path("writable/out"), "--no-catalog"],
                                         launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning: skipping speech \(folder.path("speech/locked")): cannot list this folder"),
                "\(result.stderr)")
    }
}
