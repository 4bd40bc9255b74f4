import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// STOI and ESTOI against pystoi 0.4.1 run live, on real speech with real noise at several SNRs
/// and sample rates.
@Suite(.needsFixtures, .enabled(if: PythonReference.available, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct STOIPystoiTests {
    static let script = """
    import sys, numpy as np
    from pystoi import stoi
    x = np.fromfile(sys.argv[1], '<f8'); y = np.fromfile(sys.argv[2], '<f8'); fs = int(sys.argv[3])
    print('%.17g %.17g' % (stoi(x, y, fs), stoi(x, y, fs, extended=True)))
    """

    @Test(arguments: [8000, 10000, 16000, 44100, 48000])
    func matchesPystoiAcrossRatesAndSNRs(sampleRate: Int) throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let speech = try AudioFile.read(at: Fixtures.url("speech/cmu_arctic_us_aew_a0001.wav"),
                                        sampleRate: sampleRate).samples.map(Double.init)
        let noiseFile = try AudioFile.read(at: Fixtures.url("noise/running_tap.wav"), sampleRate: sampleRate).samples.map(Double.init)
        let noise = Array(noiseFile[5000..<(5000 + speech.count)])
        let speechPower = speech.reduce(0) { $0 + $1 * $1 }, noisePower = noise.reduce(0) { $0 + $1 * $1 }
        for snr in [-5.0, 5.0, 20.0] {
            let gain = (speechPower / (noisePower * pow(10, snr / 10))).squareRoot()
            let noisy = zip(speech, noise).map { $0 + gain * $1 }
            try PythonReference.writeRaw(speech, to: folder.file("x.f64"))
            try PythonReference.writeRaw(noisy, to: folder.file("y.f64"))
            let out = try PythonReference.run(Self.script, arguments: [folder.file("x.f64").path, folder.file("y.f64").path,
                                                                       String(sampleRate)])
            let reference = out.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            try #require(reference.count == 2, "pystoi printed: \(out)")
            let ours = try STOI.compute(reference: speech, processed: noisy, sampleRate: sampleRate)
            let oursExtended = try STOI.compute(reference: speech, processed: noisy, sampleRate: sampleRate, extended: true)
            #expect(abs(ours - reference[0]) < 1e-9, "STOI at \(sampleRate) Hz, \(snr) dB: \(ours) vs pystoi \(reference[0])")
            #expect(abs(oursExtended - reference[1]) < 1e-9,
                    "ESTOI at \(sampleRate) Hz, \(snr) dB: \(oursExtended) vs pystoi \(reference[1])")
        }
    }
}

@Suite struct STOIPropertyTests {
    func tone(_ n: Int, sampleRate: Int) -> [Double] {
        (0..<n).map { i in sin(2 * Double.pi * 440 * Double(i) / Double(sampleRate)) * (1 + 0.5 * sin(Double(i) * 0.001)) }
    }

    @Test func identicalSignalsScoreOne() throws {
        let x = tone(32000, sampleRate: 16000)
        #expect(abs(try STOI.compute(reference: x, processed: x, sampleRate: 16000) - 1) < 1e-9)
        #expect(abs(try STOI.compute(reference: x, processed: x, sampleRate: 16000, extended: true) - 1) < 1e-9)
    }

    @Test func tooShortThrowsInsteadOfASentinel() {
        let x = tone(4000, sampleRate: 16000)  // 0.25 s < 384 ms
        #expect(throws: MetricError.self) { try STOI.compute(reference: x, processed: x, sampleRate: 16000) }
    }

    @Test func mismatchedLengthsAndNaNThrow() {
        let x = tone(20000, sampleRate: 16000)
        #expect(throws: MetricError.lengthMismatch(reference: 20000, processed: 19999)) {
            try STOI.compute(reference: x, processed: Array(x.dropLast()), sampleRate: 16000)
        }
        var y = x; y[10] = .nan
        #expect(throws: MetricError.nonFinite(signal: "processed", index: 10)) { try SignalRatios.snr(reference: x, processed: y) }
    }

    @Test func ratioMetricProperties() throws {
        let x = tone(16000, sampleRate: 16000)
        let y = x.map { $0 * 1.1 }
        #expect(abs(try SignalRatios.snr(reference: x, processed: y) - 20) < 1e-9)
        // SI-SDR ignores scale: a scaled copy is perfect.
        #expect(try SignalRatios.siSDR(reference: x, processed: y) > 200)
        #expect(throws: MetricError.silentReference(metric: "sisdr")) {
            try SignalRatios.siSDR(reference: [Double](repeating: 0, count: 100), processed: x.prefix(100).map { $0 })
        }
    }
}
