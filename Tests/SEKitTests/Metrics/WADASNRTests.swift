import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// WADA-SNR against a numpy reference written here from Kim & Stern (2008) and their published
/// table, on real speech mixed with real noise at known SNRs.
@Suite(.needsFixtures, .enabled(if: PythonReference.available, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct WADASNRTests {
    /// The published G(SNR) table for −20...100 dB, typed in from the authors' code (not from SEKit's copy).
    static let script = """
    import sys, numpy as np
    table = np.array([
        0.40974774, 0.40986926, 0.40998566, 0.40969089, 0.40986186, 0.40999006, 0.41027138, 0.41052627, 0.41101024,
        0.41143264, 0.41231718, 0.41337272, 0.41526426, 0.4178192, 0.42077252, 0.42452799, 0.42918886, 0.43510373,
        0.44234195, 0.45161485, 0.46221153, 0.47491647, 0.48883809, 0.50509236, 0.52353709, 0.54372088, 0.56532427,
        0.58847532, 0.61346212, 0.63954496, 0.66750818, 0.69583724, 0.72454762, 0.75414799, 0.78323148, 0.81240985,
        0.84219775, 0.87166406, 0.90030504, 0.92880418, 0.95655449, 0.9835349, 1.01047155, 1.0362095, 1.06136425,
        1.08579312, 1.1094819, 1.13277995, 1.15472826, 1.17627308, 1.19703503, 1.21671694, 1.23535898, 1.25364313,
        1.27103891, 1.28718029, 1.30302865, 1.31839527, 1.33294817, 1.34700935, 1.3605727, 1.37345513, 1.38577122,
        1.39733504, 1.40856397, 1.41959619, 1.42983624, 1.43958467, 1.44902176, 1.45804831, 1.46669568, 1.47486938,
        1.48269965, 1.49034339, 1.49748214, 1.50435106, 1.51076426, 1.51698915, 1.5229097, 1.528578, 1.53389835,
        1.5391211, 1.5439065, 1.54858517, 1.55310776, 1.55744391, 1.56164927, 1.56566348, 1.56938671, 1.57307767,
        1.57654764, 1.57980083, 1.58304129, 1.58602496, 1.58880681, 1.59162477, 1.5941969, 1.59693155, 1.599446,
        1.60185011, 1.60408668, 1.60627134, 1.60826199, 1.61004547, 1.61192472, 1.61369656, 1.61534074, 1.61688905,
        1.61838916, 1.61985374, 1.62135878, 1.62268119, 1.62390423, 1.62513143, 1.62632463, 1.6274027, 1.62842767,
        1.62945532, 1.6303307, 1.63128026, 1.63204102])
    snrs = np.arange(-20, 101)
    x = np.fromfile(sys.argv[1], '<f4').astype(np.float64)
    x = x / np.abs(x).max()
    z = np.maximum(np.abs(x), 1e-10)
    g = np.log(max(1e-10, z.mean())) - np.log(z).mean()
    below = np.nonzero(table < g)[0]
    if len(below) == 0:
        estimate = float(snrs[0])
    elif below[-1] == len(table) - 1:
        estimate = float(snrs[-1])
    else:
        i = below[-1]
        estimate = snrs[i] + (g - table[i]) / (table[i + 1] - table[i]) * (snrs[i + 1] - snrs[i])
    # The authors' last step: split the energy into speech and noise at that SNR, and take their ratio.
    energy = np.sum(x ** 2); factor = 10 ** (estimate / 10)
    print((10 * np.log10((energy * factor / (1 + factor)) / (energy / (1 + factor)))).hex())
    """

    func reference(_ samples: [Float], in folder: TemporaryFolder) throws -> Double {
        try PythonReference.writeRaw(samples, to: folder.file("x.f32"))
        let out = try PythonReference.run(Self.script, arguments: [folder.file("x.f32").path])
        return Double(out.trimmingCharacters(in: .whitespacesAndNewlines))!
    }

    @Test func equalsTheNumpyReferenceOnSpeechInNoise() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let speech = try PythonMetricReference.fixture("speech/cmu_arctic_us_aew_a0001.wav")
        let noiseFile = try PythonMetricReference.fixture("noise/running_tap.wav")
        let noise = Array(noiseFile[5000..<(5000 + speech.count)])
        let speechPower = speech.reduce(0.0) { $0 + Double($1) * Double($1) }
        let noisePower = noise.reduce(0.0) { $0 + Double($1) * Double($1) }
        var estimates: [Double] = []
        for snr in [-5.0, 0.0, 10.0, 20.0] {
            let gain = Float((speechPower / (noisePower * pow(10, snr / 10))).squareRoot())
            let noisy = zip(speech, noise).map { $0 + gain * $1 }
            let ours = try WADASNR.estimate(noisy)
            let expected = try reference(noisy, in: folder)
            #expect(abs(ours - expected) < 1e-9, "\(snr) dB: \(ours) vs numpy \(expected)")
            estimates.append(ours)
        }
        // A blind estimate: it rises with the true SNR.
        #expect(estimates == estimates.sorted(), "\(estimates)")
        for file in ["speech/vctk_p287_002.wav", "noisy/vctk_p287_002.wav", "speech/librispeech_198-209-0000.wav"] {
            let samples = try PythonMetricReference.fixture(file)
            let ours = try WADASNR.estimate(samples)
            let expected = try reference(samples, in: folder)
            print("WADA-SNR \(file): \(ours) dB (numpy \(expected))")
            #expect(abs(ours - expected) < 1e-9, "\(file): \(ours) vs numpy \(expected)")
        }
    }

    @Test func theTableEndsLimitTheEstimate() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        // Gaussian noise alone (no speech): G near the table's low end (≈ 0.41 in theory), a negative SNR.
        var generator = SplitMix64(seed: 7)
        let gaussian = (0..<16000).map { _ in  // Box–Muller
            Float((-2 * log(1 - generator.nextUnitInterval())).squareRoot() * cos(2 * Double.pi * generator.nextUnitInterval()) * 0.1)
        }
        let ours = try WADASNR.estimate(gaussian)
        #expect(abs(ours - (try reference(gaussian, in: folder))) < 1e-9)
        #expect(ours < 0, "\(ours)")
        // Isolated clicks in silence: G above every entry → 100 dB.
        var clicks = [Float](repeating: 0, count: 16000)
        for i in stride(from: 0, to: 16000, by: 4000) { clicks[i] = 0.5 }
        #expect(try WADASNR.estimate(clicks) == 100)
        #expect(abs(100 - (try reference(clicks, in: folder))) < 1e-9)
    }

    @Test func aSilentOrEmptySignalHasNoEstimate() {
        #expect(throws: MetricError.undefined(metric: "wada_snr", reason: "the signal is silent (all zeros)")) {
            try WADASNR.estimate([Float](repeating: 0, count: 100))
        }
        #expect(throws: MetricError.self) { try WADASNR.estimate([Float]()) }
    }
}
