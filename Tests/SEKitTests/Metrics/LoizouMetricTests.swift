import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// fwSNRseg, LLR, WSS and CD against the values of Loizou's MATLAB comp_fwseg.m, comp_llr.m,
/// comp_wss.m and comp_cep.m in the reference tier's results.mat (its README).
/// The expected values are the full-precision doubles of `results.mat['results']` rows 4 (noisy)
/// and 5 (processed), columns 0, 2, 3, 4 (the README lists them rounded to 10 decimals).
/// Achieved errors are about 1e-13 or less; the assertions use the 1e-9 target tolerance.
@Suite(.referenceTier)
struct LoizouMetricTests {
    func load(_ name: String) throws -> [Double] {
        try AudioFile.read(at: Fixtures.reference(name)).samples.map(Double.init)
    }

    typealias Measure = ([Double], [Double], Int) throws -> Double

    func check(_ name: String, _ measure: Measure, noisy expectedNoisy: Double, processed expectedProcessed: Double) throws {
        let c = try load("1_speech_16000_Hz.wav")
        let n = try load("1_noisySpeech_16000_Hz.wav")
        let p = try load("1_processed_16000_Hz.wav")
        let valueNoisy = try measure(c, n, 16000)
        let valueProcessed = try measure(c, p, 16000)
        print("\(name): noisy \(valueNoisy) (error \(valueNoisy - expectedNoisy)), "
              + "processed \(valueProcessed) (error \(valueProcessed - expectedProcessed))")
        #expect(abs(valueNoisy - expectedNoisy) < 1e-9)
        #expect(abs(valueProcessed - expectedProcessed) < 1e-9)
    }

    @Test func fwSegSNRMatchesLoizou() throws {
        try check("fwsegsnr", { try FrequencyWeightedSegmentalSNR.compute(reference: $0, processed: $1, sampleRate: $2) },
                  noisy: 5.677122381286343, processed: 3.7018915637639407)
    }

    @Test func llrMatchesLoizou() throws {
        try check("llr", { try LPCMeasures.llr(reference: $0, processed: $1, sampleRate: $2) },
                  noisy: 1.2530765533864852, processed: 1.6044180854914722)
    }

    @Test func wssMatchesLoizou() throws {
        try check("wss", { try WeightedSpectralSlope.compute(reference: $0, processed: $1, sampleRate: $2) },
                  noisy: 44.69861369131995, processed: 66.79548150633121)
    }

    @Test func cepstralDistanceMatchesLoizou() throws {
        try check("cd", { try LPCMeasures.cepstralDistance(reference: $0, processed: $1, sampleRate: $2) },
                  noisy: 7.187803223673394, processed: 8.308018500619683)
    }

    @Test func metricRegistryWiring() throws {
        // The registry scores signals as read, in Float.
        let c = try load("1_speech_16000_Hz.wav").map(Float.init), n = try load("1_noisySpeech_16000_Hz.wav").map(Float.init)
        #expect(abs(try Metric.fwsegsnr.compute(reference: c, processed: n, sampleRate: 16000) - 5.677122381286343) < 1e-9)
        #expect(abs(try Metric.cd.compute(reference: c, processed: n, sampleRate: 16000) - 7.187803223673394) < 1e-9)
        #expect(Metric.fwsegsnr.higherIsBetter)
        #expect(!Metric.llr.higherIsBetter && !Metric.wss.higherIsBetter && !Metric.cd.higherIsBetter)
    }
}

/// Properties that need no fixtures.
struct LoizouMetricPropertyTests {
    /// A deterministic speech-like test signal: a few harmonics with slow amplitude modulation plus noise.
    func signal(count: Int = 16000, seed: UInt64 = 7) -> [Double] {
        var state = seed
        func noise() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53) - 0.5
        }
        return (0..<count).map { i in
            let t = Double(i) / 16000
            let envelope = 0.5 + 0.5 * sin(2 * .pi * 3 * t)
            let voiced = sin(2 * .pi * 150 * t) + 0.5 * sin(2 * .pi * 300 * t) + 0.25 * sin(2 * .pi * 1200 * t)
            return 0.3 * envelope * voiced + 0.01 * noise()
        }
    }

    @Test(arguments: [8000, 16000])
    func identicalSignals(sampleRate: Int) throws {
        let x = signal()
        #expect(try FrequencyWeightedSegmentalSNR.compute(reference: x, processed: x, sampleRate: sampleRate) == 35)
        #expect(abs(try LPCMeasures.llr(reference: x, processed: x, sampleRate: sampleRate)) < 1e-12)
        #expect(try WeightedSpectralSlope.compute(reference: x, processed: x, sampleRate: sampleRate) == 0)
        #expect(try LPCMeasures.cepstralDistance(reference: x, processed: x, sampleRate: sampleRate) == 0)
    }

    @Test func distortionIncreasesTheMeasures() throws {
        let x = signal()
        var state: UInt64 = 99
        let y = x.map { v -> Double in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return v + 0.2 * (Double(state >> 11) / Double(1 << 53) - 0.5)
        }
        #expect(try FrequencyWeightedSegmentalSNR.compute(reference: x, processed: y, sampleRate: 16000) < 35)
        #expect(try LPCMeasures.llr(reference: x, processed: y, sampleRate: 16000) > 0)
        #expect(try WeightedSpectralSlope.compute(reference: x, processed: y, sampleRate: 16000) > 0)
        #expect(try LPCMeasures.cepstralDistance(reference: x, processed: y, sampleRate: 16000) > 0)
    }

    @Test func errors() {
        let x = signal(count: 1000)
        #expect(throws: MetricError.lengthMismatch(reference: 1000, processed: 999)) {
            try LPCMeasures.llr(reference: x, processed: Array(x.dropLast()), sampleRate: 16000)
        }
        let short = Array(x.prefix(400))
        #expect(throws: MetricError.self) {
            try WeightedSpectralSlope.compute(reference: short, processed: short, sampleRate: 16000)
        }
        var bad = x
        bad[5] = .nan
        #expect(throws: MetricError.nonFinite(signal: "processed", index: 5)) {
            try FrequencyWeightedSegmentalSNR.compute(reference: x, processed: bad, sampleRate: 16000)
        }
        #expect(throws: MetricError.self) {
            try LPCMeasures.cepstralDistance(reference: x, processed: x, sampleRate: 0)
        }
    }
}
