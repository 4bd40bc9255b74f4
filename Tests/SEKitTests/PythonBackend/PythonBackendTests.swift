import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// Helpers for the metrics computed by reference implementations in SEKit's Python worker.
enum PythonMetricReference {
    /// Runs `expression` (Python, with `np` and `pesq` imported, and `imports` run first; `a`, `b`
    /// the float32 signals, widened to float64 as soundfile reads a WAV) and returns its values,
    /// read from `float.hex()` so they compare bit for bit.
    static func values(_ expression: String, _ a: [Float], _ b: [Float] = [], imports: String = "",
                       in folder: TemporaryFolder) throws -> [Double] {
        try PythonReference.writeRaw(a, to: folder.file("a.f32"))
        try PythonReference.writeRaw(b, to: folder.file("b.f32"))
        let script = """
        import sys, numpy as np, pesq
        \(imports)
        a = np.fromfile(sys.argv[1], '<f4').astype(np.float64); b = np.fromfile(sys.argv[2], '<f4').astype(np.float64)
        values = \(expression)
        print(' '.join(float(v).hex() for v in values))
        """
        let out = try PythonReference.run(script, arguments: [folder.file("a.f32").path, folder.file("b.f32").path])
        return out.split(separator: " ").map { Double($0.trimmingCharacters(in: .whitespacesAndNewlines))! }
    }

    /// The first `seconds` of a fixture, at `sampleRate` (SEKit's resampler when it differs).
    static func fixture(_ path: String, sampleRate: Int = 16000, seconds: Double? = nil) throws -> [Float] {
        let samples = try AudioFile.read(at: Fixtures.url(path), sampleRate: sampleRate).samples
        guard let seconds else { return samples }
        return Array(samples.prefix(Int(seconds * Double(sampleRate))))
    }

    /// A recording of the reference tier (`$SEKIT_REFERENCE_AUDIO`), read as ``fixture(_:sampleRate:seconds:)`` reads.
    static func reference(_ name: String, sampleRate: Int = 16000) throws -> [Float] {
        try AudioFile.read(at: Fixtures.reference(name), sampleRate: sampleRate).samples
    }
}

/// The worker process itself: started once per workspace, replaced when it dies, and a broken
/// environment reported before anything is scored.
@Suite(.enabled(if: PythonReference.available, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct PythonWorkerTests {
    @Test func aDeadWorkerIsReportedAndReplaced() throws {
        let workspace = MetricWorkspace()
        let speech = (0..<16000).map { Float(sin(Double($0) * 0.05)) * 0.3 }
        let before = try workspace.pythonValues("pesq", "pesq", ["rate": 16000, "mode": "wb"], signals: [speech, speech])
        #expect(throws: MetricError.self) { try workspace.pythonValues("pesq", "crash", [:], signals: []) }
        do {
            _ = try workspace.pythonValues("pesq", "crash", [:], signals: [])
            Issue.record("a crashing worker must throw")
        } catch let error as MetricError {
            #expect("\(error)".contains("pesq: its worker process failed (the worker exited with status 3)"), "\(error)")
        }
        // The next clip gets a new worker and the same answer.
        let after = try workspace.pythonValues("pesq", "pesq", ["rate": 16000, "mode": "wb"], signals: [speech, speech])
        #expect(before == after)
    }

    @Test func aMissingInterpreterIsOneClearErrorBeforeScoring() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let wav = folder.file("a.wav")
        try AudioWriter.write(AudioBuffer(samples: [Float](repeating: 0.1, count: 16000), sampleRate: 16000), to: wav)
        let broken = PythonWorkerPool(environment: PythonEnvironment(interpreter: folder.file("no-python"),
                                                                     workerScript: PythonEnvironment.located().workerScript))
        var request = ScoreJob.Request(pairing: .folders(reference: folder.url, enhanced: folder.url, noisy: nil),
                                       metrics: [.stoi, .pesqWB, .csig], checkpoint: "x")
        request.jobs = 1
        do {
            _ = try ScoreJob.run(request, context: RunContext(catalog: nil, commandLine: ["sekit"]), pythonPool: broken)
            Issue.record("scoring with a missing interpreter must fail")
        } catch let error as MetricBackendError {
            let message = "\(error)"
            #expect(message.contains("pesq_wb, csig need"), "\(message)")
            #expect(message.contains(folder.file("no-python").path), "\(message)")
            #expect(message.contains("scripts/python-env.sh"), "\(message)")
        }
    }

    @Test func anEnvironmentWithoutThePackageIsOneClearError() throws {
        // The system interpreter has numpy? Not necessarily; a worker asked for a package that
        // does not exist fails the same way a venv without pesq does.
        let pool = PythonWorkerPool()
        #expect {
            _ = try pool.describe(packages: ["sekit_no_such_package"], for: ["pesq_wb"])
        } throws: { error in
            "\(error)".contains("No module named 'sekit_no_such_package'") && "\(error)".contains("scripts/python-env.sh")
        }
    }

    /// With `warming`, the workers a scoring's other threads will take start beside the one that
    /// answers (each importing the packages); a later scoring on the same pool starts only those it lacks.
    @Test func describeStartsTheOtherThreadsWorkersMeanwhile() throws {
        let pool = PythonWorkerPool()
        func settled() -> Int {
            for _ in 0..<600 where pool.counts.starting > 0 { Thread.sleep(forTimeInterval: 0.05) }
            #expect(pool.counts.starting == 0)
            return pool.counts.idle
        }
        _ = try pool.describe(packages: ["pesq"], for: ["pesq_wb"], warming: 2)
        #expect(settled() == 3)
        _ = try pool.describe(packages: ["pesq"], for: ["pesq_wb"], warming: 2)
        #expect(settled() == 3, "the idle workers are used, not added to")
        _ = try pool.describe(packages: ["pesq"], for: ["pesq_wb"], warming: 4)
        #expect(settled() == 5)
        // The workers answer: each of five threads takes one without starting another.
        let workers = try (0..<5).map { _ in try pool.take() }
        #expect(pool.counts.idle == 0 && workers.allSatisfy { !$0.hasExited })
        workers.forEach(pool.giveBack)
    }

    @Test func theDescriptionNamesVersionsAndModelHashes() throws {
        let description = try PythonWorkerPool().describe(packages: ["pesq", "speechmos"], for: ["pesq_wb", "dnsmos_ovrl"])
        #expect(description.packages["pesq"] == "0.0.4")
        #expect(description.packages["speechmos"] == "0.0.1.1")
        #expect(description.packages["onnxruntime"] != nil)
        // The SHA-256 of the ONNX files, checked against hashlib on the package's own files.
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let hashes = try PythonReference.run("""
        import hashlib, os, speechmos.dnsmos as d
        f = os.path.join(os.path.dirname(d.__file__), 'dnsmos_models')
        print(' '.join(n + ':' + hashlib.sha256(open(os.path.join(f, n), 'rb').read()).hexdigest() \
        for n in ['model_v8.onnx', 'sig_bak_ovr.onnx']))
        """).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(description.runParams["backend_models_sha256"] == hashes.replacingOccurrences(of: " ", with: ","))
        _ = folder
    }
}
