import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// Reverberation targets, clipping policies, band-limiting and clip-length modes, checked from
/// the written files of real fixture mixes.
@Suite(.needsFixtures)
struct MixAugmentationTests {
    func options(count: Int = 6) -> MixOptions {
        var o = MixOptions()
        o.count = count; o.seconds = 2; o.snrDB = .list([0, 10]); o.seed = 11; o.format = .float32
        return o
    }

    func mix(_ options: MixOptions, rir: [String] = [], into folder: URL) throws -> MixResult {
        let inputs = MixInputs(speech: [Fixtures.url("speech").path], noise: [Fixtures.url("noise").path], rir: rir)
        return try MixRun.prepare(options: options, inputs: inputs, output: folder, jobs: 2).run()
    }

    func read(_ folder: URL, _ relative: String) throws -> [Double] {
        try AudioFile.read(at: folder.appendingPathComponent(relative)).samples.map(Double.init)
    }

    func energy(_ x: [Double]) -> Double { x.reduce(0) { $0 + $1 * $1 } }

    @Test func aDelayedImpulseResponseLeavesSpeechUnchangedForEveryTarget() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        var impulse = [Float](repeating: 0, count: 3200)
        impulse[137] = 1
        let rir = folder.url.appendingPathComponent("delta.wav")
        try AudioWriter.write(AudioBuffer(samples: impulse, sampleRate: 16000), to: rir, format: .wavFloat32)
        for target in [MixOptions.ReverbTarget.dry, .early, .reverberant] {
            var o = options(count: 3)
            o.target = target
            let out = folder.url.appendingPathComponent(target.rawValue)
            let result = try mix(o, rir: [rir.path], into: out)
            for record in result.records {
                #expect(record.rir == rir.path && record.target == target.rawValue)
                let clean = try read(out, record.clean), noise = try read(out, record.noise), noisy = try read(out, record.noisy)
                // The direct path is aligned away, so the reverberant speech is the dry speech.
                let residual = zip(noisy, zip(clean, noise)).map { $0 - Double(Float($1.0 + $1.1)) }
                #expect(residual.map(abs).max()! <= 1e-6, "\(target) \(record.clipID)")
            }
        }
    }

    @Test func earlyTargetKeepsTheDirectPathAndDropsTheLateReverberation() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        var reverberant = options(count: 4)
        reverberant.target = .reverberant
        var early = reverberant
        early.target = .early
        let room = Fixtures.url("rir/large_room.wav").path
        let a = try mix(reverberant, rir: [room], into: folder.url.appendingPathComponent("rev"))
        let b = try mix(early, rir: [room], into: folder.url.appendingPathComponent("early"))
        for (r, e) in zip(a.records, b.records) {
            #expect(r.clipID == e.clipID)
            let rev = folder.url.appendingPathComponent("rev"), ear = folder.url.appendingPathComponent("early")
            let revClean = try read(rev, r.clean), revNoise = try read(rev, r.noise), revNoisy = try read(rev, r.noisy)
            // Reverberant target: the clean stem is exactly the speech in the mixture.
            let residual = zip(revNoisy, zip(revClean, revNoise)).map { abs($0 - Double(Float($1.0 + $1.1))) }.max()!
            #expect(residual <= 1e-6)
            // Early target: the mixture's speech (noisy - noise) holds late reverberation the clean stem lacks,
            // and that tail is a minority of the energy; the early stem still correlates strongly with it.
            let earClean = try read(ear, e.clean), earNoise = try read(ear, e.noise), earNoisy = try read(ear, e.noisy)
            let speechInMix = zip(earNoisy, earNoise).map { $0 - $1 }
            let late = zip(speechInMix, earClean).map { $0 - $1 }
            let lateFraction = energy(late) / energy(speechInMix)
            #expect(lateFraction > 1e-3 && lateFraction < 0.7, "\(e.clipID): late energy fraction \(lateFraction)")
            let dot = zip(speechInMix, earClean).reduce(0) { $0 + $1.0 * $1.1 }
            #expect(dot / (energy(speechInMix).squareRoot() * energy(earClean).squareRoot()) > 0.5)
        }
    }

    @Test func clippingPolicies() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        var loud = options(count: 6)
        loud.levelDBFS = .list([-3])   // speech and noise peaks far above full scale at this RMS
        loud.snrDB = .list([0])
        loud.seconds = 1
        let rescaled = try mix(loud, into: folder.url.appendingPathComponent("rescale"))
        for record in rescaled.records {
            let noisy = try read(folder.url.appendingPathComponent("rescale"), record.noisy)
            #expect(noisy.map(abs).max()! <= MixRenderer.clippingPeak + 1e-6)
            #expect(record.clippingScale < 1 && record.clippedSamples == 0)
        }
        #expect(rescaled.records.allSatisfy { abs($0.snrDBRealised - 0) < 0.01 }, "rescaling all stems keeps the SNR")
        var allow = loud
        allow.clipping = .allow
        let allowed = try mix(allow, into: folder.url.appendingPathComponent("allow"))
        #expect(allowed.records.allSatisfy { $0.clippingScale == 1 })
        #expect(allowed.records.contains { $0.clippedSamples > 0 }, "clipping is counted when allowed")
        var reject = loud
        reject.clipping = .reject
        reject.levelDBFS = .uniform(low: -40, high: -3)
        let rejected = try mix(reject, into: folder.url.appendingPathComponent("reject"))
        for record in rejected.records {
            let noisy = try read(folder.url.appendingPathComponent("reject"), record.noisy)
            #expect(noisy.map(abs).max()! <= MixRenderer.clippingPeak + 1e-6)
        }
    }

    @Test func lowpassIsRecordedAndRemovesHighFrequencies() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        var o = options(count: 4)
        o.lowpassHz = .list([1000])
        o.lowpassProbability = 1
        let result = try mix(o, into: folder.url)
        for record in result.records {
            #expect(record.lowpassHz == 1000)
            let noisy = try read(folder.url, record.noisy)
            let n = 16384
            let spectrum = RealFFT.double(size: n).forward(Array(noisy.prefix(n)) + [Double](repeating: 0, count: max(0, n - noisy.count)))
            var low = 0.0, high = 0.0
            for k in 0...(n / 2) {
                let power = spectrum[2 * k] * spectrum[2 * k] + spectrum[2 * k + 1] * spectrum[2 * k + 1]
                let hz = Double(k) * 16000 / Double(n)
                if hz < 1000 { low += power } else if hz > 6000 { high += power }
            }
            // Second-order low-pass at 1 kHz: about -30 dB at 6 kHz and falling 12 dB per octave.
            #expect(high / low < 1e-3, "\(record.clipID): power above 6 kHz / below 1 kHz = \(high / low)")
        }
    }

    @Test func fullUtteranceAndConcatenatedLengths() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        var full = options(count: 5)
        full.lengthMode = .fullUtterance
        let whole = try mix(full, into: folder.url.appendingPathComponent("full"))
        for record in whole.records {
            #expect(record.speechSources.count == 1)
            let source = record.speechSources[0]
            #expect(source.offset == 0 && source.length == record.numSamples)
            let info = try AudioFile.info(at: URL(fileURLWithPath: source.path))
            let expected = Int((Double(info.frames) * 16000 / Double(info.sampleRate)).rounded())
            #expect(record.numSamples == expected, "\(record.clipID): \(record.numSamples) vs \(expected)")
        }
        var joined = options(count: 5)
        joined.lengthMode = .concatenate
        joined.seconds = 6
        let inputs = MixInputs(speech: [Fixtures.url("speech").path], noise: [Fixtures.url("noise").path],
                               speakerPattern: "(arctic_a|cmu_arctic_us_[a-z]+|librispeech_[0-9]+)")
        let concatenated = try MixRun.prepare(options: joined, inputs: inputs, output: folder.url.appendingPathComponent("cat"),
                                              jobs: 2).run()
        for record in concatenated.records {
            #expect(record.numSamples == 6 * 16000)
            #expect(Set(record.speechSources.map(\.speaker)).count == 1, "\(record.clipID): one speaker per clip")
            #expect(record.speechSources.count >= 2, "\(record.clipID): 6 s needs several utterances")
            // Pieces do not overlap and stay inside the clip.
            let pieces = record.speechSources.sorted { $0.position < $1.position }
            for (a, b) in zip(pieces, pieces.dropFirst()) { #expect(a.position + a.length <= b.position) }
            #expect(pieces.last!.position + pieces.last!.length <= record.numSamples)
        }
    }
}
