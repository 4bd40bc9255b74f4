import Foundation
import Testing

/// Tiny models of the `sekit enhance --model` contract, made in a test with the project's Python
/// environment by `scripts/dev/tiny_onnx_model.py` (torch, torch.onnx.export, the metadata added with
/// the onnx package): Linear → GRU → Linear → sigmoid, and its streaming variant `NAME.stream.onnx`.
enum TinyONNXModel {
    /// An interpreter with torch and onnx: the training environment `$SEKIT_TRAIN_PYTHON`
    /// (scripts/python-env.sh --train; scripts/test.sh sets it), else `$SEKIT_PYTHON`, else the source
    /// tree's `.build/venv`.
    static var python: String {
        let environment = ProcessInfo.processInfo.environment
        return environment["SEKIT_TRAIN_PYTHON"] ?? environment["SEKIT_PYTHON"]
            ?? TestProject.root.appendingPathComponent(".build/venv/bin/python").path
    }

    /// Runs `script` with the interpreter; returns its stdout, and fails the test when it fails.
    @discardableResult
    static func run(_ script: String, _ arguments: [String]) throws -> String {
        let result = try PythonScript.run(python, script, arguments: arguments)
        #expect(result.status == 0, "\(python): \(result.stderr.suffix(2000))")
        return result.stdout
    }

    /// Writes `path` (and the streaming model beside it). `bins`: the graph's bins (257 fits the
    /// metadata); `nanBelowFrames`: the mask is NaN for clips of fewer frames; `metadata`: overrides.
    static func make(_ path: String, bins: Int = 257, nanBelowFrames: Int = 0, metadata: [String: String] = [:],
                     trainRunID: String = "") throws {
        let overrides = String(decoding: try JSONSerialization.data(withJSONObject: metadata), as: UTF8.self)
        try run(try script("scripts/dev/tiny_onnx_model.py"), [path, "\(bins)", "\(nanBelowFrames)", overrides, trainRunID])
    }

    /// The source of a Python script of the project (`scripts/...`).
    static func script(_ path: String) throws -> String {
        try String(contentsOf: TestProject.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The largest difference between SEKit's output and the reference computed in Python by
    /// `scripts/bench/model_reference.py` (ONNX Runtime on numpy's STFT of the noisy WAV, the mask
    /// applied, overlap-add), and the reference's peak.
    static func referenceDifference(model: String, noisy: String, enhanced: String) throws -> (difference: Double, peak: Double) {
        let printed = try run(try script("scripts/bench/model_reference.py"), ["--compare", model, noisy, enhanced])
        let values = try #require(try JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String: Double])
        return (try #require(values["max_abs_diff"]), try #require(values["peak"]))
    }
}
