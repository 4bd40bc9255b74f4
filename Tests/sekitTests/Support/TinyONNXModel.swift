import Foundation
import Testing

/// Tiny models of the `sekit enhance --model` contract, made in a test with the project's Python
/// environment (torch, torch.onnx.export, the metadata added with the onnx package): Linear → GRU →
/// Linear → sigmoid, and its streaming variant `NAME.stream.onnx` (the GRU's state in and out).
enum TinyONNXModel {
    /// The project's interpreter: `$SEKIT_PYTHON`, else the source tree's `.build/venv`.
    static var python: String {
        ProcessInfo.processInfo.environment["SEKIT_PYTHON"] ?? TestProject.root.appendingPathComponent(".build/venv/bin/python").path
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
        try run(maker, [path, "\(bins)", "\(nanBelowFrames)", overrides, trainRunID])
    }

    static let maker = #"""
    import json, sys
    import numpy as np
    import onnx
    import torch

    out, graph_bins, nan_below, overrides, train_run = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
    torch.manual_seed(0)
    n_fft, hidden = 512, 16
    bins = n_fft // 2 + 1

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inp = torch.nn.Linear(graph_bins, hidden)
            self.gru = torch.nn.GRU(hidden, hidden, batch_first=True)
            self.out = torch.nn.Linear(hidden, graph_bins)

        def forward(self, noisy):
            h, _ = self.gru(self.inp(noisy))
            mask = torch.sigmoid(self.out(h))
            if nan_below:
                mask = mask * torch.sqrt(noisy.new_tensor(1.0) * noisy.size(1) - nan_below)
            return mask

    class Stream(torch.nn.Module):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, noisy, state_in):
            h, state_out = self.net.gru(self.net.inp(noisy), state_in)
            return torch.sigmoid(self.net.out(h)), state_out

    net = Net().eval()
    metadata = {"sekit_model_format": "1", "sample_rate": "16000", "n_fft": str(n_fft), "win_length": str(n_fft),
                "hop_length": "256", "window": "hann", "center": "1", "feature": "log1p", "exponent": "0.3",
                "output": "mask", "bins": str(bins), "stats_mean": json.dumps(np.linspace(-2.0, 0.5, bins).tolist()),
                "stats_std": json.dumps(np.linspace(0.5, 1.5, bins).tolist()), "train_run_id": train_run, "epoch": "3",
                "lookahead_frames": "0", "streaming": "0", "state_shape": json.dumps([1, 1, hidden]),
                "parameters": str(sum(p.numel() for p in net.parameters()))}
    metadata.update(json.loads(overrides))

    def save(path, metadata):
        model = onnx.load(path)
        del model.metadata_props[:]
        for key, value in metadata.items():
            model.metadata_props.add(key=key, value=value)
        onnx.save(model, path)

    with torch.no_grad():
        torch.onnx.export(net, (torch.zeros(1, 10, graph_bins),), out, input_names=["noisy"], output_names=["mask"],
                          dynamic_axes={"noisy": {1: "frames"}, "mask": {1: "frames"}}, dynamo=False)
        save(out, metadata)
        stream = out[:-len(".onnx")] + ".stream.onnx"
        torch.onnx.export(Stream(net), (torch.zeros(1, 1, graph_bins), torch.zeros(1, 1, hidden)), stream,
                          input_names=["noisy", "state_in"], output_names=["mask", "state_out"], dynamo=False)
        save(stream, {**metadata, "streaming": "1"})
    """#

    /// The largest difference between SEKit's output and a reference computed in Python (onnxruntime
    /// on numpy's STFT of the noisy WAV, the mask applied, overlap-add), and the reference's peak.
    static func referenceDifference(model: String, noisy: String, enhanced: String) throws -> (difference: Double, peak: Double) {
        let printed = try run(reference, [model, noisy, enhanced])
        let values = try #require(try JSONSerialization.jsonObject(with: Data(printed.utf8)) as? [String: Double])
        return (try #require(values["max_abs_diff"]), try #require(values["peak"]))
    }

    static let reference = #"""
    import json, sys
    import numpy as np, onnxruntime, soundfile
    model_path, noisy_path, enhanced_path = sys.argv[1:4]
    session = onnxruntime.InferenceSession(model_path, providers=["CPUExecutionProvider"])
    meta = session.get_modelmeta().custom_metadata_map
    n_fft, hop, win = int(meta["n_fft"]), int(meta["hop_length"]), int(meta["win_length"])
    mean, std = np.array(json.loads(meta["stats_mean"])), np.array(json.loads(meta["stats_std"]))
    x, rate = soundfile.read(noisy_path, dtype="float32")
    window = np.zeros(n_fft)
    left = (n_fft - win) // 2
    window[left:left + win] = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(win) / win)
    padded = np.pad(x.astype(np.float64), n_fft // 2)
    frames = 1 + len(x) // hop
    spectrum = np.stack([np.fft.rfft(padded[t * hop:t * hop + n_fft] * window) for t in range(frames)])
    features = ((np.log1p(np.abs(spectrum)) - mean) / np.maximum(std, 1e-8)).astype(np.float32)[None]
    (mask,) = session.run(["mask"], {"noisy": features})
    enhanced_spectrum = mask[0] * spectrum
    out = np.zeros(n_fft + hop * (frames - 1))
    norm = np.zeros_like(out)
    for t in range(frames):
        out[t * hop:t * hop + n_fft] += np.fft.irfft(enhanced_spectrum[t], n_fft) * window
        norm[t * hop:t * hop + n_fft] += window ** 2
    out[norm > 1e-8] /= norm[norm > 1e-8]
    reference = out[n_fft // 2:n_fft // 2 + len(x)]
    enhanced, _ = soundfile.read(enhanced_path, dtype="float32")
    assert len(enhanced) == len(x), (len(enhanced), len(x))
    print(json.dumps({"max_abs_diff": float(np.abs(enhanced - reference).max()), "peak": float(np.abs(reference).max())}))
    """#
}
