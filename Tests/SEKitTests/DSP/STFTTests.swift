import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

@Suite struct STFTTests {
    func testSignal(_ n: Int) -> [Float] {
        var rng = SplitMix64(seed: 5)
        var out = [Float](repeating: 0, count: n)
        for i in 0..<n {
            let t = Double(i)
            let tones: Double = 0.5 * sin(t * 0.05) + 0.2 * sin(t * 0.91)
            let noise: Double = 0.1 * (rng.nextUnitInterval() - 0.5)
            out[i] = Float(tones + noise)
        }
        return out
    }

    @Test(arguments: [(WindowKind.hann, 512, 256), (.sqrtHann, 512, 256), (.hann, 400, 100), (.hamming, 512, 128)])
    func roundTripReconstructs(window: WindowKind, winLength: Int, hop: Int) throws {
        let x = testSignal(16000)
        let c = STFTConfiguration(fftSize: 512, winLength: winLength, hopLength: hop, window: window, center: true)
        let y = try STFT.inverse(try STFT.forward(x, configuration: c), length: x.count)
        var worst: Float = 0
        for i in 0..<x.count { worst = max(worst, abs(x[i] - y[i])) }
        #expect(worst < 1e-5, "max error \(worst)")
    }

    @Test func frameCountsFollowTheStatedConvention() {
        #expect(STFTConfiguration(fftSize: 512, hopLength: 256, center: true).frameCount(samples: 16000) == 63)
        #expect(STFTConfiguration(fftSize: 512, hopLength: 256, center: false).frameCount(samples: 16000) == 61)
        #expect(STFTConfiguration(fftSize: 512, hopLength: 256, center: false).frameCount(samples: 100) == 0)
    }

    @Test func parallelFramesGiveIdenticalOutput() throws {
        let x = testSignal(100_000)
        let c = STFTConfiguration()
        #expect(try STFT.forward(x, configuration: c, jobs: 1) == (try STFT.forward(x, configuration: c, jobs: 4)))
    }

    @Test func badParametersAreNamed() {
        #expect(throws: DSPError.invalidParameter(name: "win-length", value: "600", reason: "must be in 1...n-fft (512)")) {
            try STFT.forward([0, 1], configuration: STFTConfiguration(fftSize: 512, winLength: 600))
        }
    }

    @Test(.enabled(if: PythonReference.available, "run through scripts/test.sh"))
    func magnitudesMatchNumpyAndLibrosa() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let x = testSignal(8000)
        try PythonReference.writeRaw(x, to: folder.file("x.f32"))
        for center in [false, true] {
            let c = STFTConfiguration(fftSize: 512, winLength: 400, hopLength: 160, window: .hann, center: center)
            let ours = try STFT.forward(x, configuration: c).magnitude()
            let script = """
            import sys, numpy as np, librosa, scipy.signal
            x = np.fromfile(sys.argv[1], '<f4').astype(np.float64)
            center = sys.argv[2] == '1'
            w = scipy.signal.get_window('hann', 400, fftbins=True)
            w = np.pad(w, (56, 56))
            xp = np.pad(x, (256, 256)) if center else x
            frames = 1 + (len(xp) - 512) // 160
            m = np.array([np.abs(np.fft.rfft(xp[t*160:t*160+512] * w)) for t in range(frames)])
            m.astype('<f8').tofile(sys.argv[3])
            L = np.abs(librosa.stft(x.astype(np.float32), n_fft=512, win_length=400, hop_length=160, window='hann', \
            center=center, pad_mode='constant')).T
            L.astype('<f8').tofile(sys.argv[4])
            """
            try PythonReference.run(script, arguments: [folder.file("x.f32").path, center ? "1" : "0", folder.file("np.f64").path,
                                                        folder.file("lr.f64").path])
            for name in ["np.f64", "lr.f64"] {
                let reference = try PythonReference.readRawDoubles(folder.file(name))
                try #require(reference.count == ours.count, "\(name): \(reference.count) values vs ours \(ours.count)")
                let peak = reference.max() ?? 1
                var worst = 0.0
                for i in 0..<ours.count {
                    // Relative error for bins within 40 dB of the peak; bins further down (where float32
                    // rounding of the whole frame dominates) are judged against 1% of the peak.
                    let scale = max(reference[i], peak * 1e-2)
                    worst = max(worst, abs(Double(ours[i]) - reference[i]) / scale)
                }
                #expect(worst < 1e-5, "\(name) center=\(center): worst relative error \(worst)")
            }
        }
    }
}

@Suite struct WindowTests {
    @Test(.enabled(if: PythonReference.available, "run through scripts/test.sh"))
    func windowsMatchScipy() throws {
        let out = try PythonReference.run("""
        import scipy.signal as s, numpy as np
        for name, sym in [('hann', False), ('hann', True), ('hamming', False), ('hamming', True)]:
            print(' '.join('%.17g' % v for v in s.get_window(name, 9, fftbins=not sym)))
        """)
        let rows = out.split(separator: "\n").map { $0.split(separator: " ").map { Double($0)! } }
        let ours = [Window.make(.hann, length: 9), Window.make(.hann, length: 9, periodic: false),
                    Window.make(.hamming, length: 9), Window.make(.hamming, length: 9, periodic: false)]
        for (a, b) in zip(ours, rows) { for (u, v) in zip(a, b) { #expect(abs(u - v) < 1e-15) } }
    }

    /// `matlabHanning` is built from the symmetric Hann window; its values must be, bit for bit,
    /// those of MATLAB's formula `0.5·(1 − cos(2πn/(N+1)))` that the metrics used to compute inline
    /// (the published metric values and the golden score hashes depend on every bit).
    @Test func matlabHanningIsBitExactToTheMatlabFormula() {
        for length in 1...1200 {
            let formula = (1...length).map { 0.5 * (1 - cos(2 * Double.pi * Double($0) / Double(length + 1))) }
            #expect(Window.matlabHanning(length: length).map(\.bitPattern) == formula.map(\.bitPattern), "length \(length)")
        }
    }

    @Test func sqrtHannSquaresToHann() {
        let s = Window.make(.sqrtHann, length: 64), h = Window.make(.hann, length: 64)
        for i in 0..<64 { #expect(abs(s[i] * s[i] - h[i]) < 1e-15) }
    }
}

@Suite struct BiquadTests {
    @Test func blockwiseFilteringEqualsOneCall() throws {
        var rng = SplitMix64(seed: 11)
        let x = (0..<20000).map { _ in Float(rng.nextUnitInterval() - 0.5) }
        for kind in BiquadFilter.Kind.allCases {
            var whole = try BiquadFilter(kind, frequencyHz: 1000, q: 0.9, gainDB: 6, sampleRate: 16000)
            let expected = whole.process(x)
            var blockwise = try BiquadFilter(kind, frequencyHz: 1000, q: 0.9, gainDB: 6, sampleRate: 16000)
            var out: [Float] = []
            var start = 0
            while start < x.count {
                let size = 1 + rng.nextIndex(below: 4096)
                out += blockwise.process(Array(x[start..<min(x.count, start + size)]))
                start += size
            }
            #expect(out == expected, "\(kind)")
        }
    }

    @Test func responseAtCornerMatchesTheAnalyticValue() throws {
        let lp = try BiquadFilter(.lowPass, frequencyHz: 2000, sampleRate: 16000)
        #expect(abs(lp.responseDB(atHz: 2000) - (-10 * log10(2.0))) < 0.01)
        let peak = try BiquadFilter(.peaking, frequencyHz: 1000, q: 1, gainDB: 6, sampleRate: 16000)
        #expect(abs(peak.responseDB(atHz: 1000) - 6) < 0.01)
        let shelf = try BiquadFilter(.highShelf, frequencyHz: 3000, gainDB: -12, sampleRate: 16000)
        #expect(abs(shelf.responseDB(atHz: 7900) - (-12)) < 0.1)
        #expect(abs(shelf.responseDB(atHz: 3000) - (-6)) < 0.01)
    }

    @Test func measuredResponseOfASineMatchesAnalytic() throws {
        var lp = try BiquadFilter(.lowPass, frequencyHz: 2000, sampleRate: 16000)
        let n = 32000
        let x = (0..<n).map { Float(sin(2 * Double.pi * 2000 * Double($0) / 16000)) }
        let y = lp.process(x)
        // Steady state: RMS over the second half.
        let rmsIn = Levels.meanSquare(Array(x[16000...])), rmsOut = Levels.meanSquare(Array(y[16000...]))
        #expect(abs(10 * log10(rmsOut / rmsIn) - lp.responseDB(atHz: 2000)) < 0.01)
    }

    @Test func badDesignsAreRefused() {
        #expect(throws: DSPError.self) { try BiquadFilter(.lowPass, frequencyHz: 9000, sampleRate: 16000) }
        #expect(throws: DSPError.self) { try BiquadFilter(.lowPass, frequencyHz: 100, q: 0, sampleRate: 16000) }
    }
}

@Suite struct ConvolutionTests {
    @Test(arguments: [(1000, 300), (20000, 4410), (5000, 9000), (7, 3)])
    func fftConvolutionEqualsDirect(n: Int, m: Int) {
        var rng = SplitMix64(seed: UInt64(n * m))
        let x = (0..<n).map { _ in rng.nextUnitInterval() - 0.5 }
        // An exponentially decaying noise "room".
        let h = (0..<m).map { i in (rng.nextUnitInterval() - 0.5) * exp(-Double(i) / Double(m) * 6) }
        let fast = Convolution.fft(x, h), slow = Convolution.direct(x, h)
        #expect(fast.count == n + m - 1)
        var worst = 0.0
        for i in 0..<fast.count { worst = max(worst, abs(fast[i] - slow[i])) }
        #expect(worst < 1e-9)
    }

    @Test(.needsFixtures)
    func realRoomImpulseResponse() throws {
        let rir = try AudioFile.read(at: Fixtures.url("rir/small_room.wav"), channel: .pick(0), sampleRate: 16000).samples.map(Double.init)
        let speech = try AudioFile.read(at: Fixtures.url("speech/arctic_a0007.wav")).samples.prefix(8000).map(Double.init)
        let fast = Convolution.fft(speech, rir), slow = Convolution.direct(speech, rir)
        var worst = 0.0
        for i in 0..<fast.count { worst = max(worst, abs(fast[i] - slow[i])) }
        #expect(worst < 1e-5)
    }
}

@Suite struct NoiseGeneratorTests {
    /// Average periodogram power in dB over [f, 2f), for slope estimates.
    func bandPowerDB(_ x: [Float], from f: Double, sampleRate: Int) -> Double {
        let n = 4096
        let fft = RealFFT.double(size: n)
        let w = Window.make(.hann, length: n)
        var acc = [Double](repeating: 0, count: n / 2 + 1)
        var start = 0
        while start + n <= x.count {
            let spec = fft.forward((0..<n).map { Double(x[start + $0]) * w[$0] })
            for k in 0..<acc.count { acc[k] += spec[2 * k] * spec[2 * k] + spec[2 * k + 1] * spec[2 * k + 1] }
            start += n / 2
        }
        let lo = Int(f * Double(n) / Double(sampleRate)), hi = Int(2 * f * Double(n) / Double(sampleRate))
        return 10 * log10(acc[lo..<hi].reduce(0, +) / Double(hi - lo))
    }

    @Test(arguments: [(NoiseColor.white, 0.0), (.pink, -3.01), (.brown, -6.02)])
    func spectralSlopePerOctave(color: NoiseColor, slopeDB: Double) {
        let x = NoiseGenerator.generate(color, count: 16000 * 60, sampleRate: 16000, rmsDBFS: -20, seed: 1)
        // Average slope across the octaves 125→250 ... 2000→4000 Hz, per octave band (band power
        // per bin, so the octave width cancels).
        let octaves = [125.0, 250, 500, 1000, 2000].map { bandPowerDB(x, from: $0, sampleRate: 16000) }
        let slope = (octaves.last! - octaves.first!) / Double(octaves.count - 1)
        #expect(abs(slope - slopeDB) < 0.3, "\(color): \(slope) dB/octave")
        #expect(abs(Levels.rmsDBFS(x) - (-20)) < 1e-3)
    }

    @Test func sameSeedSameNoiseOtherSeedOtherNoise() {
        let a = NoiseGenerator.generate(.pink, count: 10000, sampleRate: 16000, rmsDBFS: -20, seed: 4)
        #expect(a == NoiseGenerator.generate(.pink, count: 10000, sampleRate: 16000, rmsDBFS: -20, seed: 4))
        #expect(a != NoiseGenerator.generate(.pink, count: 10000, sampleRate: 16000, rmsDBFS: -20, seed: 5))
    }
}

@Suite struct DSPErrorTests {
    @Test func messagesNameTheParameterAndValue() {
        do {
            try STFTConfiguration(fftSize: 512, hopLength: 0).validate()
            Issue.record("hop 0 accepted")
        } catch {
            #expect(error.code == "invalid-parameter")
            #expect(error.description == "invalid hop-length = 0: must be positive")
        }
        do {
            _ = try BiquadFilter(.lowPass, frequencyHz: 9000, sampleRate: 16000)
            Issue.record("cutoff above Nyquist accepted")
        } catch {
            #expect(error.description == "invalid frequencyHz = 9000.0: must be in (0, 8000) Hz")
        }
    }
}
