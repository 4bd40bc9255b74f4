import Foundation
import Synchronization
import Testing
@testable import SEKit
@testable import SEKitSignal

/// Properties of the blind enhancers that need no fixtures: lengths, determinism, edge cases,
/// parameter checks and records.
@Suite struct EnhancementPropertyTests {
    /// Seeded white noise, uniform in ±amplitude.
    static func whiteNoise(count: Int, amplitude: Float = 0.1, seed: UInt64 = 1) -> [Float] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return amplitude * (2 * Float(state >> 40) / Float(1 << 24) - 1)
        }
    }

    /// Noise with a harmonic, amplitude-modulated tone from 0.4 s on (a stand-in for speech).
    static func toneInNoise(count: Int, sampleRate: Int = 16000) -> [Float] {
        let noise = whiteNoise(count: count, amplitude: 0.05)
        return (0..<count).map { i in
            let t = Double(i) / Double(sampleRate)
            guard t >= 0.4 else { return noise[i] }
            let envelope = 0.5 + 0.5 * sin(2 * .pi * 3 * t)
            return noise[i] + Float(0.3 * envelope * (sin(2 * .pi * 180 * t) + 0.5 * sin(2 * .pi * 360 * t)))
        }
    }

    static let configurations: [(BlindMethod, NoiseEstimateMethod)] =
        BlindMethod.allCases.flatMap { m in NoiseEstimateMethod.allCases.map { (m, $0) } }

    static func enhancer(_ method: BlindMethod, _ estimate: NoiseEstimateMethod) throws -> BlindEnhancer {
        var p = BlindEnhancerParameters()
        p.noiseEstimate = estimate
        return try BlindEnhancer(method: method, parameters: p)
    }

    @Test(arguments: configurations)
    func outputHasTheInputsLength(method: BlindMethod, estimate: NoiseEstimateMethod) throws {
        let e = try Self.enhancer(method, estimate)
        for count in [4000, 4001, 4159, 12345, 64007] {
            let y = try e.enhance(Self.toneInNoise(count: count), sampleRate: 16000)
            #expect(y.count == count)
            #expect(y.allSatisfy { $0.isFinite })
        }
        // One frame exactly is enough for MCRA (no lead-in).
        if estimate == .mcra { #expect(try e.enhance(Self.whiteNoise(count: 320), sampleRate: 16000).count == 320) }
        for rate in [8000, 22050, 44100, 48000] {
            #expect(try e.enhance(Self.toneInNoise(count: rate, sampleRate: rate), sampleRate: rate).count == rate)
        }
    }

    @Test(arguments: configurations)
    func deterministicToTheBit(method: BlindMethod, estimate: NoiseEstimateMethod) throws {
        let e = try Self.enhancer(method, estimate)
        let x = Self.toneInNoise(count: 24000)
        let first = try e.enhance(x, sampleRate: 16000)
        let again = try e.enhance(x, sampleRate: 16000)
        #expect(first.map(\.bitPattern) == again.map(\.bitPattern))
        // Concurrent calls share FFT plans only: the same bits on every thread.
        let results = Mutex<[[UInt32]]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let y = (try? e.enhance(x, sampleRate: 16000)) ?? []
            results.withLock { $0.append(y.map(\.bitPattern)) }
        }
        #expect(results.withLock { $0 }.allSatisfy { $0 == first.map(\.bitPattern) })
    }

    @Test(arguments: configurations)
    func attenuatesStationaryNoise(method: BlindMethod, estimate: NoiseEstimateMethod) throws {
        let x = Self.whiteNoise(count: 48000)
        let y = try Self.enhancer(method, estimate).enhance(x, sampleRate: 16000)
        func energy(_ s: [Float]) -> Double { s[16000..<48000].reduce(0) { $0 + Double($1) * Double($1) } }
        let attenuationDB = 10 * log10(energy(x) / energy(y))
        print("\(method.rawValue) \(estimate.rawValue): white noise attenuated by \(attenuationDB) dB")
        #expect(attenuationDB > 8)
    }

    @Test(arguments: configurations)
    func zerosGiveZeros(method: BlindMethod, estimate: NoiseEstimateMethod) throws {
        let y = try Self.enhancer(method, estimate).enhance([Float](repeating: 0, count: 8000), sampleRate: 16000)
        #expect(y == [Float](repeating: 0, count: 8000))
        // A lead-in of digital silence, then sound: finite output.
        let x = [Float](repeating: 0, count: 8000) + Self.toneInNoise(count: 8000)
        #expect(try Self.enhancer(method, estimate).enhance(x, sampleRate: 16000).allSatisfy { $0.isFinite })
    }

    @Test func tooShortSignalsThrow() throws {
        let logmmse = try BlindEnhancer(method: .logmmse)
        #expect(throws: EnhancementError.signalTooShort(samples: 319, required: 320,
                reason: "one 320-sample frame (frame-seconds = 0.02 at 16000 Hz)")) {
            try logmmse.enhance([Float](repeating: 0.1, count: 319), sampleRate: 16000)
        }
        // The leading estimate needs its 12 frames of 20 ms (0.24 s of the 0.25 s lead-in).
        #expect(throws: EnhancementError.signalTooShort(samples: 3000, required: 3840,
                reason: "the noise-only lead-in of 12 frames (leading-seconds = 0.25 at 16000 Hz)")) {
            try logmmse.enhance(Self.whiteNoise(count: 3000), sampleRate: 16000)
        }
        #expect(throws: EnhancementError.self) { try logmmse.enhance([], sampleRate: 16000) }
    }

    @Test func nonFiniteInputThrows() throws {
        let e = try BlindEnhancer(method: .wiener)
        for bad in [Float.nan, .infinity, -.infinity] {
            var x = Self.whiteNoise(count: 8000)
            x[4321] = bad
            #expect(throws: EnhancementError.nonFiniteSample(index: 4321)) { try e.enhance(x, sampleRate: 16000) }
        }
    }

    @Test func unsupportedSampleRatesThrow() throws {
        let e = try BlindEnhancer(method: .specsub)
        for rate in [0, -16000, 100] {
            #expect {
                try e.enhance(Self.whiteNoise(count: 8000), sampleRate: rate)
            } throws: { error in
                guard case EnhancementError.unsupportedSampleRate(rate, _) = error else { return false }
                return true
            }
        }
        // A lead-in equal to the frame holds no frame once the frame is rounded up to even length.
        var p = BlindEnhancerParameters()
        p.leadingSeconds = 0.02
        #expect {
            try BlindEnhancer(method: .logmmse, parameters: p).enhance(Self.whiteNoise(count: 8050), sampleRate: 8050)
        } throws: { error in (error as? EnhancementError)?.invalidParameter?.name == "leading-seconds" }
    }

    @Test func invalidParametersNameTheirFlag() {
        let cases: [(String, (inout BlindEnhancerParameters) -> Void)] = [
            ("frame-seconds", { $0.frameSeconds = 0 }),
            ("frame-seconds", { $0.frameSeconds = .nan }),
            ("overlap", { $0.overlap = 1 }),
            ("fft-size-factor", { $0.fftSizeFactor = 0 }),
            ("leading-seconds", { $0.leadingSeconds = 0.01 }),
            ("vad-threshold", { $0.vadThreshold = .infinity }),
            ("noise-smoothing", { $0.noiseSmoothing = 1.5 }),
            ("specsub-noise-smoothing", { $0.specsubNoiseSmoothing = -0.1 }),
            ("mcra-alpha-s", { $0.mcraAlphaS = 1 }),
            ("mcra-delta", { $0.mcraDelta = 0.5 }),
            ("mcra-window-seconds", { $0.mcraWindowSeconds = 0 }),
            ("alpha-dd", { $0.alphaDD = 2 }),
            ("ksi-min-db", { $0.ksiMinDB = 5 }),
            ("gamma-max", { $0.gammaMax = .nan }),
            ("over-subtraction", { $0.overSubtraction = -1 }),
            ("spectral-floor", { $0.spectralFloor = 2 }),
        ]
        for (name, change) in cases {
            var p = BlindEnhancerParameters()
            change(&p)
            #expect {
                try BlindEnhancer(method: .logmmse, parameters: p)
            } throws: { error in
                let parameterError = error as? any ParameterError
                return parameterError?.invalidParameter?.name == name && (error as? EnhancementError)?.code == "invalid-parameter"
            }
        }
    }

    @Test func recordedParametersAreTheFlags() throws {
        var p = BlindEnhancerParameters()
        #expect(p.recorded.count == 20)
        #expect(p.recorded["frame-seconds"] == "0.02" && p.recorded["ksi-min-db"] == "-25.0" && p.recorded["window"] == "matlab-hanning")
        #expect(p.recorded["over-subtraction"] == "berouti")
        let specsub = p.recorded(for: .specsub)
        #expect(specsub["spectral-floor"] == "0.002" && specsub["specsub-vad-threshold-db"] == "3.0")
        #expect(specsub["alpha-dd"] == nil && specsub["vad-threshold"] == nil && specsub["mcra-delta"] == nil)
        p.noiseEstimate = .mcra
        p.overSubtraction = 3
        let logmmse = p.recorded(for: .logmmse)
        #expect(logmmse["noise-estimate"] == "mcra" && logmmse["mcra-delta"] == "5.0" && logmmse["alpha-dd"] == "0.98")
        #expect(logmmse["leading-seconds"] == nil && logmmse["vad-threshold"] == nil && logmmse["over-subtraction"] == nil)
        #expect(p.recorded(for: .specsub)["over-subtraction"] == "3.0")
        let decoded = try JSONDecoder().decode(BlindEnhancerParameters.self, from: JSONEncoder().encode(p))
        #expect(decoded == p)
        #expect(BlindMethod(rawValue: "mmse-stsa") == .mmseSTSA)
    }
}
