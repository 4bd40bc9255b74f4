import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// The degradation stages on real fixture speech and noise, checked from the written files: band
/// limits, codec alignment and quality, packet loss, clipping distortion, and determinism.
@Suite(.needsFixtures)
struct DegradationStageTests {
    let inputs = MixInputs(speech: [Fixtures.url("speech").path], noise: [Fixtures.url("noise").path])

    func options(count: Int, seconds: Double = 2, format: MixOptions.OutputFormat = .pcm16) -> MixOptions {
        var o = MixOptions()
        o.count = count; o.seconds = seconds; o.snrDB = .uniform(low: 0, high: 20); o.seed = 17; o.format = format
        return o
    }

    func mix(_ options: MixOptions, into folder: URL, jobs: Int = 2, shard: Shard = .whole) throws -> [MixManifestRecord] {
        let result = try MixRun.prepare(options: options, inputs: inputs, output: folder, shard: shard, jobs: jobs).run()
        #expect(result.failures.isEmpty)
        return result.records
    }

    func samples(_ folder: URL, _ relative: String) throws -> [Float] {
        try AudioFile.read(at: folder.appendingPathComponent(relative)).samples
    }

    /// A noisy input made of real speech and real noise at 5 dB, 16 kHz.
    func realNoisyInput() throws -> [Float] {
        let speech = try AudioFile.read(at: Fixtures.url("speech/arctic_a0007.wav")).samples
        let noise = try AudioFile.read(at: Fixtures.url("noise/doing_the_dishes.wav")).samples
        let gain = Float((Levels.meanSquare(speech) / Levels.meanSquare(Array(noise[0..<speech.count])) / pow(10, 0.5)).squareRoot())
        return (0..<speech.count).map { 0.5 * (speech[$0] + gain * noise[$0]) }
    }

    /// The lag (in samples, positive when `y` is late) maximising the normalised cross-correlation
    /// of `x` and `y` over ±`maximumLag`.
    func lag(of y: [Float], against x: [Float], maximumLag: Int = 1500) -> Int {
        let n = min(x.count, y.count)
        var best = (lag: 0, value: -Double.infinity)
        x.withUnsafeBufferPointer { a in
            y.withUnsafeBufferPointer { b in
                for lag in -maximumLag...maximumLag {
                    var sum: Float = 0
                    let start = max(0, -lag), end = min(n, n - lag)
                    for i in start..<end { sum += a[i] * b[i + lag] }
                    if Double(sum) > best.value { best = (lag, Double(sum)) }
                }
            }
        }
        return best.lag
    }

    func snrDB(_ reference: [Float], _ degraded: [Float]) -> Double {
        var signal = 0.0, error = 0.0
        for i in reference.indices {
            signal += Double(reference[i]) * Double(reference[i])
            let e = Double(reference[i]) - Double(degraded[i])
            error += e * e
        }
        return 10 * log10(signal / error)
    }

    /// Energy above the band edge relative to below it (numpy periodogram of the whole clip,
    /// Hann window), for 16-bit and float output; the clean target too under `limited`.
    @Test(.enabled(if: PythonReference.available, "needs SEKIT_PYTHON (numpy)"), arguments: [MixOptions.OutputFormat.pcm16, .float32])
    func bandLimitedNoisyInputsHaveNoEnergyAboveTheBandEdge(format: MixOptions.OutputFormat) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        var o = options(count: 8, format: format)
        o.bandwidthHz = .list([2000, 3000, 4000, 6000]); o.targetBandwidth = .limited
        let records = try mix(o, into: folder.url)
        let out = try PythonReference.run("""
            import json, sys, numpy as np, soundfile as sf
            folder = sys.argv[1]
            for line in open(folder + "/manifest.jsonl"):
                r = json.loads(line); edge = r["degradations"][0]["bandwidth_hz"]
                for stem in ("noisy", "clean"):
                    x, fs = sf.read(folder + "/" + r[stem])
                    p = np.abs(np.fft.rfft(x * np.hanning(len(x)))) ** 2
                    f = np.fft.rfftfreq(len(x), 1 / fs)
                    print(r["clip_id"], stem, edge, 10 * np.log10(p[f >= edge].sum() / p[f < edge].sum()))
            """, arguments: [folder.url.path])
        let lines = out.split(separator: "\n")
        #expect(lines.count == 2 * records.count)
        for line in lines {
            let ratio = try #require(Double(line.split(separator: " ").last!))
            #expect(ratio < -60, "\(line): dB above the edge relative to below it")
        }
    }

    @Test(arguments: [8000, 16000, 22050, 44100])
    func codecOutputsDecodeAlignedAtLagZero(sampleRate: Int) throws {
        let input = try Resampler.resample(AudioBuffer(samples: try realNoisyInput(), sampleRate: 16000), to: sampleRate).samples
        let excerpt = Array(input[0..<min(input.count, sampleRate * 2)])
        let settings: [CodecSettings] = [
            .init(codec: .vorbis, vorbisQuality: 0.1), .init(codec: .vorbis, vorbisQuality: 0.6),
            .init(codec: .ulaw), .init(codec: .alaw), .init(codec: .gsm),
        ] + [8.0, 24, 48, 64, 128].map { kbps in
            .init(codec: .mp3, mp3BitrateKbps: AudioCodec.mp3BitrateKbps(nearest: kbps,
                                                                         codingRate: AudioCodec.mp3.codingRate(forSampleRate: sampleRate)))
        } + [6, 12, 24, 64].map { CodecSettings(codec: .opus, opusBitrateKbps: $0) }
        for setting in settings {
            let output = try CodecRoundTrip.apply(excerpt, sampleRate: sampleRate, settings: setting)
            #expect(output.count == excerpt.count, "\(setting) at \(sampleRate) Hz")
            #expect(lag(of: output, against: excerpt, maximumLag: sampleRate / 10) == 0, "\(setting) at \(sampleRate) Hz")
            #expect(snrDB(excerpt, output) > 3, "\(setting) at \(sampleRate) Hz: \(snrDB(excerpt, output)) dB")
        }
    }

    /// `--opus-complexity` below 10 (libopus called directly): aligned at lag 0 at the rates above,
    /// as long as the input, coded (not the identity) and with an SNR against the input near what
    /// complexity 10 gives (at most 3.5 dB below it, and positive: at 6 kbps complexities 0-1 lose up to
    /// 2.9 dB).
    @Test(arguments: [8000, 16000, 22050, 44100])
    func opusAtLowerComplexitiesDecodesAlignedAtLagZero(sampleRate: Int) throws {
        let input = try Resampler.resample(AudioBuffer(samples: try realNoisyInput(), sampleRate: 16000), to: sampleRate).samples
        let excerpt = Array(input[0..<min(input.count, sampleRate * 2)])
        for kbps in [6, 12, 24, 64] {
            let best = snrDB(excerpt, try CodecRoundTrip.apply(excerpt, sampleRate: sampleRate, settings: .init(codec: .opus,
                                                                                                                opusBitrateKbps: kbps)))
            for complexity in [0, 1, 3, 5, 7] {
                let setting = CodecSettings(codec: .opus, opusBitrateKbps: kbps, opusComplexity: complexity)
                let output = try CodecRoundTrip.apply(excerpt, sampleRate: sampleRate, settings: setting)
                let snr = snrDB(excerpt, output)
                let coded = output != excerpt
                #expect(output.count == excerpt.count, "\(setting) at \(sampleRate) Hz")
                #expect(coded, "\(setting) at \(sampleRate) Hz: coded")
                #expect(lag(of: output, against: excerpt, maximumLag: sampleRate / 10) == 0, "\(setting) at \(sampleRate) Hz")
                #expect(snr > 0.5 && snr > best - 3.5 && snr < best + 3,
                        "\(setting) at \(sampleRate) Hz: \(snr) dB, \(best) dB at complexity 10")
            }
        }
    }

    @Test func codecSNRAgainstTheUndegradedNoisyInputFallsWithBitrate() throws {
        let input = try realNoisyInput()
        let ladders: [(AudioCodec, [CodecSettings])] = [
            (.mp3, [8, 24, 48, 96, 160].map { CodecSettings(codec: .mp3, mp3BitrateKbps: $0) }),
            (.opus, [6, 12, 24, 48, 96].map { CodecSettings(codec: .opus, opusBitrateKbps: $0) }),
            (.vorbis, [0.0, 0.2, 0.4, 0.7, 1.0].map { CodecSettings(codec: .vorbis, vorbisQuality: $0) }),
        ]
        for (codec, ladder) in ladders {
            let snrs = try ladder.map { snrDB(input, try CodecRoundTrip.apply(input, sampleRate: 16000, settings: $0)) }
            #expect(zip(snrs, snrs.dropFirst()).allSatisfy { $0 < $1 }, "\(codec): SNR by rising bitrate \(snrs)")
        }
    }

    @Test func realisedPacketLossOverAThousandClipsMatchesTheDrawnRates() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        var o = options(count: 1000, seconds: 0.5, format: .float32)
        o.packetLoss = .uniform(low: 0.05, high: 0.25)
        let records = try mix(o, into: folder.url, jobs: 2)
        let packet = 320
        var drawn = 0.0, realised = 0.0, bursts = 0
        for record in records {
            let loss = try #require(record.degradations?.first)
            let noisy = try samples(folder.url, record.noisy)
            let packets = (noisy.count + packet - 1) / packet
            let silent = (0..<packets).filter { k in noisy[(k * packet)..<min(noisy.count, (k + 1) * packet)].allSatisfy { $0 == 0 } }
            #expect(silent == loss.lostPackets, "\(record.clipID): the zeroed packets are the recorded ones")
            #expect(abs(Double(silent.count) / Double(packets) - loss.packetLoss!) <= 0.5 / Double(packets) + 1e-12)
            drawn += loss.packetLoss!
            realised += Double(silent.count) / Double(packets)
            bursts += zip(silent, silent.dropFirst()).filter { $1 == $0 + 1 }.count
        }
        #expect(abs(realised - drawn) / Double(records.count) < 0.002, "mean realised \(realised / 1000), drawn \(drawn / 1000)")
        #expect(abs(drawn / Double(records.count) - 0.15) < 0.01)
        #expect(bursts > 1000, "losses come in bursts")
    }

    @Test func repeatConcealmentRepeatsTheLastPacketReceived() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        var o = options(count: 6, format: .float32)
        o.packetLoss = .list([0.2]); o.concealment = .repeat; o.packetMs = 10
        let records = try mix(o, into: folder.url)
        for record in records {
            let lost = Set(try #require(record.degradations?.first?.lostPackets))
            let noisy = try samples(folder.url, record.noisy)
            for k in lost.sorted() where k > 0 {
                let start = k * 160
                #expect(Array(noisy[start..<start + 160]) == Array(noisy[(start - 160)..<start]), "\(record.clipID) packet \(k)")
            }
        }
    }

    @Test(arguments: [MixOptions.OutputFormat.float32, .pcm16])
    func clippedFractionsMatchTheRecordedOnes(format: MixOptions.OutputFormat) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        var o = options(count: 12, format: format)
        o.clipDistortion = .uniform(low: 0.1, high: 0.5)
        let records = try mix(o, into: folder.url)
        for record in records {
            let entry = try #require(record.degradations?.first)
            let noisy = try samples(folder.url, record.noisy)
            let peak = noisy.map(abs).max()!
            let atPeak = noisy.filter { abs($0) == peak }.count
            // 16-bit output: samples within half a step below the threshold share its code.
            let tolerance = format == .float32 ? 1.5 / Double(noisy.count) : 0.001
            #expect(abs(Double(atPeak) / Double(noisy.count) - entry.clippedFraction!) < tolerance,
                    "\(record.clipID): \(atPeak) samples at the threshold, recorded fraction \(entry.clippedFraction!)")
            #expect(entry.clippedFraction! > 0)
        }
    }

    /// Every stage at probability 0.5, and every stage chosen by `--degradations-per-clip`; with
    /// `opusComplexity`, Opus complexities drawn from it.
    func everyStage(_ perClip: Bool, opusComplexity: CountRange? = nil) -> MixOptions {
        var o = options(count: 18, seconds: 1)
        o.bandwidthHz = .uniform(low: 2000, high: 7000); o.codecs = AudioCodec.allCases
        o.opusComplexity = opusComplexity
        o.packetLoss = .uniform(low: 0.05, high: 0.25); o.clipDistortion = .uniform(low: 0.1, high: 0.5)
        o.concealment = .repeat
        if perClip {
            o.degradationsPerClip = try! DegradationCounts(parsing: "0:0.1,1:0.3,2:0.3,3:0.2,4:0.1")
        } else {
            o.bandwidthProbability = 0.5; o.codecProbability = 0.5; o.packetLossProbability = 0.5; o.clipDistortionProbability = 0.5
        }
        return o
    }

    @Test(arguments: [(false, false), (true, false), (false, true)])
    func outputIsByteIdenticalAcrossJobsAndShardsWithEveryStage(perClip: Bool, drawnOpusComplexity: Bool) throws {
        let a = try TemporaryFolder(), b = try TemporaryFolder(), c = try TemporaryFolder()
        defer { a.cleanup(); b.cleanup(); c.cleanup() }
        var o = everyStage(perClip, opusComplexity: drawnOpusComplexity ? CountRange(low: 0, high: 10) : nil)
        if drawnOpusComplexity { o.codecs = [.opus, .gsm]; o.codecProbability = 1 }
        let reference = try mix(o, into: a.url, jobs: 1)
        _ = try mix(o, into: b.url, jobs: 3)
        for i in 1...3 { _ = try mix(o, into: c.url, jobs: 2, shard: Shard(index: i, count: 3)) }
        for folder in [b.url, c.url] {
            for record in reference {
                for stem in [record.noisy, record.clean, record.noise] {
                    #expect(try Data(contentsOf: folder.appendingPathComponent(stem))
                                == Data(contentsOf: a.url.appendingPathComponent(stem)), "\(stem)")
                }
            }
        }
        let shards = try MixManifestRecord.read((1...3).map { c.url.appendingPathComponent("manifest-shard-\($0)-of-3.jsonl") })
        #expect(shards == reference.sorted { $0.index < $1.index })
        let kinds = Set(reference.flatMap { $0.degradations!.map(\.kind) })
        #expect(kinds.count >= (drawnOpusComplexity ? 4 : 6), "a mix of many stages and codecs: \(kinds.sorted())")
        let complexities = reference.flatMap { $0.degradations!.compactMap(\.opusComplexity) }
        let opusClips = reference.filter { $0.degradations!.contains { $0.codec == .opus } }.count
        if drawnOpusComplexity {
            #expect(complexities.count == opusClips && Set(complexities).count >= 3, "drawn and recorded per Opus clip: \(complexities)")
        } else {
            #expect(complexities.isEmpty, "not recorded without --opus-complexity")
        }
    }
}
