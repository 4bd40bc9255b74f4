import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

@Suite struct MetricRegistryTests {
    @Test func outputNamesAreUniqueAndKeepTheirCommandLineOrder() {
        let names = Metric.allCases.map(\.rawValue)
        #expect(names == ["snr", "segsnr", "sisdr", "sisnr", "stoi", "estoi", "fwsegsnr", "llr", "wss", "cd", "pesq_wb", "pesq_nb",
                          "csig", "cbak", "covl", "dnsmos_sig", "dnsmos_bak", "dnsmos_ovrl", "dnsmos_p808",
                          "wada_snr", "lsd", "plcmos", "dnsmos_personalized_sig", "dnsmos_personalized_bak", "dnsmos_personalized_ovrl",
                          "visqol_speech", "visqol_audio", "distillmos", "sdr", "sir", "sar", "srmr",
                          "speaker_similarity", "wer_vs_clean", "cer_vs_clean", "wer", "cer"])
        // Non-intrusive: DNSMOS (4), WADA-SNR, PLCMOS, personalised DNSMOS (3), Distill-MOS, SRMR, WER and CER
        // (against a transcript file).
        #expect(MetricRegistry.intrusive(Metric.allCases).count == names.count - 13)
        #expect(MetricRegistry.outputs(named: "dnsmos_personalized")
                == [.dnsmosPersonalizedSIG, .dnsmosPersonalizedBAK, .dnsmosPersonalizedOVRL])
        #expect(MetricRegistry.outputs(named: "composite") == [.csig, .cbak, .covl])
        #expect(MetricRegistry.outputs(named: "dnsmos") == [.dnsmosSIG, .dnsmosBAK, .dnsmosOVRL, .dnsmosP808])
        #expect(MetricRegistry.outputs(named: "pesq") == nil)
        #expect(MetricRegistry.pythonPackages(for: [.stoi, .csig, .pesqWB, .dnsmosBAK]).packages == ["pesq", "speechmos"])
        #expect(Set(names).count == names.count)
        for metric in Metric.allCases { #expect(MetricRegistry.descriptor(producing: metric.rawValue) != nil) }
    }

    @Test func unknownNamesAreNotMetricsAndDirectionsAndUnitsAreDeclared() throws {
        #expect(Metric(rawValue: "pesq") == nil && Metric(rawValue: "") == nil)
        #expect(Metric(rawValue: "stoi") == .stoi)
        #expect(!Metric.llr.higherIsBetter && !Metric.wss.higherIsBetter && !Metric.cd.higherIsBetter && Metric.stoi.higherIsBetter)
        #expect(Metric.snr.output.unit == "dB" && Metric.stoi.output.unit == "")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Metric].self, from: Data(#"["nope"]"#.utf8)) }
        #expect(try JSONDecoder().decode([Metric].self, from: Data(#"["sisdr"]"#.utf8)) == [.sisdr])
    }

    @Test func eachComputationRunsOnceForSeveralOfItsOutputs() {
        let needed = MetricRegistry.descriptors(for: [.stoi, .snr, .stoi, .estoi])
        #expect(needed.map(\.name) == ["stoi", "snr", "estoi"])
    }

    @Test func aRateTheMetricDoesNotAcceptIsAnError() throws {
        var descriptor = try #require(MetricRegistry.descriptor(named: "snr"))
        descriptor.sampleRates = .only([8000, 16000])
        let x = (0..<1600).map { Float(sin(Double($0) * 0.1)) }
        let at = { (rate: Int) in MetricComparison(reference: ReferenceSignal(samples: x, sampleRate: rate),
                                                   processed: x.map { $0 * 0.5 }) }
        #expect(try descriptor.compute(at(16000), workspace: MetricWorkspace())[.snr] != nil)
        #expect(throws: MetricError.self) { try descriptor.compute(at(44100), workspace: MetricWorkspace()) }
    }

    /// The scorer's shared analyses (one reference analysed once for the enhanced output and the
    /// noisy input; STOI and ESTOI sharing band envelopes) give exactly the pure functions' values.
    @Test func sharedAnalysesGiveThePureFunctionsValues() throws {
        let n = 16000 * 2
        let clean: [Float] = (0..<n).map { (i: Int) -> Float in Float(sin(Double(i) * 0.031) * (0.5 + 0.5 * sin(Double(i) * 0.0007))) }
        var g = SplitMix64(seed: 3)
        let a: [Float] = clean.map { (v: Float) -> Float in v + Float(0.3 * (g.nextUnitInterval() - 0.5)) }
        let b: [Float] = clean.map { (v: Float) -> Float in v * 0.8 + Float(0.1 * (g.nextUnitInterval() - 0.5)) }
        let workspace = MetricWorkspace()
        let reference = ReferenceSignal(samples: clean, sampleRate: 16000)
        for processed in [a, b] {
            let shared = ScoreRunner.values(of: [.stoi, .estoi, .segsnr], MetricComparison(reference: reference, processed: processed),
                                            workspace: workspace).values
            #expect(shared[.stoi] == (try STOI.compute(reference: clean, processed: processed, sampleRate: 16000)))
            #expect(shared[.estoi] == (try STOI.compute(reference: clean, processed: processed, sampleRate: 16000, extended: true)))
            #expect(shared[.segsnr] == (try Metric.segsnr.compute(reference: clean, processed: processed, sampleRate: 16000)))
        }
    }
}
