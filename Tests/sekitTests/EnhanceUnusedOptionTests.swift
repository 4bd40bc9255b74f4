import Foundation
import Testing

/// `enhance` refuses options that do nothing for the chosen method, naming the method (issue 26,
/// item 13), and takes negative numbers as values (`--ksi-min-db -5`, item 22).
@Suite struct EnhanceUnusedOptionTests {
    func enhance(_ folder: CatalogCLIFolder, _ flags: [String]) throws -> SEKitBinary.Result {
        try SEKitBinary.run(["enhance", "--input", folder.path("in"), "--out", folder.path("out"), "--no-catalog"] + flags)
    }

    @Test func optionsWithoutEffectAreRefusedNamingTheMethod() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try folder.writeWAV("in/a.wav", frames: 16_000)
        let cases: [([String], String)] = [
            (["--method", "specsub", "--alpha-dd", "0.9"], "--alpha-dd 0.9: does nothing for --method specsub"),
            (["--method", "specsub", "--vad-threshold", "0.3"], "--vad-threshold 0.3: does nothing for --method specsub"),
            (["--method", "specsub", "--gamma-max", "20"], "--gamma-max 20.0: does nothing for --method specsub"),
            (["--method", "logmmse", "--over-subtraction", "2"], "--over-subtraction 2.0: does nothing for --method logmmse"),
            (["--method", "wiener", "--mcra-delta", "3"],
             "--mcra-delta 3.0: does nothing for --method wiener with --noise-estimate leading"),
            (["--method", "logmmse", "--noise-estimate", "mcra", "--leading-seconds", "0.5"],
             "--leading-seconds 0.5: does nothing for --method logmmse with --noise-estimate mcra"),
        ]
        for (flags, message) in cases {
            let result = try enhance(folder, flags)
            #expect(result.status != 0 && result.stderr.contains(message), "\(flags): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("out/a.wav")), "\(flags)")
        }
        let used = try enhance(folder, ["--method", "wiener", "--noise-estimate", "mcra", "--mcra-delta", "3"])
        #expect(used.status == 0, "\(used.stderr)")
    }

    @Test func negativeNumbersAreValues() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try folder.writeWAV("in/a.wav", frames: 16_000)
        let result = try enhance(folder, ["--method", "logmmse", "--ksi-min-db", "-5"])
        #expect(result.status == 0, "\(result.stderr)")
        let specsub = try SEKitBinary.run(["enhance", "--input", folder.path("in"), "--out", folder.path("out2"), "--no-catalog",
                                           "--method", "specsub", "--specsub-vad-threshold-db", "-2"])
        #expect(specsub.status == 0, "\(specsub.stderr)")
    }
}
