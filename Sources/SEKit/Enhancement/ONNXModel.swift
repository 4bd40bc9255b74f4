import Foundation

/// An ONNX speech-enhancement model as `sekit enhance --model` runs it: its metadata (the input
/// features it expects, how its output is applied), checked against the graph's inputs and outputs.
/// The contract is in docs/enhancement.md ("Models").
public struct ONNXModel: Sendable {
    public var url: URL
    /// SHA-256 of the file, hexadecimal.
    public var sha256: String
    /// Elements of the graph's initializers (its weights).
    public var parameters: Int
    /// Multiply-accumulates of MatMul, Gemm, Conv, GRU and LSTM nodes for one second of audio.
    public var macsPerSecond: Int
    public var sampleRate: Int
    public var stft: STFTConfiguration
    public var feature: FeatureKind
    public var exponent: Float
    public var output: FeatureSynthesis.PredictionKind
    /// Per-bin normalisation: the input is `(feature − mean) / max(std, 1e-8)`.
    public var mean: [Float]
    public var std: [Float]
    /// The training run that made it (`train_run_id`), empty when it names none.
    public var trainRunID: String
    /// The training epoch the checkpoint ends (`epoch`), empty when the metadata names none.
    public var epoch: String
    public var lookaheadFrames: Int
    /// Whether the file is a streaming model (one frame and a state in, one frame and a state out).
    public var streaming: Bool
    /// The shape of the streaming model's state.
    public var stateShape: [Int]

    /// Algorithmic latency, ms: (window + look-ahead frames · hop) / rate.
    public var latencyMilliseconds: Double {
        Double(stft.winLength + lookaheadFrames * stft.hopLength) / Double(sampleRate) * 1000
    }

    /// Hop, ms.
    public var hopMilliseconds: Double { Double(stft.hopLength) / Double(sampleRate) * 1000 }

    /// The model from the worker's `onnx_describe` answer.
    /// - Throws: ``ModelError`` naming the file and the missing or unusable metadata, input or output.
    init(url: URL, described response: [String: Any]) throws(ModelError) {
        let path = url.path
        self.url = url
        let metadata = response["metadata"] as? [String: String] ?? [:]
        func value(_ key: String) throws(ModelError) -> String {
            guard let value = metadata[key] else { throw .metadata(path: path, key: key, reason: "missing") }
            return value
        }
        func integer(_ key: String, minimum: Int = 0) throws(ModelError) -> Int {
            let text = try value(key)
            guard let number = Int(text), number >= minimum else {
                throw .metadata(path: path, key: key, reason: "\(text) is not an integer of at least \(minimum)")
            }
            return number
        }
        func flag(_ key: String) throws(ModelError) -> Bool {
            let text = try value(key)
            guard text == "0" || text == "1" else { throw .metadata(path: path, key: key, reason: "\(text) is neither 0 nor 1") }
            return text == "1"
        }
        func numbers(_ key: String) throws(ModelError) -> [Double] {
            let text = try value(key)
            guard let array = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any],
                  case let numbers = array.compactMap({ ($0 as? NSNumber)?.doubleValue }), numbers.count == array.count else {
                throw .metadata(path: path, key: key, reason: "not a JSON array of numbers")
            }
            return numbers
        }
        /// float32 values (the model's input arithmetic): a value float32 cannot hold is refused, not made infinite.
        func floats(_ key: String) throws(ModelError) -> [Float] {
            let values = try numbers(key)
            if let bad = values.first(where: { !Float($0).isFinite }) {
                throw .metadata(path: path, key: key, reason: "holds \(bad), beyond float32's range (±3.4e38)")
            }
            return values.map { Float($0) }
        }
        /// A shape: a non-empty list of whole numbers from 1 to `maximum` (no fractions, exponents beyond it, or signs).
        func shape(_ key: String, maximum: Int = 1 << 20) throws(ModelError) -> [Int] {
            let values = try numbers(key)
            guard !values.isEmpty, values.allSatisfy({ $0.isFinite && $0.rounded() == $0 && $0 >= 1 && $0 <= Double(maximum) }) else {
                throw .metadata(path: path, key: key, reason: "\(metadata[key] ?? "") is not a list of whole numbers from 1 to \(maximum)")
            }
            return values.map { Int($0) }
        }
        let format = try value("sekit_model_format")
        guard format == "1" else {
            throw .metadata(path: path, key: "sekit_model_format", reason: "\(format) is not a format this SEKit reads (1)")
        }
        sampleRate = try integer("sample_rate", minimum: 1)
        guard let window = WindowKind(rawValue: try value("window")) else {
            throw .metadata(path: path, key: "window", reason: "\(metadata["window"]!) is not one of "
                            + WindowKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        stft = STFTConfiguration(fftSize: try integer("n_fft", minimum: 2), winLength: try integer("win_length", minimum: 1),
                                 hopLength: try integer("hop_length", minimum: 1), window: window, center: try flag("center"))
        do { try stft.validate() } catch {
            throw .metadata(path: path, key: "n_fft, win_length, hop_length", reason: "\(error)")
        }
        guard let feature = FeatureKind(rawValue: try value("feature")) else {
            throw .metadata(path: path, key: "feature", reason: "\(metadata["feature"]!) is not one of "
                            + FeatureKind.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self.feature = feature
        guard let exponent = Float(try value("exponent")), exponent > 0, exponent.isFinite else {
            throw .metadata(path: path, key: "exponent", reason: "\(metadata["exponent"]!) is not a positive number")
        }
        self.exponent = exponent
        guard let output = FeatureSynthesis.PredictionKind(rawValue: try value("output")) else {
            throw .metadata(path: path, key: "output", reason: "\(metadata["output"]!) is neither mask nor magnitude")
        }
        self.output = output
        let bins = try integer("bins", minimum: 1)
        guard bins == stft.binCount else {
            throw .metadata(path: path, key: "bins", reason: "\(bins) disagrees with n_fft \(stft.fftSize) (\(stft.binCount) bins)")
        }
        mean = try floats("stats_mean")
        std = try floats("stats_std")
        for (key, stats) in [("stats_mean", mean), ("stats_std", std)] where stats.count != bins {
            throw .metadata(path: path, key: key, reason: "holds \(stats.count) values for \(bins) bins")
        }
        trainRunID = metadata["train_run_id"] ?? ""
        epoch = metadata["epoch"] ?? ""
        lookaheadFrames = try integer("lookahead_frames")
        streaming = try flag("streaming")
        // Only a streaming model has state (the contract: docs/enhancement.md).
        stateShape = streaming ? try shape("state_shape") : []
        sha256 = response["sha256"] as? String ?? ""
        parameters = (response["parameters"] as? NSNumber)?.intValue ?? 0
        macsPerSecond = (response["macs_per_second"] as? NSNumber)?.intValue ?? 0
        try Self.checkGraph(response, path: path, bins: bins, streaming: streaming)
        if streaming, let stateIn = (response["inputs"] as? [[String: Any]])?.first(where: { $0["name"] as? String == "state_in" }) {
            let dims = (stateIn["shape"] as? [Any] ?? []).map { ($0 as? NSNumber)?.intValue }
            let fits = dims.count == stateShape.count && zip(dims, stateShape).allSatisfy { $0 == nil || $0 == $1 }
            guard fits else {
                throw .metadata(path: path, key: "state_shape", reason: "\(stateShape) disagrees with the graph's state_in "
                                + "[\(dims.map { $0.map(String.init) ?? "?" }.joined(separator: ", "))]")
            }
        }
        // Counted by the worker from the metadata checked above; a model it cannot count is named here, before any clip.
        if let reason = response["count_error"] as? String { throw .unreadable(path: path, reason: reason) }
    }

    /// The graph's inputs and outputs against the contract: `noisy` → `mask`, `[1, frames, bins]`
    /// (frames 1 for a streaming model, which also has `state_in` → `state_out`).
    static func checkGraph(_ response: [String: Any], path: String, bins: Int, streaming: Bool) throws(ModelError) {
        func tensors(_ key: String) -> [(name: String, shape: [Any])] {
            (response[key] as? [[String: Any]] ?? []).map { ($0["name"] as? String ?? "", $0["shape"] as? [Any] ?? []) }
        }
        let inputs = tensors("inputs"), outputs = tensors("outputs")
        let names = streaming ? (["noisy", "state_in"], ["mask", "state_out"]) : (["noisy"], ["mask"])
        for (side, wanted, found) in [("input", names.0, inputs), ("output", names.1, outputs)] where found.map(\.name) != wanted {
            throw .shape(path: path, reason: "its \(side)s are [\(found.map(\.name).joined(separator: ", "))], "
                         + "a\(streaming ? " streaming" : "") model has [\(wanted.joined(separator: ", "))]")
        }
        // Every tensor crosses the boundary as float32 (an int32 mask once gave all-zero outputs, exit 0).
        let types = ((response["inputs"] as? [[String: Any]] ?? []) + (response["outputs"] as? [[String: Any]] ?? []))
            .map { ($0["name"] as? String ?? "", $0["type"] as? String ?? "") }
        if let (name, type) = types.first(where: { $0.1 != "tensor(float)" }) {
            throw .shape(path: path, reason: "\(name) is \(type.isEmpty ? "of no known type" : type), "
                         + "the contract is float32 (tensor(float)) for every input and output")
        }
        for (name, shape) in [inputs[0], outputs[0]] {
            let dims = shape.map { ($0 as? NSNumber)?.intValue }
            let framesFit = dims.count == 3 && (streaming ? dims[1] == 1 : (dims[1] == nil || dims[1]! > 0))
            guard dims.count == 3, dims[0] == 1 || dims[0] == nil, framesFit, dims[2] == bins else {
                let shown = shape.map { "\($0)" }.joined(separator: ", ")
                throw .shape(path: path, reason: "\(name) has shape [\(shown)], the model's metadata needs "
                             + "[1, \(streaming ? "1" : "frames"), \(bins)] (bins = n_fft/2 + 1)")
            }
        }
    }

    /// The normalised input features of a clip's STFT magnitudes (frames × bins, row-major).
    func features(magnitude: [Float]) -> [Float] {
        let bins = stft.binCount
        let scale = std.map { max($0, 1e-8) }
        var out = [Float](repeating: 0, count: magnitude.count)
        for k in 0..<magnitude.count {
            let bin = k % bins
            out[k] = (feature.apply(magnitude[k], exponent: exponent) - mean[bin]) / scale[bin]
        }
        return out
    }

    /// The run parameters that record the model.
    var params: [String: String] {
        ["model": url.standardizedFileURL.path, "model_sha256": sha256, "model_parameters": "\(parameters)",
         "model_macs_per_second": "\(macsPerSecond)", "latency_ms": "\(latencyMilliseconds)",
         "n_fft": "\(stft.fftSize)", "win_length": "\(stft.winLength)", "hop_length": "\(stft.hopLength)",
         "window": stft.window.rawValue, "feature": feature.rawValue, "model_output": output.rawValue]
            .merging(epoch.isEmpty ? [:] : ["epoch": epoch]) { own, _ in own }
    }
}
