import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `sekit score` with a Python worker that never answers (scripts/test-support/fake_metric_worker.py,
/// started through an interpreter wrapper as SEKIT_PYTHON): a named error after the start-up
/// timeout instead of a hang; and a score killed in such a hang, run again with another `--jobs`,
/// leaves its killed run failed and its name usable.
@Suite(.serialized, .enabled(if: PaperMetrics.pythonRequired && TestEnvironment.sqliteAvailable, "needs SEKIT_PYTHON and sqlite3"))
struct ScoreWorkerTimeoutTests {
    static let fakeWorker = GoldenCorpus.projectRoot.appendingPathComponent("scripts/test-support/fake_metric_worker.py").path

    /// An interpreter wrapper that runs SEKIT_PYTHON with `SEKIT_FAKE_WORKER_HANG=hang`.
    static func interpreter(hanging hang: String, in folder: CatalogCLIFolder) throws -> String {
        let python = try #require(ProcessInfo.processInfo.environment["SEKIT_PYTHON"], "SEKIT_PYTHON is not set")
        let wrapper = folder.path("python-hang-\(hang)")
        try Data("#!/bin/sh\nSEKIT_FAKE_WORKER_HANG=\(hang) exec '\(python)' \"$@\"\n".utf8).write(to: URL(fileURLWithPath: wrapper))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper)
        return wrapper
    }

    static func pairs(_ folder: CatalogCLIFolder) throws {
        for (index, name) in ["a", "b", "c", "d"].enumerated() {
            try folder.writeWAV("ref/\(name).wav", frames: 16_000, seed: index)
            try folder.writeWAV("enh/\(name).wav", frames: 16_000, seed: index + 10)
        }
    }

    @Test func aWorkerThatNeverStartsEndsInANamedError() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try Self.pairs(folder)
        let started = Date()
        let result = try SEKitBinary.run(["score", "--reference", folder.path("ref"), "--enhanced", folder.path("enh"),
                                          "--metrics", "pesq_wb", "--no-catalog"],
                                         environment: ["SEKIT_PYTHON": try Self.interpreter(hanging: "start", in: folder),
                                                       "SEKIT_METRIC_WORKER": Self.fakeWorker, "SEKIT_PYTHON_START_TIMEOUT_SECONDS": "1"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("did not start and answer within 1 s (SEKIT_PYTHON_START_TIMEOUT_SECONDS)"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 15)
        let invalid = try SEKitBinary.run(["score", "--reference", folder.path("ref"), "--enhanced", folder.path("enh"),
                                           "--metrics", "pesq_wb", "--no-catalog"],
                                          environment: ["SEKIT_METRIC_WORKER": Self.fakeWorker, "SEKIT_PYTHON_CLIP_TIMEOUT_SECONDS": "ten"])
        #expect(invalid.status != 0 && invalid.stderr.contains("SEKIT_PYTHON_CLIP_TIMEOUT_SECONDS=ten is not a positive number of seconds"),
                "\(invalid.stderr)")
    }

    @Test func aScoreKilledWhileItsWorkerHangsThenRunAgainWithOtherJobsLeavesItsNameUsable() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try Self.pairs(folder)
        let catalog = folder.path("c.sqlite")
        func score(jobs: String) -> [String] {
            ["score", "--reference", folder.path("ref"), "--enhanced", folder.path("enh"), "--metrics", "pesq_wb", "--checkpoint", "ks",
             "--jobs", jobs, "--catalog", catalog]
        }
        // The first attempt hangs on its first clip (default timeouts) and is killed.
        let hung = Process()
        hung.executableURL = SEKitBinary.url
        hung.arguments = score(jobs: "2")
        hung.environment = ProcessInfo.processInfo.environment.merging([
            "SEKIT_PYTHON": try Self.interpreter(hanging: "clip", in: folder), "SEKIT_METRIC_WORKER": Self.fakeWorker,
        ]) { _, new in new }
        hung.standardOutput = FileHandle.nullDevice
        hung.standardError = FileHandle.nullDevice
        try hung.run()
        var running = "0"
        for _ in 0..<1000 where running != "1" {
            Thread.sleep(forTimeInterval: 0.02)
            running = (try? folder.sqlite(catalog, "SELECT count(*) FROM runs WHERE status = 'running'")) ?? "0"
        }
        kill(hung.processIdentifier, SIGKILL)
        hung.waitUntilExit()
        try #require(running == "1", "the hanging score never recorded its run")

        let rerun = try SEKitBinary.run(score(jobs: "1"), environment: ["SEKIT_PYTHON": try Self.interpreter(hanging: "none", in: folder),
                                                                         "SEKIT_METRIC_WORKER": Self.fakeWorker])
        #expect(rerun.status == 0, "\(rerun.stderr)")
        let statuses = try folder.sqlite(catalog, "SELECT status FROM runs ORDER BY started_at")
        #expect(statuses == "failed\nfinished", "the killed run is marked by the re-run: \(statuses)")
        let finished = try folder.sqlite(catalog, "SELECT id FROM runs WHERE status = 'finished'")
        // `report ks` said "'ks' names 2 runs" (exit 2) before.
        let report = try SEKitBinary.run(["report", "ks", "--catalog", catalog, "--out", folder.path("ks.html"), "--audio", "none"])
        #expect(report.status == 0, "\(report.stderr)")
        let page = (try? String(contentsOfFile: folder.path("ks.html"), encoding: .utf8)) ?? ""
        #expect(page.contains(String(finished.prefix(8))), "the report shows the finished run \(finished)")
    }
}
