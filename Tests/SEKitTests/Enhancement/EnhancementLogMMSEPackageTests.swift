import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// `logmmse` against the `logmmse` PyPI package 1.5 (a NumPy port of Loizou's logmmse.m) run live
/// on real noisy speech, within 1e-4 of the reference output's peak.
///
/// The package follows logmmse.m step for step except for its window: numpy's `hanning(L)` (the
/// symmetric Hann window with zero end points, MATLAB's `hann`) where logmmse.m has MATLAB's
/// `hanning(L)` (no zero end points). SEKit offers both (``EnhancementWindow``): the package as
/// published is compared with `window = .hann`, and the MATLAB convention, SEKit's default, with
/// the package run with `numpy.hanning` replaced by MATLAB's `hanning` formula. Both use the
/// MATLAB code's 6 noise-only frames of 20 ms (`leading-seconds = 0.12`); SEKit's default lead-in
/// (0.25 s: 12 frames) is compared with the package's `initial_noise=12`. The package returns
/// ⌊n/hop⌋ − 2 hops of output (logmmse.m's frame count); SEKit returns n samples, identical over
/// that prefix, so the comparison covers the package's length.
@Suite(.needsFixtures, .enabled(if: PythonReference.available, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct EnhancementLogMMSEPackageTests {
    static let script = """
    import sys, numpy as np
    window = sys.argv[3]
    if window == 'matlab-hanning':
        # logmmse.m's window, MATLAB hanning(L) = 0.5*(1 - cos(2*pi*n/(L+1))), n = 1..L.
        np.hanning = lambda m: 0.5 * (1 - np.cos(2 * np.pi * np.arange(1, m + 1) / (m + 1)))
    from logmmse import logmmse
    x = np.fromfile(sys.argv[1], '<f4')
    y = logmmse(x, int(sys.argv[2]), initial_noise=int(sys.argv[4]), window_size=0, noise_threshold=0.15)
    np.asarray(y, dtype='<f8').tofile(sys.argv[5])
    """

    struct Case: CustomTestStringConvertible, Sendable {
        let file: String
        let sampleRate: Int
        let window: EnhancementWindow
        let leadingSeconds: Double
        let noiseFrames: Int
        var testDescription: String { "\(file) at \(sampleRate) Hz, \(window.rawValue), \(noiseFrames) noise frames" }
    }

    static let cases: [Case] = [
        Case(file: "noisy/vctk_p287_003.wav", sampleRate: 16000, window: .hann, leadingSeconds: 0.12, noiseFrames: 6),
        Case(file: "noisy/vctk_p287_002.wav", sampleRate: 16000, window: .hann, leadingSeconds: 0.12, noiseFrames: 6),
        Case(file: "noisy/vctk_p287_003.wav", sampleRate: 16000, window: .matlabHanning, leadingSeconds: 0.12, noiseFrames: 6),
        Case(file: "noisy/vctk_p287_002.wav", sampleRate: 16000, window: .matlabHanning, leadingSeconds: 0.25, noiseFrames: 12),
        Case(file: "noisy/vctk_p287_003.wav", sampleRate: 8000, window: .hann, leadingSeconds: 0.12, noiseFrames: 6),
    ]

    @Test(arguments: cases)
    func matchesThePackage(_ c: Case) throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let noisy = try AudioFile.read(at: Fixtures.url(c.file), sampleRate: c.sampleRate).samples
        try PythonReference.writeRaw(noisy, to: folder.file("x.f32"))
        try PythonReference.run(Self.script, arguments: [folder.file("x.f32").path, String(c.sampleRate), c.window.rawValue,
                                                         String(c.noiseFrames), folder.file("y.f64").path])
        let reference = try PythonReference.readRawDoubles(folder.file("y.f64"))

        var parameters = BlindEnhancerParameters()
        parameters.window = c.window
        parameters.leadingSeconds = c.leadingSeconds
        let ours = try BlindEnhancer(method: .logmmse, parameters: parameters).enhance(noisy, sampleRate: c.sampleRate)

        let hop = c.sampleRate / 100
        #expect(reference.count == (noisy.count / hop - 2) * hop, "the package's output length")
        #expect(ours.count == noisy.count)
        let peak = reference.map(abs).max() ?? 0
        var worst = 0.0, worstIndex = 0
        for i in 0..<min(reference.count, ours.count) {
            let d = abs(Double(ours[i]) - reference[i])
            if d > worst { worst = d; worstIndex = i }
        }
        print("logmmse vs package, \(c.testDescription): max |diff| \(worst) at \(worstIndex) = \(worst / peak) of the peak \(peak)")
        #expect(peak > 0.01)
        #expect(worst <= 1e-4 * peak, "max |diff| \(worst) at sample \(worstIndex), peak \(peak)")
    }
}
