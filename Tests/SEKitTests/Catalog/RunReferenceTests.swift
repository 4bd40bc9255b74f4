import Foundation
import Testing
@testable import SEKit
@testable import SEKitCatalog
@testable import SEKitSignal

/// A command killed and run again leaves failed (or abandoned) attempts beside its finished run:
/// its name still resolves to the finished run, and a re-run with another `--jobs` marks its
/// killed predecessor failed.
@Suite struct RunReferenceTests {
    /// The pid of a process that has exited.
    static func deadPID() throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return Int(process.processIdentifier)
    }

    /// A run left `running` on this host by the process `pid`, as a SIGKILL leaves it.
    @discardableResult
    static func killedRun(_ catalog: Catalog, name: String, commandLine: String, pid: Int) throws -> RunID {
        let id = RunID.make()
        let record = RunRecord(id: id, kind: .score, name: name, status: .running, startedAt: Date(), finishedAt: nil,
                               toolVersion: SEKitVersion.string, commandLine: commandLine, workingDirectory: "/",
                               host: ProcessInfo.processInfo.hostName, pid: pid, parentID: nil, error: nil)
        try catalog.write { db in try record.insert(db) }
        return id
    }

    @Test func aNameResolvesToItsOnlyFinishedRunBesideFailedAndAbandonedAttempts() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        for _ in 0..<3 {
            let failed = try catalog.beginRun(kind: .score, name: "ks", commandLine: ["sekit", "score", "--checkpoint", "ks"])
            try catalog.finishRun(failed, status: .failed, error: "abandoned")
        }
        let finished = try catalog.beginRun(kind: .score, name: "ks", commandLine: ["sekit", "score", "--checkpoint", "ks"])
        try catalog.finishRun(finished)
        #expect(try catalog.resolveRun("ks").id == finished)
        #expect(try catalog.resolveRun("ks", kind: .score).id == finished)
        // A killed attempt not yet marked (its process is gone) changes nothing.
        try Self.killedRun(catalog, name: "ks", commandLine: "sekit score --checkpoint ks", pid: try Self.deadPID())
        #expect(try catalog.resolveRun("ks").id == finished)
        // A run still going (this process): reading a result by name takes the finished one.
        let going = try catalog.beginRun(kind: .score, name: "ks", commandLine: ["sekit", "score", "--checkpoint", "ks"])
        #expect(try catalog.resolveRun("ks").id == finished)
        #expect(try catalog.resolveRun("ks", preferring: .running).id == going, "logging into it finds the one running")
        try catalog.finishRun(going, status: .failed, error: "stopped")
        #expect(try catalog.resolveRun("ks").id == finished)
        // Issue 41: two finished runs of one name: the latest, in every command; the older one by id.
        let second = try catalog.beginRun(kind: .score, name: "ks", commandLine: ["sekit", "score", "--checkpoint", "ks"])
        try catalog.finishRun(second)
        #expect(try catalog.resolveRun("ks").id == second)
        #expect(try catalog.resolveRun(finished.rawValue).id == finished)
        // Only unfinished runs of a name, several of them alive: still ambiguous, listing every candidate.
        let other = try catalog.beginRun(kind: .score, name: "kt", commandLine: ["sekit", "score", "--checkpoint", "kt", "--x"])
        let another = try catalog.beginRun(kind: .score, name: "kt", commandLine: ["sekit", "score", "--checkpoint", "kt", "--y"])
        do {
            _ = try catalog.resolveRun("kt")
            Issue.record("two running runs named kt resolved")
        } catch let CatalogError.ambiguousRun(_, reference, candidates) {
            #expect(reference == "kt" && candidates.count == 2)
        }
        _ = (other, another)
    }

    @Test func aRerunWithAnotherJobsMarksItsKilledPredecessorFailed() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        let dead = try Self.deadPID()
        let spaced = try Self.killedRun(catalog, name: "ks", commandLine: "sekit score --corpus c --jobs 2 --checkpoint ks", pid: dead)
        let joined = try Self.killedRun(catalog, name: "ks", commandLine: "sekit score --corpus c --jobs=8 --checkpoint ks", pid: dead)
        let other = try Self.killedRun(catalog, name: "ks", commandLine: "sekit score --corpus d --jobs 2 --checkpoint ks", pid: dead)
        let rerun = try catalog.beginRun(kind: .score, name: "ks",
                                         commandLine: ["sekit", "score", "--corpus", "c", "--jobs", "4", "--checkpoint", "ks"])
        for id in [spaced, joined] {
            let run = try catalog.run(id.rawValue)
            #expect(run.status == .failed && run.error?.contains("marked by a later run of the same command") == true, "\(run)")
        }
        #expect(try catalog.run(other.rawValue).status == .running, "another corpus is another command")
        #expect(try catalog.run(rerun.rawValue).status == .running)
    }
}
