import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// STOI analyses a signal a window of its 10 kHz samples at a time (so an hour-long signal never
/// exists in Double): the size of the windows and of the resampler's pieces changes no value.
@Suite struct STOIWindowTests {
    @Test(arguments: [8_000, 10_000, 16_000, 44_100])
    func windowSizesChangeNoValue(sampleRate: Int) throws {
        let (x, y) = MetricSampleTests.pair
        for extended in [false, true] {
            let whole = try STOI.compute(reference: x, processed: y, sampleRate: sampleRate, extended: extended)
            for (capacity, piece) in [(256, 1), (300, 37), (1_000, 128), (4_096, 1_000)] {
                let small = STOI.Workspace(windowCapacity: capacity, resamplingPiece: piece)
                let windowed = try STOI.compute(reference: x, processed: y, sampleRate: sampleRate, extended: extended, workspace: small)
                #expect(windowed == whole, "\(sampleRate) Hz, window \(capacity), piece \(piece), extended \(extended)")
            }
        }
    }

    /// The resampler's windowed form gives the outputs of the whole signal, whatever the window.
    @Test func resamplingAWindowGivesTheWholeSignalsOutputs() {
        let x = OctaveResamplerTests.signal(5_000, seed: 0.9)
        let bank = OctaveResampler.Bank(up: 5, down: 8)
        let full = OctaveResampler.resample(x, to: 10_000, from: 16_000)
        for outputs in [0..<1, 0..<700, 3..<4, 101..<2_000, 1_999..<full.count, full.count - 1..<full.count] {
            let inputs = bank.inputRange(outputs: outputs, inputCount: x.count)
            let window = Array(x[inputs])
            var out = [Double](repeating: .nan, count: outputs.count)
            window.withUnsafeBufferPointer { w in
                out.withUnsafeMutableBufferPointer { o in
                    bank.apply(input: w.baseAddress!, inputStart: inputs.lowerBound, inputCount: x.count, outputs: outputs,
                               into: o.baseAddress!, outputStart: outputs.lowerBound)
                }
            }
            #expect(out == Array(full[outputs]), "outputs \(outputs)")
        }
    }
}
