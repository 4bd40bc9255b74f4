import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// Metrics read signals as Float (as the scorer holds them) or Double and promote each sample to
/// Double where they compute: a Float signal scores exactly as its Double widening, bit for bit.
@Suite struct MetricSampleTests {
    /// Two seconds at 16 kHz of a speech-like signal with pauses, and a noisy version of it.
    static let pair: (reference: [Float], processed: [Float]) = {
        let clean = OctaveResamplerTests.modulated(32_000, seed: 1.9, rate: 0.0011)
        let noise = OctaveResamplerTests.signal(32_000, seed: 4.1)
        let gated = clean.enumerated().map { i, v in (i / 4000) % 3 == 2 ? v * 1e-4 : v }
        return (gated.map { Float($0 * 0.3) }, zip(gated, noise).map { Float(($0 + 0.4 * $1) * 0.3) })
    }()

    @Test func floatSignalsScoreAsTheirDoubleWidening() throws {
        let (x, y) = Self.pair
        let xd = x.map(Double.init), yd = y.map(Double.init)
        #expect(try SignalRatios.snr(reference: x, processed: y) == SignalRatios.snr(reference: xd, processed: yd))
        #expect(try SignalRatios.siSDR(reference: x, processed: y) == SignalRatios.siSDR(reference: xd, processed: yd))
        #expect(try SignalRatios.siSNR(reference: x, processed: y) == SignalRatios.siSNR(reference: xd, processed: yd))
        #expect(try SegmentalSNR.compute(reference: x, processed: y, sampleRate: 16_000)
                == SegmentalSNR.compute(reference: xd, processed: yd, sampleRate: 16_000))
        #expect(try FrequencyWeightedSegmentalSNR.compute(reference: x, processed: y, sampleRate: 16_000)
                == FrequencyWeightedSegmentalSNR.compute(reference: xd, processed: yd, sampleRate: 16_000))
        #expect(try LPCMeasures.llr(reference: x, processed: y, sampleRate: 16_000)
                == LPCMeasures.llr(reference: xd, processed: yd, sampleRate: 16_000))
        #expect(try LPCMeasures.cepstralDistance(reference: x, processed: y, sampleRate: 16_000)
                == LPCMeasures.cepstralDistance(reference: xd, processed: yd, sampleRate: 16_000))
        #expect(try WeightedSpectralSlope.compute(reference: x, processed: y, sampleRate: 16_000)
                == WeightedSpectralSlope.compute(reference: xd, processed: yd, sampleRate: 16_000))
        for extended in [false, true] {
            #expect(try STOI.compute(reference: x, processed: y, sampleRate: 16_000, extended: extended)
                    == STOI.compute(reference: xd, processed: yd, sampleRate: 16_000, extended: extended))
        }
    }

    /// SI-SNR centres each sample where it is used instead of forming the centred signals: the
    /// same value as SI-SDR of the centred signals.
    @Test func siSNRIsSISDROfTheCentredSignals() throws {
        let (x, y) = Self.pair
        let xd = x.map(Double.init), yd = y.map(Double.init)
        let mx = xd.reduce(0, +) / Double(xd.count), my = yd.reduce(0, +) / Double(yd.count)
        #expect(try SignalRatios.siSNR(reference: x, processed: y) == SignalRatios.siSDR(reference: xd.map { $0 - mx },
                                                                                         processed: yd.map { $0 - my }))
    }
}
