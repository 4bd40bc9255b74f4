import Foundation

/// One running `sekit_metric_worker.py`: the client side of its protocol (a JSON request line
/// and float32 samples in; a JSON response line, values as hexadecimal floats so they arrive bit
/// for bit, out). One per scoring thread, kept alive across clips (``PythonWorkerPool``).
final class PythonMetricWorker {
    let environment: PythonEnvironment
    private let process: WorkerProcess

    /// Why a request failed.
    enum Failure: Error {
        /// The reference implementation refused this input (the worker's reason).
        case metric(String)
        /// The worker died or the pipe broke; the worker is unusable.
        case died(String)
        /// The worker answered, but with an error of its environment (an import failure).
        case environment(String)
        /// The worker did not answer within its time (``PythonWorkerTimeouts``) and was killed.
        case timedOut(PythonWorkerTimeouts.Expired)
    }

    /// Whether the worker has answered a request yet (its first call also waits for it to start).
    private var answered = false

    /// Starts the worker.
    /// - Throws: ``Failure/died(_:)`` when the interpreter cannot be started.
    init(_ environment: PythonEnvironment) throws(Failure) {
        self.environment = environment
        guard FileManager.default.isExecutableFile(atPath: environment.interpreter.path) else {
            throw .environment("does not exist or is not executable")
        }
        // The built-in module is written to its file here, when a worker first needs it.
        guard let script = PythonWorkerModule.runnable(environment.workerScript), FileManager.default.fileExists(atPath: script.path) else {
            throw .environment("cannot run SEKit's worker: \(environment.workerScript.path) does not exist (set SEKIT_METRIC_WORKER)")
        }
        do {
            // -u: unbuffered; -I would drop the venv's site-packages, so plain -u.
            process = try WorkerProcess(executable: environment.interpreter, arguments: ["-u", script.path],
                                        environment: ["OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                                                     "NUMBA_NUM_THREADS": "1"])
        } catch {
            throw .died(error.reason)
        }
    }

    /// Whether the worker process has gone (it must be replaced).
    var hasExited: Bool { process.hasExited }

    /// Sends one request and returns the response's fields.
    /// - Parameters:
    ///   - fields: the request (`op` and its parameters); `lengths` is added from `signals`.
    ///   - signals: the float32 samples that follow the request line, in order.
    /// - Throws: ``Failure/timedOut(_:)`` when the answer does not come within the environment's
    ///   timeouts: the per-clip timeout for a metric, plus the start-up timeout on a worker's first
    ///   request; `describe` has the start-up timeout alone, on any worker (it may import packages
    ///   the worker has not imported yet).
    func call(_ op: String, _ fields: [String: Any] = [:], signals: [[Float]] = []) throws(Failure) -> [String: Any] {
        var request = fields
        request["op"] = op
        if !signals.isEmpty { request["lengths"] = signals.map(\.count) }
        let timeouts = environment.timeouts
        let allowed = op == "describe" ? timeouts.startSeconds : (answered ? 0 : timeouts.startSeconds) + timeouts.clipSeconds
        let deadline = Date().addingTimeInterval(allowed)
        let line: [UInt8]
        var payload: [UInt8]?
        do {
            var header = try JSONSerialization.data(withJSONObject: request, options: [.sortedKeys])
            header.append(10)
            try header.withUnsafeBytes { headerBytes in
                try Self.withRawBuffers(signals) { payload in try process.write([headerBytes] + payload, deadline: deadline) }
            }
            line = try process.readLine(deadline: deadline)
            if let count = Self.payloadBytes(line) { payload = try process.read(count: count, deadline: deadline) }
            answered = true
        } catch let failure as WorkerProcess.Failure {
            if failure.timedOut {
                throw .timedOut(PythonWorkerTimeouts.Expired(seconds: allowed, starting: !answered, operation: op))
            }
            throw .died(failure.description)
        } catch {
            throw .died("\(error)")
        }
        guard var response = (try? JSONSerialization.jsonObject(with: Data(line))) as? [String: Any] else {
            throw .died("unreadable response: \(String(decoding: line.prefix(200), as: UTF8.self))")
        }
        if let payload { response["payload"] = payload }
        guard response["ok"] as? Bool == true else {
            let message = response["message"] as? String ?? "no reason given"
            switch response["error"] as? String {
            case "metric": throw .metric(message)
            case "ModuleNotFoundError", "ImportError": throw .environment("cannot import a package: \(message)")
            case let kind?: throw .metric("\(kind): \(message)")
            case nil: throw .metric(message)
            }
        }
        return response
    }

    /// The `payload_bytes` of a response line: raw bytes follow the line (the ONNX operations' arrays).
    private static func payloadBytes(_ line: [UInt8]) -> Int? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else { return nil }
        return (object["payload_bytes"] as? NSNumber)?.intValue
    }

    /// The `values` of a response, decoded from their hexadecimal form.
    static func values(_ response: [String: Any]) throws(Failure) -> [Double] {
        guard let strings = response["values"] as? [String] else { throw .died("response without values") }
        var values: [Double] = []
        for s in strings {
            guard let value = Double(s) else { throw .died("unreadable value \(s)") }
            values.append(value)
        }
        return values
    }

    /// What the worker's environment has for `packages` (importing each), and the SHA-256 of the
    /// model file of each computation in `models` (`plcmos`).
    func describe(packages: [String], models: [String] = []) throws(Failure) -> PythonBackendDescription {
        let response = try call("describe", models.isEmpty ? ["packages": packages] : ["packages": packages, "metrics": models])
        let version = response["python"] as? String ?? "?"
        let executable = response["executable"] as? String ?? environment.interpreter.path
        return PythonBackendDescription(python: "\(executable) (\(version))",
                                        packages: response["packages"] as? [String: String] ?? [:],
                                        modelSHA256: response["models"] as? [String: String] ?? [:],
                                        metricModelSHA256: response["metric_models"] as? [String: String] ?? [:])
    }

    /// Calls `body` with raw views of every signal.
    private static func withRawBuffers<R>(_ signals: [[Float]], _ body: ([UnsafeRawBufferPointer]) throws -> R) rethrows -> R {
        func nest(_ index: Int, _ views: [UnsafeRawBufferPointer]) throws -> R {
            guard index < signals.count else { return try body(views) }
            return try signals[index].withUnsafeBytes { try nest(index + 1, views + [$0]) }
        }
        return try nest(0, [])
    }
}
