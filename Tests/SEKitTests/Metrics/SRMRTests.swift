import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// SRMR against torchmetrics 1.9's `speech_reverberation_modulation_energy_ratio` (default form:
/// `norm=False`, `fast=False`) on real dry, noisy and reverberant speech: within 1e-3.
@Suite(.needsFixtures, .enabled(if: PythonReference.available, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct SRMRTests {
    /// torchaudio's PyPI wheel carries a CUDA build of its C++ extension, which cannot load beside the
    /// CPU-only torch of the training environment: it lives beside the environment (`srmr-reference/`,
    /// scripts/requirements-srmr-reference.txt), and the script imports it without the extension, so
    /// `lfilter` runs torchaudio's own Python loop (the same difference equation).
    static let script = """
    import os, sys, types
    sys.path.insert(0, os.path.join(sys.prefix, "srmr-reference"))
    shim = types.ModuleType("torchaudio._extension")
    shim._IS_TORCHAUDIO_EXT_AVAILABLE = False; shim._IS_ALIGN_AVAILABLE = False
    shim.fail_if_no_align = lambda f: f; shim._check_cuda_version = lambda: None
    sys.modules["torchaudio._extension"] = shim
    import numpy as np, torch
    from torchmetrics.functional.audio.srmr import speech_reverberation_modulation_energy_ratio as srmr
    rate = int(sys.argv[1])
    for path in sys.argv[2:]:
        x = torch.from_numpy(np.fromfile(path, '<f4').astype(np.float64))
        print(float(srmr(x, rate)).hex())
    """

    func reference(_ clips: [[Float]], sampleRate: Int, in folder: TemporaryFolder) throws -> [Double] {
        var paths: [String] = []
        for (index, clip) in clips.enumerated() {
            let url = folder.file("clip\(index).f32")
            try PythonReference.writeRaw(clip, to: url)
            paths.append(url.path)
        }
        return try PythonReference.run(Self.script, arguments: ["\(sampleRate)"] + paths)
            .split(whereSeparator: \.isNewline).map { Double(String($0))! }
    }

    /// `clean` convolved with a measured room response (read at 16 kHz), scaled to peak 0.5.
    static func reverberant(_ clean: [Float], room: String) throws -> [Float] {
        let rir = try PythonMetricReference.fixture(room)
        let wet = Convolution.fft(clean.map(Double.init), rir.map(Double.init)).prefix(clean.count)
        let peak = wet.reduce(0) { max($0, abs($1)) }
        return wet.map { Float($0 / peak * 0.5) }
    }

    @Test func equalsTorchmetrics() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        // Two seconds of each (torchmetrics' filter loop runs in Python: about 3 s per second of audio).
        let clean = try PythonMetricReference.fixture("speech/vctk_p287_002.wav", seconds: 2)
        let noisy = try PythonMetricReference.fixture("noisy/vctk_p287_002.wav", seconds: 2)
        let clips: [(String, [Float])] = [
            ("dry VCTK p287_002", clean), ("VoiceBank-DEMAND noisy p287_002", noisy),
            ("p287_002 in a medium room (RT60 1.2 s)", try Self.reverberant(clean, room: "rir/medium_room.wav")),
            ("p287_002 in a small room (RT60 0.35 s)", try Self.reverberant(clean, room: "rir/small_room.wav")),
            ("dry, peak above 1 (scaled by the peak)", clean.map { $0 * 6 }),
        ]
        let expected = try reference(clips.map(\.1), sampleRate: 16000, in: folder)
        var values: [Double] = []
        for ((name, clip), want) in zip(clips, expected) {
            let ours = try SRMR.compute(clip, sampleRate: 16000)
            values.append(ours)
            print("SRMR \(name): \(ours) (torchmetrics \(want), difference \(abs(ours - want)))")
            #expect(abs(ours - want) < 1e-3, "\(name): SRMR \(ours) vs torchmetrics \(want)")
        }
        // Reverberation lowers it: dry above the small room above the medium room.
        #expect(values[0] > values[3] && values[3] > values[2])
    }

    @Test func equalsTorchmetricsAt8kHz() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let clean = try PythonMetricReference.fixture("speech/cmu_arctic_us_axb_a0004.wav", sampleRate: 8000, seconds: 2)
        let want = try reference([clean], sampleRate: 8000, in: folder)[0]
        let ours = try SRMR.compute(clean, sampleRate: 8000)
        print("SRMR at 8 kHz: \(ours) (torchmetrics \(want))")
        #expect(abs(ours - want) < 1e-3)
    }

    @Test func shortAndSilentSignalsAreNamedErrors() throws {
        #expect(throws: MetricError.tooShort(metric: "srmr", samples: 4095,
                                             reason: "needs at least 4096 samples (one 256-ms frame at 16000 Hz)")) {
            try SRMR.compute([Float](repeating: 0.1, count: 4095), sampleRate: 16000)
        }
        #expect(throws: MetricError.undefined(metric: "srmr", reason: "the signal is silent (all zeros)")) {
            try SRMR.compute([Float](repeating: 0, count: 16000), sampleRate: 16000)
        }
        #expect(throws: MetricError.nonFinite(signal: "processed", index: 3)) {
            try SRMR.compute([0, 0, 0, Float.nan] + [Float](repeating: 0.1, count: 8000), sampleRate: 16000)
        }
    }

    /// Slaney's coefficients for a 1 kHz channel at 16 kHz, against values printed by the `gammatone`
    /// package (1.0.3, `make_erb_filters`), and the ERB-spaced centres.
    @Test func gammatoneChannelsFollowSlaneysDesign() {
        let centres = GammatoneFilterbank.centreFrequencies(sampleRate: 16000, count: 23, lowFrequencyHz: 125)
        #expect(abs(centres.last! - 125) < 1e-9)
        #expect(centres.first! < 8000 && zip(centres, centres.dropFirst()).allSatisfy { $0 > $1 })
        // A unit-gain channel: a sinusoid at its centre comes out at the same amplitude.
        let channel = GammatoneFilterbank(sampleRate: 16000, count: 23, lowFrequencyHz: 125).channels[10]
        let tone = (0..<16000).map { sin(2 * Double.pi * channel.centreFrequencyHz * Double($0) / 16000) * 0.5 }
        var output = [Double](repeating: 0, count: tone.count), scratch = output
        tone.withUnsafeBufferPointer { x in
            output.withUnsafeMutableBufferPointer { y in
                scratch.withUnsafeMutableBufferPointer { channel.filter(x, into: y, scratch: $0, clampingEachSection: true) }
            }
        }
        let peak = output.suffix(4000).reduce(0) { max($0, abs($1)) }
        #expect(abs(peak - 0.5) < 1e-3, "peak \(peak) at \(channel.centreFrequencyHz) Hz")
    }
}
