import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// Every shipped recipe parses with the same parser as the command line (a misspelt key or a bad
/// value fails here, not on a user's cluster).
@Suite struct RecipeTests {
    static let folder = Fixtures.projectRoot.appendingPathComponent("datasets/recipes")

    @Test func everyShippedRecipeParses() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(names.count >= 5, "recipes: \(names)")
        for name in names {
            let url = Self.folder.appendingPathComponent(name)
            let values = try MixSettings.loadRecipe(url)
            let (options, inputs) = try MixSettings.parse(values)
            #expect(options.count != nil || options.hours != nil, "\(name): give count or hours")
            #expect(!inputs.speech.isEmpty && !inputs.noise.isEmpty, "\(name)")
            // Inputs are resolved relative to the recipe's folder.
            #expect(inputs.speech.allSatisfy { $0.hasPrefix(Self.folder.path) || $0.hasPrefix("/") }, "\(name)")
            if options.disjointSpeakers { #expect(inputs.speakerPattern != nil, "\(name): --disjoint speakers needs a speaker pattern") }
        }
    }

    @Test func speakerPatternsFindTheSpeakerInTheCorporaLayouts() throws {
        // The pattern sees the path relative to the folder given (`--speech /c/LibriSpeech/train-clean-100`),
        // as `catalog import` does, whichever folder of the layout is given.
        let cases: [(recipe: String, path: String, speaker: String)] = [
            ("voicebank-demand.yaml", "p226_001.wav", "p226"),
            ("librispeech-musan.yaml", "19/198/19-198-0000.flac", "19"),
            ("librispeech-musan.yaml", "train-clean-100/19/198/19-198-0000.flac", "19"),
            ("librispeech-demand.yaml", "1034/121119/1034-121119-0049.flac", "1034"),
            ("librispeech-demand-degraded.yaml", "1034/121119/1034-121119-0049.flac", "1034"),
            ("demo.yaml", "en-gb-scotland_m1/utt00.wav", "en-gb-scotland_m1"),
        ]
        for c in cases {
            let (_, inputs) = try MixSettings.parse(try MixSettings.loadRecipe(Self.folder.appendingPathComponent(c.recipe)))
            let regex = try NSRegularExpression(pattern: inputs.speakerPattern!)
            #expect(SourceDiscovery.speaker(in: c.path, pattern: regex) == c.speaker, "\(c.recipe)")
        }
    }

    @Test func aRecipeTakesTheOpusComplexity() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.url.appendingPathComponent("opus.yaml")
        try "speech: a\nnoise: b\ncount: 3\ncodec: opus\nopus-complexity: \"0:10\"\n".write(to: url, atomically: true, encoding: .utf8)
        #expect(try MixSettings.parse(try MixSettings.loadRecipe(url)).0.opusComplexity == CountRange(low: 0, high: 10))
        try "speech: a\nnoise: b\ncount: 3\ncodec: opus\nopus-complexity: 5\n".write(to: url, atomically: true, encoding: .utf8)
        #expect(try MixSettings.parse(try MixSettings.loadRecipe(url)).0.opusComplexity == CountRange(low: 5, high: 5))
    }

    @Test func anUnknownKeyIsRefusedWithTheFileName() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.url.appendingPathComponent("typo.yaml")
        try "speech: a\nnoise: b\ncount: 3\nsnr_db: 5\n".write(to: url, atomically: true, encoding: .utf8)
        #expect(throws: MixError.self) { _ = try MixSettings.loadRecipe(url) }
    }
}
