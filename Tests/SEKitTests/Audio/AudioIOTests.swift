import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

@Suite struct AudioWriteReadTests {
    func sine(_ hz: Double, amplitude: Double = 0.5, seconds: Double = 1, rate: Int = 16000) -> [Float] {
        (0..<Int(seconds * Double(rate))).map { Float(amplitude * sin(2 * Double.pi * hz * Double($0) / Double(rate))) }
    }

    @Test(arguments: AudioFileFormat.allCases)
    func roundTripWithinOneQuantisationStep(format: AudioFileFormat) throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let x = sine(440)
        let url = folder.file(format.rawValue.hasPrefix("flac") ? "a.flac" : "a.wav")
        let report = try AudioWriter.write(AudioBuffer(samples: x, sampleRate: 16000), to: url, format: format)
        #expect(report.clippedSamples == 0)
        let back = try AudioFile.read(at: url)
        #expect(back.sampleRate == 16000 && back.count == x.count)
        let step: Float = format.integerBits.map { 1 / Float(1 << ($0 - 1)) } ?? 0
        var worst: Float = 0
        for i in 0..<x.count { worst = max(worst, abs(back.samples[i] - x[i])) }
        #expect(worst <= step / 2 + 1e-9, "\(format): \(worst)")
        // Nothing but the final file is left in the folder.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [url.lastPathComponent])
    }

    /// The mixer's direct writers give the same files as the general writer, and refuse NaN and
    /// a bad rate without leaving anything behind.
    @Test func directStemWritersMatchTheGeneralWriter() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let x = sine(330, amplitude: 0.7)
        try AudioWriter.write(AudioBuffer(samples: x, sampleRate: 16000), to: folder.file("f.wav"), format: .wavFloat32)
        try AudioWriter.writeFloat32(samples: x, sampleRate: 16000, toPath: folder.file("g.wav").path)
        #expect(try Data(contentsOf: folder.file("f.wav")) == Data(contentsOf: folder.file("g.wav")))
        try AudioWriter.write(AudioBuffer(samples: x, sampleRate: 16000), to: folder.file("p.wav"), format: .wavPCM16)
        try AudioWriter.writePCM16(codes: PCM16.encode(x, scale: 1), sampleRate: 16000, toPath: folder.file("q.wav").path)
        #expect(try Data(contentsOf: folder.file("p.wav")) == Data(contentsOf: folder.file("q.wav")))
        var bad = x
        bad[100] = .nan
        #expect(throws: AudioError.self) { try AudioWriter.writeFloat32(samples: bad, sampleRate: 16000,
                                                                        toPath: folder.file("nan.wav").path) }
        #expect(throws: AudioError.self) { try AudioWriter.writeFloat32(samples: x, sampleRate: 0, toPath: folder.file("rate.wav").path) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["f.wav", "g.wav", "p.wav", "q.wav"])
    }

    @Test func pcmClipsAtFullScaleAndCounts() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let x: [Float] = [0, 0.5, 1.0, 1.5, -1.0, -1.2, 0.99997]
        let report = try AudioWriter.write(AudioBuffer(samples: x, sampleRate: 8000), to: folder.file("c.wav"), format: .wavPCM16)
        #expect(report.clippedSamples == 3)  // 1.0, 1.5, -1.2 (−1.0 is representable exactly)
        let back = try AudioFile.read(at: folder.file("c.wav")).samples
        #expect(back[2] == 32767.0 / 32768 && back[3] == 32767.0 / 32768)
        #expect(back[4] == -1 && back[5] == -1)
        let report24 = try AudioWriter.write(AudioBuffer(samples: x, sampleRate: 8000), to: folder.file("c24.flac"), format: .flac24)
        #expect(report24.clippedSamples == 3)
        #expect(try AudioFile.read(at: folder.file("c24.flac")).samples[3] < 1)
    }

    @Test func writingReplacesAtomicallyAndRefusesNaN() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("x.wav")
        try AudioWriter.write(AudioBuffer(samples: [0.1, 0.2], sampleRate: 16000), to: url)
        #expect(throws: AudioError.self) {
            try AudioWriter.write(AudioBuffer(samples: [0.1, .nan], sampleRate: 16000), to: url)
        }
        #expect(try AudioFile.read(at: url).count == 2)  // the old file is intact
        #expect(throws: AudioError.self) {
            try AudioWriter.write(AudioBuffer(samples: [0.1], sampleRate: 16000), to: folder.file("missing/dir/x.wav"))
        }
    }

    @Test func channelPolicies() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        // A stereo float WAV written by hand: left 0.5, right -0.25.
        var data = WAVEncoding.encode(AudioBuffer(samples: [0.5, -0.25, 0.5, -0.25], sampleRate: 8000), float: true).0
        data.replaceSubrange(22..<24, with: [2, 0])              // channels
        data.replaceSubrange(28..<32, with: withUnsafeBytes(of: UInt32(8000 * 8).littleEndian, Array.init))
        data.replaceSubrange(32..<34, with: [8, 0])              // block align
        try data.write(to: folder.file("st.wav"))
        #expect(try AudioFile.read(at: folder.file("st.wav")).samples == [0.125, 0.125])
        #expect(try AudioFile.read(at: folder.file("st.wav"), channel: .pick(1)).samples == [-0.25, -0.25])
        #expect(throws: AudioError.channelOutOfRange(path: folder.file("st.wav").path, channel: 2, channels: 2)) {
            try AudioFile.read(at: folder.file("st.wav"), channel: .pick(2))
        }
    }
}

@Suite struct AudioBadInputTests {
    @Test func everyBadFileGetsATypedErrorNamingIt() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let good = WAVEncoding.encode(AudioBuffer(samples: (0..<1000).map { Float($0) / 2000 }, sampleRate: 16000), float: false).0
        try good.prefix(20).write(to: folder.file("header_cut.wav"))
        try Data("this is not audio at all, just text".utf8).write(to: folder.file("text.wav"))
        try Data().write(to: folder.file("empty.wav"))
        try good.prefix(44).write(to: folder.file("no_data.wav"))
        var nan = WAVEncoding.encode(AudioBuffer(samples: [0.1, 0.2, 0.3], sampleRate: 16000), float: true).0
        nan.replaceSubrange(48..<52, with: withUnsafeBytes(of: Float.nan.bitPattern.littleEndian, Array.init))
        try nan.write(to: folder.file("nan.wav"))
        let expectations: [(String, String)] = [("header_cut.wav", "unreadable"), ("text.wav", "unreadable"), ("empty.wav", "empty-file"),
                                                ("no_data.wav", "zero-length"), ("nan.wav", "non-finite-samples"), ("absent.wav",
                                                                                                                    "file-not-found")]
        for (name, code) in expectations {
            do {
                _ = try AudioFile.read(at: folder.file(name))
                Issue.record("\(name) was read")
            } catch let error as AudioError {
                #expect(error.code == code, "\(name): \(error)")
                #expect(error.description.contains(name))
            }
        }
        #expect(throws: AudioError.nonFiniteSamples(path: folder.file("nan.wav").path,
                                                    sampleIndex: 1)) { try AudioFile.read(at: folder.file("nan.wav")) }
    }

    @Test func dataCutShortReadsWhatIsThereWithoutCrashing() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let good = WAVEncoding.encode(AudioBuffer(samples: [Float](repeating: 0.25, count: 1000), sampleRate: 16000), float: false).0
        try good.prefix(44 + 600).write(to: folder.file("cut.wav"))
        // libsndfile trusts the file length over the header: 300 frames are there to read.
        let buffer = try AudioFile.read(at: folder.file("cut.wav"))
        #expect(buffer.count == 300)
        #expect(buffer.samples.allSatisfy { $0 == 0.25 })
    }
}

@Suite(.enabled(if: PythonReference.available, "run through scripts/test.sh"))
struct AudioFormatTests {
    @Test func readsEveryFormatLibsndfileWrites() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        try PythonReference.run("""
        import sys, numpy as np, soundfile as sf
        d = sys.argv[1]
        t = np.arange(22050) / 22050.0
        x = 0.5 * np.sin(2 * np.pi * 440 * t)
        st = np.stack([x, -x], axis=1)
        for name, sub in [('u8.wav', 'PCM_U8'), ('s16.wav', 'PCM_16'), ('s24.wav', 'PCM_24'), ('s32.wav', 'PCM_32'),
                          ('f32.wav', 'FLOAT'), ('f64.wav', 'DOUBLE'), ('a.flac', 'PCM_16'), ('a.ogg', 'VORBIS'), ('a.aiff', 'PCM_16')]:
            sf.write(d + '/' + name, x, 22050, subtype=sub)
        sf.write(d + '/stereo.wav', st, 22050, subtype='PCM_16')
        """, arguments: [folder.url.path])
        let tolerance: [String: Float] = ["u8.wav": 1.0 / 64, "a.ogg": 0.05]
        for name in ["u8.wav", "s16.wav", "s24.wav", "s32.wav", "f32.wav", "f64.wav", "a.flac", "a.ogg", "a.aiff"] {
            let buffer = try AudioFile.read(at: folder.file(name))
            #expect(buffer.sampleRate == 22050 && buffer.count == 22050, "\(name)")
            let expected = (0..<22050).map { Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / 22050)) }
            var worst: Float = 0
            for i in 1000..<21000 { worst = max(worst, abs(buffer.samples[i] - expected[i])) }
            #expect(worst < tolerance[name, default: 1e-4], "\(name): \(worst)")
        }
        let stereo = try AudioFile.readChannels(at: folder.file("stereo.wav"))
        #expect(stereo.count == 2)
        #expect(try AudioFile.read(at: folder.file("stereo.wav")).samples.allSatisfy { abs($0) < 1e-4 })
    }
}

@Suite struct ResamplerTests {
    /// Amplitude of the tone and the largest component above `nyquist` (dB re the tone), from a
    /// Hann-windowed FFT of the middle of the signal.
    func analyse(_ x: [Float], rate: Int, toneHz: Double) -> (amplitudeDB: Double, worstOtherDB: Double) {
        let n = 8192
        let start = (x.count - n) / 2
        let w = Window.make(.hann, length: n, periodic: false)
        let spec = RealFFT.double(size: n).forward((0..<n).map { Double(x[start + $0]) * w[$0] })
        var mags = [Double](repeating: 0, count: n / 2 + 1)
        for k in 0..<mags.count {
            let re = spec[2 * k], im = spec[2 * k + 1]
            mags[k] = (re * re + im * im).squareRoot()
        }
        let toneBin = Int((toneHz * Double(n) / Double(rate)).rounded())
        let tone = mags[(toneBin - 3)...(toneBin + 3)].max()!
        // Components outside the tone's main lobe (±20 bins).
        var other = 0.0
        for k in 0..<mags.count where abs(k - toneBin) > 20 { other = max(other, mags[k]) }
        return (20 * log10(tone), 20 * log10(other / tone))
    }

    @Test(arguments: [48000, 11025, 44100, 8000])
    func sineKeepsItsAmplitudeAndNothingAliases(from rate: Int) throws {
        let x = (0..<(rate * 2)).map { Float(0.5 * sin(2 * Double.pi * 1000 * Double($0) / Double(rate))) }
        let y = try Resampler.resample(AudioBuffer(samples: x, sampleRate: rate), to: 16000)
        #expect(y.count == 32000)
        // Amplitude from the steady-state RMS (√2·RMS of a sine), away from the edges.
        let middle = Array(y.samples[4000..<28000])
        let amplitude = (2 * Levels.meanSquare(middle)).squareRoot()
        #expect(abs(20 * log10(amplitude / 0.5)) < 0.01)
        let (_, worstOther) = analyse(y.samples, rate: 16000, toneHz: 1000)
        #expect(worstOther < -100, "\(rate)→16000: strongest other component \(worstOther) dB")
    }

    @Test func badRatesAreRefused() {
        #expect(throws: AudioError.self) { try Resampler.resample(AudioBuffer(samples: [0], sampleRate: 16000), to: 0) }
    }
}

@Suite struct LevelTests {
    @Test func peakRMSAndDC() {
        let x: [Float] = [0.5, -0.5, 0.5, -0.5]
        #expect(Levels.peakDBFS(x) == 20 * log10(0.5))
        #expect(abs(Levels.rmsDBFS(x) - 20 * log10(0.5)) < 1e-12)
        #expect(Levels.dcOffset([0.1, 0.3]) == (Double(Float(0.1)) + Double(Float(0.3))) / 2)
        #expect(Levels.clippedRatio([1, -1, 0.5, 0.9995]) == 0.75)
        #expect(Levels.rmsDBFS([0, 0]) == -.infinity)
    }

    @Test func activeLevelOfAGatedToneIsItsOnLevel() throws {
        // 1 kHz tone at 0.1 amplitude, on for 1 s, off for 1 s, four times.
        var x: [Float] = []
        for _ in 0..<4 {
            x += (0..<16000).map { Float(0.1 * sin(2 * Double.pi * 1000 * Double($0) / 16000)) }
            x += [Float](repeating: 0, count: 16000)
        }
        let level = try ActiveSpeechLevel.measure(x, sampleRate: 16000)
        let onLevel = 10 * log10(0.01 / 2)
        // P.56 counts the 0.2 s hangover (and the envelope's decay) after each burst as active:
        // activity between 1/2 and (1 + 0.2 + 0.1)/2 per period, and the level correspondingly
        // at most 10·log10(1.3) dB below the on-level.
        #expect(level.activityFactor > 0.5 && level.activityFactor < 0.65, "\(level.activityFactor)")
        #expect(level.levelDBFS <= onLevel + 0.01 && level.levelDBFS > onLevel - 10 * log10(1.3), "\(level.levelDBFS) vs \(onLevel)")
        // Consistency: active power × activity = mean square.
        #expect(abs(level.activePower * level.activityFactor - Levels.meanSquare(x)) < 1e-9)
        // A continuous tone is active throughout but for the envelope's attack (about 25 ms of
        // the 2 s): its active level is its RMS within 0.1 dB.
        let tone = (0..<32000).map { Float(0.1 * sin(2 * Double.pi * 1000 * Double($0) / 16000)) }
        let continuous = try ActiveSpeechLevel.measure(tone, sampleRate: 16000)
        #expect(abs(continuous.levelDBFS - Levels.rmsDBFS(tone)) < 0.1)
        #expect(continuous.activityFactor > 0.98)
        #expect(throws: AudioError.self) { try ActiveSpeechLevel.measure([Float](repeating: 0, count: 16000), sampleRate: 16000) }
    }

    @Test func loudnessOfAReferenceTone() throws {
        // EBU Tech 3341: a 1 kHz sine at −23 dBFS (amplitude) in both stereo channels reads −23 LUFS;
        // one channel carries half the power: −26.01 LUFS.
        let amplitude = pow(10, -23.0 / 20)
        let x = (0..<(48000 * 5)).map { amplitude * sin(2 * Double.pi * 1000 * Double($0) / 48000) }
        let lufs = try Levels.loudnessLUFS(x, sampleRate: 48000)
        #expect(abs(lufs - (-26.01)) < 0.1, "\(lufs)")
        #expect(try Levels.loudnessLUFS([Double](repeating: 0, count: 48000), sampleRate: 48000) == -.infinity)
    }

    @Test(.needsFixtures)
    func activeLevelOfRealSpeechIsAboveItsRMS() throws {
        let speech = try AudioFile.read(at: Fixtures.url("speech/arctic_a0007.wav"))
        let level = try ActiveSpeechLevel.measure(speech.samples, sampleRate: speech.sampleRate)
        #expect(level.levelDBFS > Levels.rmsDBFS(speech.samples))
        #expect(level.activityFactor > 0.5 && level.activityFactor < 1)
    }
}
