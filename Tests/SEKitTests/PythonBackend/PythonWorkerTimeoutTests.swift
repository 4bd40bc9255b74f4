import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// A Python metric worker that never answers ends the scoring with a named error within its
/// timeouts (``PythonWorkerTimeouts``), instead of hanging: a real worker process
/// (scripts/test-support/fake_metric_worker.py, run by an interpreter wrapper that makes it hang
/// at start-up or on the first clip).
@Suite(.enabled(if: PythonReference.available, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct PythonWorkerTimeoutTests {
    static let fakeWorker = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/test-support/fake_metric_worker.py")

    /// An interpreter wrapper in `folder` that runs SEKIT_PYTHON with `SEKIT_FAKE_WORKER_HANG=hang`.
    static func hangingInterpreter(_ hang: String, in folder: TemporaryFolder) throws -> URL {
        let python = try #require(PythonReference.interpreter, "SEKIT_PYTHON is not set")
        let wrapper = folder.file("python-hang-\(hang)")
        try Data("#!/bin/sh\nSEKIT_FAKE_WORKER_HANG=\(hang) exec '\(python)' \"$@\"\n".utf8).write(to: wrapper)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        return wrapper
    }

    /// Three reference/enhanced pairs of a second of a tone.
    static func pairs(_ folder: TemporaryFolder) throws -> (reference: URL, enhanced: URL) {
        for name in ["a", "b", "c"] {
            try CatalogTestSupport.writeWAV(folder.file("ref/\(name).wav"), seconds: 1)
            try CatalogTestSupport.writeWAV(folder.file("enh/\(name).wav"), seconds: 1, frequencyHz: 450)
        }
        return (folder.file("ref"), folder.file("enh"))
    }

    @Test func aWorkerThatNeverStartsIsKilledAfterTheStartUpTimeout() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let environment = PythonEnvironment(interpreter: try Self.hangingInterpreter("start", in: folder), workerScript: Self.fakeWorker,
                                            timeouts: PythonWorkerTimeouts(startSeconds: 1, clipSeconds: 30))
        let started = Date()
        do {
            _ = try PythonWorkerPool(environment: environment).describe(packages: ["pesq"], for: ["pesq_wb"])
            Issue.record("a worker that never answers was described")
        } catch {
            #expect(error.description.contains("did not start and answer within 1 s (SEKIT_PYTHON_START_TIMEOUT_SECONDS)"), "\(error)")
            #expect(error.description.contains("allow more time with SEKIT_PYTHON_START_TIMEOUT_SECONDS"), "\(error)")
        }
        #expect(Date().timeIntervalSince(started) < 10)
    }

    @Test func aWorkerThatNeverAnswersAClipStopsTheScoringAndFailsItsRun() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let (reference, enhanced) = try Self.pairs(folder)
        let environment = PythonEnvironment(interpreter: try Self.hangingInterpreter("clip", in: folder), workerScript: Self.fakeWorker,
                                            timeouts: PythonWorkerTimeouts(startSeconds: 30, clipSeconds: 1))
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        var request = ScoreJob.Request(pairing: .folders(reference: reference, enhanced: enhanced, noisy: nil), metrics: [.stoi, .pesqWB],
                                       checkpoint: "hang")
        request.jobs = 1
        let started = Date()
        do {
            _ = try ScoreJob.run(request, context: RunContext(catalog: catalog, commandLine: ["sekit", "score"]),
                                 pythonPool: PythonWorkerPool(environment: environment))
            Issue.record("a scoring whose worker never answers finished")
        } catch let error as MetricBackendError {
            #expect(error.description.contains("did not answer a pesq request within 1 s (SEKIT_PYTHON_CLIP_TIMEOUT_SECONDS)"), "\(error)")
            #expect(error.description.contains("on clip a.wav,"), "the first clip is named: \(error)")
            #expect(error.description.contains("allow more time with SEKIT_PYTHON_CLIP_TIMEOUT_SECONDS"), "\(error)")
        }
        // The first clip waits out its time; the others fail at once.
        #expect(Date().timeIntervalSince(started) < 10)
        let run = try catalog.resolveRun("hang")
        #expect(run.status == .failed && run.error?.contains("did not answer a pesq request") == true, "\(run)")
    }

    @Test func aWorkerThatAnswersIsTimedPerClipOnly() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let (reference, enhanced) = try Self.pairs(folder)
        let environment = PythonEnvironment(interpreter: try Self.hangingInterpreter("none", in: folder), workerScript: Self.fakeWorker,
                                            timeouts: PythonWorkerTimeouts(startSeconds: 5, clipSeconds: 5))
        var request = ScoreJob.Request(pairing: .folders(reference: reference, enhanced: enhanced, noisy: nil), metrics: [.pesqWB],
                                       checkpoint: "fine")
        request.jobs = 2
        let outcome = try ScoreJob.run(request, context: .unrecorded, pythonPool: PythonWorkerPool(environment: environment))
        #expect(outcome.clips.map { $0.enhanced[.pesqWB] } == [3, 3, 3])
    }

    @Test func theTimeoutsAreReadFromTheEnvironmentAndBadValuesRefused() throws {
        let set = PythonWorkerTimeouts.from(["SEKIT_PYTHON_START_TIMEOUT_SECONDS": "7.5", "SEKIT_PYTHON_CLIP_TIMEOUT_SECONDS": "90"])
        #expect(set.startSeconds == 7.5 && set.clipSeconds == 90 && set.invalidSetting == nil)
        let unset = PythonWorkerTimeouts.from([:])
        #expect(unset.startSeconds == 120 && unset.clipSeconds == 600)
        for bad in ["abc", "0", "-3", "inf"] {
            let timeouts = PythonWorkerTimeouts.from(["SEKIT_PYTHON_CLIP_TIMEOUT_SECONDS": bad])
            #expect(timeouts.invalidSetting == "SEKIT_PYTHON_CLIP_TIMEOUT_SECONDS=\(bad) is not a positive number of seconds")
        }
        var environment = PythonEnvironment.located(["SEKIT_PYTHON_CLIP_TIMEOUT_SECONDS": "soon"])
        #expect(environment.timeouts.invalidSetting != nil)
        environment.interpreter = URL(fileURLWithPath: try #require(PythonReference.interpreter, "SEKIT_PYTHON is not set"))
        #expect {
            _ = try PythonWorkerPool(environment: environment).describe(packages: ["pesq"], for: ["pesq_wb"])
        } throws: { error in
            "\(error)".contains("SEKIT_PYTHON_CLIP_TIMEOUT_SECONDS=soon is not a positive number of seconds")
        }
    }
}
