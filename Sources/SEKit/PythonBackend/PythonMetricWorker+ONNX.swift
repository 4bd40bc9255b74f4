import Foundation

/// The worker's ONNX operations: describe a model file, run it on a clip's features (whole, or one
/// frame at a time through a streaming model). Arrays travel as raw float32 both ways (out: the
/// bytes that follow the response line, `payload_bytes` of them).
extension PythonMetricWorker {
    /// The `onnx_describe` answer for `model`: metadata, inputs, outputs, SHA-256, counts.
    func describeModel(_ model: URL) throws(Failure) -> [String: Any] {
        try call("onnx_describe", ["path": model.path])
    }

    /// The model's `mask` output for `features` (frames × bins, row-major).
    func runModel(_ model: URL, features: [Float], frames: Int, bins: Int) throws(Failure) -> [Float] {
        try Self.floats(call("onnx_run", ["path": model.path, "frames": frames, "bins": bins], signals: [features]), count: frames * bins)
    }

    /// The streaming model's `mask` for `features`, fed one frame at a time from a zero state of
    /// `stateShape`, and the seconds of each frame's run call.
    func streamModel(_ model: URL, features: [Float], frames: Int, bins: Int,
                     stateShape: [Int]) throws(Failure) -> (mask: [Float], frameSeconds: [Double]) {
        let response = try call("onnx_stream", ["path": model.path, "frames": frames, "bins": bins, "state_shape": stateShape],
                                signals: [features])
        let seconds = (response["frame_seconds"] as? [NSNumber] ?? []).map(\.doubleValue)
        guard seconds.count == frames else { throw .died("response with \(seconds.count) frame times for \(frames) frames") }
        return (try Self.floats(response, count: frames * bins), seconds)
    }

    /// The response's payload: `count` little-endian float32 values.
    private static func floats(_ response: [String: Any], count: Int) throws(Failure) -> [Float] {
        guard let bytes = response["payload"] as? [UInt8], bytes.count == 4 * count else {
            throw .died("response without \(count) float32 values")
        }
        return bytes.withUnsafeBytes { raw in
            (0..<count).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self))) }
        }
    }
}
