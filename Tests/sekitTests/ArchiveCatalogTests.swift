import Foundation
import Testing

/// The catalogue of a sharded archive mix (issue 31): command shard I made whole archive shards,
/// so a score run names each clip by the mix run of the shard that made it.
@Suite struct ArchiveCatalogTests {
    @Test(.enabled(if: MixCommandTests.sqliteAvailable, "needs /usr/bin/sqlite3"))
    func scoresOfAShardedArchiveMixJoinTheirClips() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        try MixCommandTests().makeSources(folder)
        let catalog = folder.path("catalog.sqlite")
        for shard in ["1/2", "2/2"] {
            let mixed = try SEKitBinary.run(["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "10",
                                             "--seconds", "0.5", "--seed", "3", "--archive", "tar", "--archive-clips", "3",
                                             "--shard", shard, "--out", folder.path("out"), "--catalog", catalog])
            #expect(mixed.status == 0, "\(mixed.stderr)")
        }
        // Shard 1/2 made archive shards 0 and 2 (clips 0-2, 6-8), shard 2/2 shards 1 and 3 (clips 3-5, 9).
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM clips") == "10")
        let scored = try SEKitBinary.run(["score", "--corpus", folder.path("out"), "--metrics", "snr", "--catalog", catalog])
        #expect(scored.status == 0, "\(scored.stderr)")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM clip_scores s JOIN clips c ON c.id = s.clip_id") == "10")
    }
}
