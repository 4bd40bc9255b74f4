import Foundation

/// Where the reference implementations that run in Python come from: the interpreter of a Python
/// environment with the worker's packages, and SEKit's worker module (``PythonWorkerModule``).
///
/// The interpreter is the first of: `$SEKIT_PYTHON` (a bare command name is looked up in `$PATH`);
/// `$SEKIT_VENV/bin/python`; the environment `scripts/install.sh` creates beside an installed binary,
/// `PREFIX/share/sekit/venv/bin/python` for `PREFIX/bin/sekit`, when it exists; the project's default environment
/// `.build/venv/bin/python` of the source tree SEKit was built from (what `scripts/python-env.sh` creates). The
/// worker module is `$SEKIT_METRIC_WORKER` when set, else the copy built into this binary.
/// The timeouts come from `$SEKIT_PYTHON_START_TIMEOUT_SECONDS` and `$SEKIT_PYTHON_CLIP_TIMEOUT_SECONDS`
/// (``PythonWorkerTimeouts``).
public struct PythonEnvironment: Sendable, Equatable {
    public var interpreter: URL
    public var workerScript: URL
    /// How long a worker may take to start and to answer a clip (``PythonWorkerTimeouts``).
    public var timeouts: PythonWorkerTimeouts

    public init(interpreter: URL, workerScript: URL, timeouts: PythonWorkerTimeouts = PythonWorkerTimeouts()) {
        self.interpreter = interpreter; self.workerScript = workerScript; self.timeouts = timeouts
    }

    /// The environment named by the process environment, or the defaults above.
    /// - Parameter executable: the running binary (the installed layout is looked up beside it).
    public static func located(_ environment: [String: String] = ProcessInfo.processInfo.environment,
                               executable: URL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0]))
        -> PythonEnvironment {
        let python: URL
        if let explicit = environment["SEKIT_PYTHON"], !explicit.isEmpty {
            python = ExecutablePath.find(explicit, environment: environment)
        } else if let venv = environment["SEKIT_VENV"], !venv.isEmpty {
            python = URL(fileURLWithPath: venv).appendingPathComponent("bin/python")
        } else {
            let installed = installedEnvironment(besideExecutable: executable)
            python = FileManager.default.isExecutableFile(atPath: installed.path)
                ? installed : projectRoot.appendingPathComponent(".build/venv/bin/python")
        }
        let worker = environment["SEKIT_METRIC_WORKER"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? PythonWorkerModule.defaultFile(environment: environment)
        return PythonEnvironment(interpreter: python, workerScript: worker, timeouts: .from(environment))
    }

    /// The interpreter `scripts/install.sh` makes for a binary installed as `PREFIX/bin/sekit`:
    /// `PREFIX/share/sekit/venv/bin/python` (links to the binary resolved first).
    public static func installedEnvironment(besideExecutable executable: URL) -> URL {
        executable.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/sekit/venv/bin/python")
    }

    /// The source tree this library was built from (four levels above this file).
    static let projectRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// What the Python side of a scoring is: the interpreter, the versions of the packages the
/// requested metrics run, and the SHA-256 of their model files. Recorded in the score run.
public struct PythonBackendDescription: Sendable, Equatable {
    /// The interpreter's path and version (`/path/bin/python (3.11.7)`).
    public var python: String
    /// Package name → version (`pesq` → `0.0.4`).
    public var packages: [String: String]
    /// Model file name → SHA-256, hexadecimal (DNSMOS's ONNX models).
    public var modelSHA256: [String: String]
    /// Metric computation → SHA-256 of the model file it reads (``MetricDescriptor/recordsModelSHA256``).
    public var metricModelSHA256: [String: String] = [:]

    /// The run parameters that record it: `backend_python`, `backend_<package>` (a version each),
    /// `backend_models_sha256` (`file:hash,...`, sorted by file name) when there are model files,
    /// and `<metric>_model_sha256` for each predictor that records its model (`plcmos_model_sha256`).
    public var runParams: [String: String] {
        var params = ["backend_python": python]
        for (name, version) in packages { params["backend_\(name)"] = version }
        for (metric, hash) in metricModelSHA256 { params["\(metric)_model_sha256"] = hash }
        if !modelSHA256.isEmpty {
            params["backend_models_sha256"] = modelSHA256.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
        }
        return params
    }
}

/// The Python environment cannot run a metric: found before any clip is scored.
public struct MetricBackendError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The metrics that need it.
    public var metrics: [String]
    /// The interpreter tried.
    public var interpreter: String
    public var reason: String
    /// What to do about it, when not the default (set up the environment).
    public var remedy: String?

    public var description: String {
        "\(metrics.joined(separator: ", ")) need\(metrics.count == 1 ? "s" : "") the project's Python environment, " +
            "but \(interpreter) \(reason); "
            + (remedy ?? "run scripts/python-env.sh in SEKit's source tree, or set SEKIT_PYTHON to an interpreter with "
                + PythonWorkerModule.requirements.joined(separator: " ") + " (docs/installing.md)")
    }

    /// The error of a worker that did not answer in time (``PythonWorkerTimeouts``); `clip` names
    /// the clip it was scoring.
    static func timedOut(_ expired: PythonWorkerTimeouts.Expired, metrics: [String], interpreter: String,
                         clip: String? = nil) -> MetricBackendError {
        MetricBackendError(metrics: metrics, interpreter: interpreter,
                           reason: "(SEKit's metric worker) \(expired)\(clip.map { " on clip \($0)" } ?? ""), so it was killed",
                           remedy: "check that the environment runs (scripts/python-env.sh), or allow more time with "
                               + (expired.operation == "describe" ? PythonWorkerTimeouts.startVariable : PythonWorkerTimeouts.clipVariable)
                               + " (seconds)")
    }
}
