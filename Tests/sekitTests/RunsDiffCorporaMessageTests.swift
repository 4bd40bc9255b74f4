import Foundation
import Testing

/// `runs diff` of two runs scored on different corpora says what is wrong (the runs' corpora) and
/// offers --unpaired, instead of presenting --unpaired, which was not given, as the invalid option.
@Suite struct RunsDiffCorporaMessageTests {
    @Test func aPairedDiffAcrossCorporaBlamesTheRunsNotTheUnpairedFlag() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = folder.path("c.sqlite")
        for set in ["one", "two"] {
            for (index, name) in ["a", "b", "c"].enumerated() {
                try folder.writeWAV("\(set)/ref/\(name).wav", seed: index)
                try folder.writeWAV("\(set)/enh/\(name).wav", seed: index + 5)
            }
            let scored = try SEKitBinary.run(["score", "--reference", folder.path("\(set)/ref"), "--enhanced", folder.path("\(set)/enh"),
                                              "--metrics", "snr", "--checkpoint", set, "--catalog", catalog])
            try #require(scored.status == 0, "\(scored.stderr)")
        }
        let diff = try SEKitBinary.run(["runs", "diff", "one", "two", "--catalog", catalog])
        #expect(diff.status != 0)
        #expect(!diff.stderr.contains("--unpaired:"), "blames --unpaired: \(diff.stderr)")
        #expect(diff.stderr.contains("a paired comparison needs two runs scored on the same corpus"), "\(diff.stderr)")
        #expect(diff.stderr.contains(folder.path("one/ref")) && diff.stderr.contains(folder.path("two/ref")),
                "names both corpora: \(diff.stderr)")
        #expect(diff.stderr.contains("compare them unpaired with --unpaired"), "\(diff.stderr)")
        let unpaired = try SEKitBinary.run(["runs", "diff", "one", "two", "--unpaired", "--catalog", catalog])
        #expect(unpaired.status == 0, "\(unpaired.stderr)")
    }
}
