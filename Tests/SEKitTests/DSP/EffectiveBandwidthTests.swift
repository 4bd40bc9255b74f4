import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// The effective bandwidth (URGENT's −50 dB rule) on signals with a known band, and against numpy.
@Suite struct EffectiveBandwidthTests {
    /// White noise with every FFT bin above `cutoffHz` removed (a brick-wall low-pass of the whole signal).
    static func bandLimitedNoise(seconds: Double, sampleRate: Int, cutoffHz: Double, seed: UInt64) -> [Float] {
        var random = SplitMix64(seed: seed)
        var count = Int(seconds * Double(sampleRate))
        count += count % 2
        let noise = (0..<count).map { _ in random.nextUnitInterval() * 2 - 1 }
        let fft = RealFFT<Double>.double(size: count)
        var spectrum = fft.forward(noise)
        for bin in 0..<(count / 2 + 1) where Double(bin) * Double(sampleRate) / Double(count) > cutoffHz {
            spectrum[2 * bin] = 0; spectrum[2 * bin + 1] = 0
        }
        return fft.inverse(spectrum).map { Float($0 * 0.5) }
    }

    /// One analysis bin at 16 kHz (512-point frames), Hz.
    static let bin16k = 16000.0 / 512

    @Test func whiteNoiseLowPassedAt4kHzHasA4kHzBand() throws {
        let noise = Self.bandLimitedNoise(seconds: 4, sampleRate: 16000, cutoffHz: 4000, seed: 7)
        let bandwidth = try #require(EffectiveBandwidth.of(noise, sampleRate: 16000))
        // The Hann window's leakage past the edge stays above −50 dB for a few bins: the rule's own
        // resolution (URGENT rounds its estimate up to the next standard rate anyway).
        print("effective bandwidth of white noise low-passed at 4 kHz: \(bandwidth) Hz")
        #expect(bandwidth >= 4000 && bandwidth <= 4000 + 4 * Self.bin16k, "\(bandwidth)")
        let full = Self.bandLimitedNoise(seconds: 4, sampleRate: 16000, cutoffHz: 9000, seed: 8)
        #expect(EffectiveBandwidth.of(full, sampleRate: 16000) == 8000)
        let narrow = Self.bandLimitedNoise(seconds: 4, sampleRate: 48000, cutoffHz: 7000, seed: 9)
        let wide = try #require(EffectiveBandwidth.of(narrow, sampleRate: 48000))
        #expect(wide >= 7000 && wide <= 7000 + 4 * 48000.0 / 1536, "\(wide)")
    }

    @Test func silenceAndShortSignals() {
        #expect(EffectiveBandwidth.of([Float](repeating: 0, count: 16000), sampleRate: 16000) == nil)
        #expect(EffectiveBandwidth.of([Float](), sampleRate: 16000) == nil)
        // Shorter than one frame: zero-padded to one (the cut widens the band, but there is one).
        let tone = (0..<300).map { Float(sin(2 * Double.pi * 1000 * Double($0) / 16000)) }
        let short = EffectiveBandwidth.of(tone, sampleRate: 16000)
        #expect(short != nil && short! >= 1000 - Self.bin16k)
    }

    /// Fed in blocks of any size, the answer is the same as all at once.
    @Test func blocksDoNotChangeTheAnswer() {
        let noise = Self.bandLimitedNoise(seconds: 2, sampleRate: 16000, cutoffHz: 3000, seed: 3)
        var accumulator = EffectiveBandwidth(sampleRate: 16000)
        var start = 0
        for size in [1, 100, 511, 4096, 70000] where start < noise.count {
            let end = min(noise.count, start + size)
            accumulator.add(noise[start..<end]); start = end
        }
        accumulator.add(noise[start...])
        #expect(accumulator.result() == EffectiveBandwidth.of(noise, sampleRate: 16000))
    }

    /// The same rule written in numpy (Hann frames of 32 ms every 16 ms, mean power, last bin within
    /// 50 dB of the peak) on real speech and noise, and on synthetic band-limited noise: the same bin.
    @Test(.needsFixtures, .enabled(if: PythonReference.available, "needs SEKIT_PYTHON (run scripts/test.sh)"))
    func equalsNumpyOnFixtures() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let synthetic = folder.file("band.wav")
        let band = Self.bandLimitedNoise(seconds: 3, sampleRate: 16000, cutoffHz: 5500, seed: 1)
        try TestWAV.writeFloat32(band, sampleRate: 16000, to: synthetic)
        let files = [Fixtures.url("speech/arctic_a0007.wav"), Fixtures.url("speech/vctk_p287_001.wav"),
                     Fixtures.url("noise/running_tap.wav"), Fixtures.url("rir/rir_clap.wav"), synthetic]
        let script = """
            import sys, numpy as np, soundfile as sf
            for path in sys.argv[1:]:
                x, fs = sf.read(path, dtype='float32', always_2d=True)
                x = x.mean(axis=1).astype(np.float64)
                n = int(round(0.032 * fs)); hop = n // 2
                w = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / n)
                starts = range(0, len(x) - n + 1, hop)
                p = np.mean([np.abs(np.fft.rfft(x[s:s + n] * w)) ** 2 for s in starts], axis=0)
                k = np.nonzero(p >= p.max() * 10 ** (-50 / 10))[0].max()
                print(k * fs / n)
            """
        let expected = try PythonReference.run(script, arguments: files.map(\.path)).split(separator: "\n").map { Double($0)! }
        for (file, numpy) in zip(files, expected) {
            let ours = try SourceMeasures.measure(file).bandwidthHz
            #expect(ours == numpy, "\(file.lastPathComponent): \(String(describing: ours)) Hz, numpy \(numpy) Hz")
        }
    }
}
