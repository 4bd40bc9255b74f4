import Foundation

/// Runs reference computations in Python (numpy, scipy, pystoi, librosa, h5py) from tests.
///
/// `scripts/test.sh` creates the virtual environment and sets `SEKIT_PYTHON` to its
/// interpreter. Without it, tests that need Python are disabled with a message (run them
/// through `scripts/test.sh`), except under CI, where they fail.
enum PythonReference {
    /// The interpreter, if configured.
    static var interpreter: String? {
        guard let path = ProcessInfo.processInfo.environment["SEKIT_PYTHON"],
              FileManager.default.isExecutableFile(atPath: path) else { return nil }
        return path
    }

    /// Whether tests that need Python run: when it is configured, and always under CI (where a
    /// missing environment makes them fail with "SEKIT_PYTHON is not set" instead of skipping).
    static var available: Bool { interpreter != nil || TestEnvironment.isCI }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `script` (Python source) with `arguments`; returns stdout. Throws with stderr on failure.
    @discardableResult
    static func run(_ script: String, arguments: [String] = []) throws -> String {
        guard let python = interpreter else { throw Failure(description: "SEKIT_PYTHON is not set") }
        let result = try PythonScript.run(python, script, arguments: arguments)
        guard result.status == 0 else { throw Failure(description: "python failed (\(result.status)): \(result.stderr)") }
        return result.stdout
    }

    /// Writes `values` as raw little-endian float64 to `url` (read in numpy with `np.fromfile(path, '<f8')`).
    /// Runs `script` on a pair of signals, written as little-endian float32 files given as its two
    /// arguments (in `folder`); returns what it printed, trimmed.
    static func run(_ script: String, on a: [Float], _ b: [Float], in folder: TemporaryFolder) throws -> String {
        try writeRaw(a, to: folder.file("a.f32"))
        try writeRaw(b, to: folder.file("b.f32"))
        return try run(script, arguments: [folder.file("a.f32").path, folder.file("b.f32").path])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func writeRaw(_ values: [Double], to url: URL) throws {
        try values.withUnsafeBytes { try Data($0).write(to: url) }
    }

    /// Writes `values` as raw little-endian float32 (`np.fromfile(path, '<f4')`).
    static func writeRaw(_ values: [Float], to url: URL) throws {
        try values.withUnsafeBytes { try Data($0).write(to: url) }
    }

    /// Reads raw little-endian float64 written by numpy's `tofile`.
    static func readRawDoubles(_ url: URL) throws -> [Double] {
        let data = try Data(contentsOf: url)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Double.self)) }
    }
}
