import Foundation
import Testing

extension CatalogCLIFolder {
    /// Mixes `count` half-second clips in splits train and test into `corpus/`, from generated
    /// sources (three speech ramps, two noises: enough for two disjoint splits).
    func mixSplitCorpus(count: Int) throws {
        for i in 0..<3 { try writeWAV("speech/u\(i).wav", frames: 16_000, seed: i) }
        for i in 0..<2 { try writeWAV("noise/n\(i).wav", frames: 24_000, seed: 9 + i) }
        let mix = try SEKitBinary.run(["mix", "--speech", path("speech"), "--noise", path("noise"), "--count", "\(count)",
                                       "--seconds", "0.5", "--split", "train=0.5,test=0.5", "--out", path("corpus"), "--no-catalog"])
        #expect(mix.status == 0, "\(mix.stderr)")
    }
}
