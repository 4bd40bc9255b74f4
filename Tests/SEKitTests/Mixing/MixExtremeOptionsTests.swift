import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// Options that push a signal below what the output format holds give per-clip failures with the
/// reason, never an infinite or NaN figure in the manifest; and a mix asked into a folder holding
/// another says which options differ.
@Suite struct MixExtremeOptionsTests {
    @Test func noiseBelowSixteenBitsIsAPerClipFailure() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        var options = MixOptions()
        options.count = 2; options.seconds = 0.5; options.snrDB = .list([90])
        let result = try MixRun.prepare(options: options, inputs: try GeneratedSources.mixInputs(in: folder), output: folder.file("out"),
                                        jobs: 1).run()
        #expect(result.written == 0 && result.failures.count == 2)
        #expect(result.failures.allSatisfy { $0.reason.contains("the noise vanishes at SNR 90.0 dB") })
        #expect(try String(contentsOf: folder.file("out/manifest.jsonl"), encoding: .utf8).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("out/noisy").path).isEmpty, "no stems left behind")
        // In float32 the same mix is fine.
        options.format = .float32
        let float = try MixRun.prepare(options: options, inputs: try GeneratedSources.mixInputs(in: folder), output: folder.file("float"),
                                       jobs: 1).run()
        #expect(float.written == 2 && float.records.allSatisfy { abs($0.snrDBRealised - 90) < 0.1 })
    }

    @Test func aDifferentMixIsRefusedNamingWhatDiffers() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        var options = MixOptions()
        options.count = 2; options.seconds = 0.5
        _ = try MixRun.prepare(options: options, inputs: try GeneratedSources.mixInputs(in: folder), output: folder.file("out"),
                               jobs: 1).run()
        options.snrDB = .list([0, 5]); options.levelMode = .lufs
        do {
            _ = try MixRun.prepare(options: options, inputs: try GeneratedSources.mixInputs(in: folder), output: folder.file("out"),
                                   jobs: 1)
            Issue.record("a different mix was accepted")
        } catch {
            #expect("\(error)".contains("levelMode: rms in the folder, lufs now; snrDB: -5,0,5,10,15,20 in the folder, 0,5 now"),
                    "\(error)")
        }
    }
}
