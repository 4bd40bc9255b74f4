import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// What metrics cannot score is an error naming the metric and the reason, never a number.
@Suite struct MetricEdgeCaseTests {
    static let rate = 16000
    /// Two seconds of a speech-like signal: harmonics with a slow envelope and a little noise.
    static let speech: [Float] = {
        var g = SplitMix64(seed: 9)
        return (0..<(2 * rate)).map { i in
            let t = Double(i) / Double(rate)
            let envelope = 0.5 + 0.5 * sin(2 * .pi * 3 * t)
            return Float(envelope * (sin(2 * .pi * 180 * t) + 0.5 * sin(2 * .pi * 360 * t)) + 0.01 * (g.nextUnitInterval() - 0.5))
        }
    }()

    func score(_ metric: Metric, reference: [Float], processed: [Float]) throws -> Double {
        try metric.compute(reference: reference, processed: processed, sampleRate: Self.rate)
    }

    /// Every metric that compares against a reference (DNSMOS does not; the PESQ-based ones refuse
    /// before the Python worker is asked).
    @Test(arguments: MetricRegistry.intrusive(Metric.allCases)) func aSilentReferenceIsAnErrorForEveryMetric(metric: Metric) {
        let silent = [Float](repeating: 0, count: Self.speech.count)
        #expect(throws: MetricError.silentReference(metric: MetricRegistry.descriptor(producing: metric.rawValue)!.name)) {
            try score(metric, reference: silent, processed: Self.speech)
        }
    }

    @Test func aSilentProcessedSignalMakesScaleInvariantRatiosUndefined() throws {
        let silent = [Float](repeating: 0, count: Self.speech.count)
        #expect(throws: MetricError.undefined(metric: "sisdr", reason: "the processed signal is silent (all zeros)")) {
            try score(.sisdr, reference: Self.speech, processed: silent)
        }
        #expect(throws: MetricError.undefined(metric: "sisnr", reason: "the processed signal is silent (all zeros)")) {
            try score(.sisnr, reference: Self.speech, processed: silent)
        }
        let constant = [Float](repeating: 0.25, count: Self.speech.count)
        #expect(throws: MetricError.undefined(metric: "sisnr", reason: "the processed signal is constant")) {
            try score(.sisnr, reference: Self.speech, processed: constant)
        }
        // Metrics that have a value for a silent output keep it (finite or -inf, never NaN).
        for metric in [Metric.snr, .segsnr, .stoi] {
            let value = try score(metric, reference: Self.speech, processed: silent)
            #expect(!value.isNaN, "\(metric)")
        }
    }

    @Test func aPerfectEstimateStaysPlusInfinity() throws {
        #expect(try score(.snr, reference: Self.speech, processed: Self.speech) == .infinity)
        #expect(try score(.sisdr, reference: Self.speech, processed: Self.speech) == .infinity)
    }
}
