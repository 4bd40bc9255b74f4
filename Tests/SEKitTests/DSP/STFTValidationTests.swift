import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// STFT parameters that would give features that cannot be resynthesised are refused up front.
@Suite struct STFTValidationTests {
    @Test func hopLongerThanTheWindowIsRefused() throws {
        let bad = STFTConfiguration(fftSize: 512, winLength: 512, hopLength: 1024, window: .hann, center: true)
        #expect(throws: DSPError.self) { try bad.validate() }
        do { try bad.validate() } catch {
            #expect(error.invalidParameter?.name == "hop-length" && "\(error)".contains("must not exceed win-length (512)"))
        }
        try STFTConfiguration(fftSize: 512, winLength: 400, hopLength: 400, window: .hann, center: true).validate()
        #expect(throws: DSPError.self) { try STFTConfiguration(fftSize: 512, winLength: 600, hopLength: 100, window: .hann,
                                                               center: true).validate() }
    }

    @Test func aNonFiniteIBMThresholdIsRefusedBeforeAnythingIsWritten() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        var options = FeatureExportOptions()
        options.targets = [.ibm]
        options.lcDB = .nan
        let output = folder.file("f.h5")
        #expect(throws: FeatureFileError.invalidParameter(name: "lc-db", value: "nan", reason: "must be a finite number of dB")) {
            try FeatureExport.run(corpus: folder.url, output: output, options: options)
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
