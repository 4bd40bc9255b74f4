import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// Metrics against the published reference values of the reference tier's Loizou pair (its README).
@Suite(.referenceTier)
struct MetricReferenceTests {
    func load(_ name: String) throws -> [Double] {
        try AudioFile.read(at: Fixtures.reference(name)).samples.map(Double.init)
    }

    var clean: [Double] { get throws { try load("1_speech_16000_Hz.wav") } }
    var noisy: [Double] { get throws { try load("1_noisySpeech_16000_Hz.wav") } }
    var processed: [Double] { get throws { try load("1_processed_16000_Hz.wav") } }

    @Test func segmentalSNRMatchesLoizou() throws {
        let c = try clean
        #expect(abs(try SegmentalSNR.compute(reference: c, processed: try noisy, sampleRate: 16000) - (-0.2168617488)) < 1e-9)
        #expect(abs(try SegmentalSNR.compute(reference: c, processed: try processed, sampleRate: 16000) - (-1.2033705198)) < 1e-9)
    }

    @Test func snrAndSISDRMatchPublishedValues() throws {
        let c = try clean, n = try noisy, p = try processed
        #expect(abs(try SignalRatios.snr(reference: c, processed: n) - 5.003358) < 1e-6)
        #expect(abs(try SignalRatios.siSDR(reference: c, processed: n) - 5.017787) < 1e-6)
        #expect(abs(try SignalRatios.snr(reference: c, processed: p) - 1.772874) < 1e-6)
        #expect(abs(try SignalRatios.siSDR(reference: c, processed: p) - (-2.911873)) < 1e-6)
    }

    @Test func stoiMatchesPystoi041() throws {
        let c = try clean
        #expect(abs(try STOI.compute(reference: c, processed: try noisy, sampleRate: 16000) - 0.8389211808) < 1e-9)
        #expect(abs(try STOI.compute(reference: c, processed: try processed, sampleRate: 16000) - 0.6611522051) < 1e-9)
        #expect(abs(try STOI.compute(reference: c, processed: try noisy, sampleRate: 16000, extended: true) - 0.638117) < 1e-6)
        #expect(abs(try STOI.compute(reference: c, processed: try processed, sampleRate: 16000, extended: true) - 0.469397) < 1e-6)
    }

    @Test func stoiOnBabbleFixture() throws {
        let c = try load("speech.wav"), n = try load("speech_bab_0dB.wav")
        #expect(abs(try STOI.compute(reference: c, processed: n, sampleRate: 16000) - 0.6739177895331) < 1e-9)
        #expect(abs(try STOI.compute(reference: c, processed: n, sampleRate: 16000, extended: true) - 0.3904499910) < 1e-9)
    }
}
