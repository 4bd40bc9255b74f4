import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// CSIG, CBAK, COVL (Hu & Loizou 2008) against results.mat columns 11–13 of Loizou's example (the
/// reference tier).
@Suite(.enabled(if: PythonReference.available, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct CompositeMeasuresTests {
    static let published: [(file: String, csig: Double, cbak: Double, covl: Double)] = [
        ("1_noisySpeech_16000_Hz.wav", 2.0379921577, 1.8630832845, 1.5433158495),
        ("1_processed_16000_Hz.wav", 1.0, 1.5970462093, 1.0),
    ]

    @Test(.referenceTier) func reproducesResultsMat() throws {
        let clean = try PythonMetricReference.reference("1_speech_16000_Hz.wav")
        let descriptor = try #require(MetricRegistry.descriptor(producing: "cbak"))
        #expect(descriptor.outputs.map(\.metric) == [.csig, .cbak, .covl])
        for row in Self.published {
            let processed = try PythonMetricReference.reference(row.file)
            let comparison = MetricComparison(reference: ReferenceSignal(samples: clean, sampleRate: 16000), processed: processed)
            let values = try descriptor.compute(comparison, workspace: MetricWorkspace())
            print("composite \(row.file): csig \(values[.csig]!), cbak \(values[.cbak]!), covl \(values[.covl]!)")
            #expect(abs(values[.csig]! - row.csig) < 1e-6, "csig \(values[.csig]!) vs \(row.csig)")
            #expect(abs(values[.cbak]! - row.cbak) < 1e-6, "cbak \(values[.cbak]!) vs \(row.cbak)")
            #expect(abs(values[.covl]! - row.covl) < 1e-6, "covl \(values[.covl]!) vs \(row.covl)")
        }
    }

    /// Columns 11 and 13 imply an LLR of about 1.3155 for the noisy pair while the stand-alone
    /// LLR (column 2) is 1.2531: composite.m does not limit frame values to 2.
    @Test(.referenceTier) func theCompositesLLRHasNoFrameLimit() throws {
        let clean = try PythonMetricReference.reference("1_speech_16000_Hz.wav")
        let noisy = try PythonMetricReference.reference("1_noisySpeech_16000_Hz.wav")
        let limited = try LPCMeasures.llr(reference: clean, processed: noisy, sampleRate: 16000)
        let unlimited = try LPCMeasures.llr(reference: clean, processed: noisy, sampleRate: 16000, frameLimit: nil)
        #expect(abs(limited - 1.2530765534) < 1e-9)
        // Solve column 11 (CSIG) for the LLR, with PESQ, WSS from columns 10 and 3.
        let implied = (3.093 + 0.603 * 1.1624181392 - 0.009 * 44.6986136913 - 2.0379921577) / 1.029
        #expect(abs(unlimited - implied) < 1e-6, "unlimited LLR \(unlimited), implied by CSIG \(implied)")
        print("LLR of the noisy pair: \(limited) with frames limited to 2 (comp_llr.m), \(unlimited) without (composite.m)")
    }

    @Test func valuesAreLimitedToOneToFive() {
        let low = CompositeMeasures.combine(pesq: 1, llr: 3, wss: 150, segsnr: -10)
        #expect(low.csig == 1 && low.cbak == 1 && low.covl == 1)
        let high = CompositeMeasures.combine(pesq: 4.64, llr: 0, wss: 0, segsnr: 35)
        #expect(high.csig == 5 && high.cbak == 5 && high.covl == 5)
    }
}
