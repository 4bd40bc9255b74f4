import Foundation

/// Enhances clips with an ONNX model (``ONNXModel``): SEKit computes the normalised input
/// features from the noisy STFT, a Python worker of the pool runs the graph with ONNX Runtime (one
/// thread), and SEKit applies the output (mask or magnitude) with the noisy phase and resynthesises
/// (``FeatureSynthesis/resynthesize(_:kind:feature:exponent:noisy:length:)``).
///
/// Streaming: the streaming model (`NAME.stream.onnx` beside `NAME.onnx`) is fed one frame at a
/// time and its output written; on the first ``streamingCheckClips`` clips the whole-utterance model
/// runs too, and a streamed output further than 1e-5 of the clip's peak from it fails the clip.
final class ModelEnhancer: @unchecked Sendable {
    let model: ONNXModel
    /// The streaming model, with `--streaming`.
    let streamingModel: ONNXModel?
    let pool: PythonWorkerPool
    /// Clips (the first to start) whose streamed output is compared with the whole-utterance output.
    static let streamingCheckClips = 3
    /// How far a streamed output may be from the whole-utterance output, relative to its peak.
    static let streamingTolerance: Float = 1e-5

    // Guarded by `lock`.
    private var processingSeconds = 0.0
    private var audioSeconds = 0.0
    private var frameMilliseconds: [Double] = []
    private var checkedClips = 0
    private var maxStreamingDifference: Float = 0
    private let lock = NSLock()

    /// Loads `file` (and, with `streaming`, `NAME.stream.onnx` beside it) in a worker of `pool` and checks them.
    /// - Throws: ``ModelError`` for an environment without ONNX Runtime, a file it cannot load, or
    ///   metadata, inputs or outputs that break the contract.
    init(file: URL, streaming: Bool, pool: PythonWorkerPool) throws(ModelError) {
        self.pool = pool
        model = try Self.load(file, pool: pool)
        guard !model.streaming else {
            throw .metadata(path: file.path, key: "streaming", reason: "1: give the whole-utterance model (NAME.onnx); "
                            + "--streaming runs NAME.stream.onnx beside it")
        }
        guard streaming else { streamingModel = nil; return }
        let streamFile = file.deletingPathExtension().appendingPathExtension("stream.onnx")
        guard FileManager.default.fileExists(atPath: streamFile.path) else {
            throw .mismatch(path: file.path, reason: "--streaming needs the streaming model \(streamFile.lastPathComponent) beside it")
        }
        let stream = try Self.load(streamFile, pool: pool)
        guard stream.streaming, !stream.stateShape.isEmpty else {
            throw .metadata(path: streamFile.path, key: "streaming", reason: "must be 1, with a state_shape")
        }
        for (key, same) in [("sample_rate", stream.sampleRate == model.sampleRate), ("n_fft, win_length, hop_length, window",
                             stream.stft == model.stft), ("feature", stream.feature == model.feature && stream.exponent == model.exponent),
                            ("stats_mean, stats_std", stream.mean == model.mean && stream.std == model.std),
                            ("output", stream.output == model.output)] where !same {
            throw .metadata(path: streamFile.path, key: key, reason: "disagrees with \(file.lastPathComponent)")
        }
        streamingModel = stream
    }

    private static func load(_ file: URL, pool: PythonWorkerPool) throws(ModelError) -> ONNXModel {
        let interpreter = pool.environment.interpreter.path
        guard FileManager.default.fileExists(atPath: file.path) else { throw .unreadable(path: file.path, reason: "no such file") }
        do {
            let worker = try pool.take()
            defer { pool.giveBack(worker) }
            return try ONNXModel(url: file, described: worker.describeModel(file))
        } catch let error as ModelError {
            throw error
        } catch let failure as PythonMetricWorker.Failure {
            switch failure {
            case .environment(let reason): throw .environment(interpreter: interpreter, reason: reason)
            case .metric(let reason): throw .unreadable(path: file.path, reason: reason)
            case .died(let reason): throw .environment(interpreter: interpreter, reason: "could not run SEKit's worker: \(reason)")
            case .timedOut(let expired): throw .environment(interpreter: interpreter, reason: "(SEKit's worker) \(expired)")
            }
        } catch {
            throw .unreadable(path: file.path, reason: "\(error)")
        }
    }

    /// The enhanced signal of one clip (same length).
    /// - Throws: ``ModelError/mismatch(path:reason:)`` for a clip of another sample rate; the
    ///   worker's failure; a non-finite model output (its frame and bin).
    func enhance(_ noisy: AudioBuffer) throws -> [Float] {
        let started = Date()
        guard noisy.sampleRate == model.sampleRate else {
            throw ModelError.mismatch(path: model.url.path,
                                      reason: "the model is for \(model.sampleRate) Hz, the clip is \(noisy.sampleRate) Hz")
        }
        let config = model.stft, bins = config.binCount
        let spectrum = try STFT.forward(noisy.samples, configuration: config)
        let magnitude = spectrum.magnitude()
        let features = model.features(magnitude: magnitude)
        let worker = try pool.take()
        defer { pool.giveBack(worker) }
        let mask: [Float]
        var modelMilliseconds: [Double] = []
        var difference: Float?
        if let streamingModel {
            let streamed = try worker.streamModel(streamingModel.url, features: features, frames: spectrum.frames, bins: bins,
                                                  stateShape: streamingModel.stateShape)
            mask = streamed.mask
            modelMilliseconds = streamed.frameSeconds.map { $0 * 1000 }
        } else {
            mask = try worker.runModel(model.url, features: features, frames: spectrum.frames, bins: bins)
        }
        try Self.checkFinite(mask, bins: bins, file: (streamingModel ?? model).url)
        let output = try resynthesize(mask, noisy: spectrum, length: noisy.samples.count)
        let seconds = Date().timeIntervalSince(started)
        if streamingModel != nil, lock.withLock({ checkedClips += 1; return checkedClips <= Self.streamingCheckClips }) {
            let whole = try worker.runModel(model.url, features: features, frames: spectrum.frames, bins: bins)
            try Self.checkFinite(whole, bins: bins, file: model.url)
            let reference = try resynthesize(whole, noisy: spectrum, length: noisy.samples.count)
            let peak = reference.reduce(Float(0)) { max($0, abs($1)) }
            let diff = zip(output, reference).reduce(Float(0)) { max($0, abs($1.0 - $1.1)) }
            difference = diff
            if diff > Self.streamingTolerance * max(peak, .leastNormalMagnitude) {
                throw ModelError.mismatch(path: streamingModel!.url.path, reason: "its streamed output differs from the whole-utterance "
                                          + "model's by \(diff), more than 1e-5 of the peak \(peak)")
            }
        }
        // A frame's time: the model's run call for it, plus the clip's own SEKit work (features,
        // resynthesis, transfer) shared out over its frames.
        let modelSeconds = modelMilliseconds.reduce(0, +) / 1000
        let sharedMilliseconds = max(0, seconds - modelSeconds) * 1000 / Double(max(spectrum.frames, 1))
        lock.withLock {
            processingSeconds += seconds
            audioSeconds += Double(noisy.samples.count) / Double(noisy.sampleRate)
            frameMilliseconds += modelMilliseconds.map { $0 + sharedMilliseconds }
            if let difference { maxStreamingDifference = max(maxStreamingDifference, difference) }
        }
        return output
    }

    private func resynthesize(_ predicted: [Float], noisy: Spectrogram, length: Int) throws -> [Float] {
        try FeatureSynthesis.resynthesize(predicted, kind: model.output, feature: model.feature, exponent: model.exponent,
                                                 noisy: noisy, length: length)
    }

    private static func checkFinite(_ values: [Float], bins: Int, file: URL) throws {
        if let index = values.firstIndex(where: { !$0.isFinite }) {
            throw ModelError.mismatch(path: file.path,
                                      reason: "the model's output is \(values[index]) at frame \(index / bins), bin \(index % bins)")
        }
    }

    /// The measured parameters: `rtf` (processing seconds per second of audio, one core per clip);
    /// with streaming, the frame-time percentiles, the hop and the largest streamed difference.
    var measuredParams: [String: String] {
        lock.withLock {
            var params: [String: String] = [:]
            if audioSeconds > 0 { params["rtf"] = "\(processingSeconds / audioSeconds)" }
            guard streamingModel != nil else { return params }
            params["hop_ms"] = "\(model.hopMilliseconds)"
            params["streaming_max_abs_diff"] = "\(maxStreamingDifference)"
            let sorted = frameMilliseconds.sorted()
            if !sorted.isEmpty {
                func percentile(_ p: Double) -> Double {
                    sorted[min(sorted.count - 1, Int((p / 100 * Double(sorted.count - 1)).rounded()))]
                }
                params["frame_ms_p50"] = "\(percentile(50))"
                params["frame_ms_p99"] = "\(percentile(99))"
                params["frame_ms_max"] = "\(sorted.last!)"
            }
            return params
        }
    }

    /// The run parameters known before any clip: the model's (and `streaming`).
    var params: [String: String] {
        var params = model.params
        if let streamingModel {
            params["streaming"] = "1"
            params["streaming_model"] = streamingModel.url.standardizedFileURL.path
            params["streaming_model_sha256"] = streamingModel.sha256
        }
        return params
    }
}
