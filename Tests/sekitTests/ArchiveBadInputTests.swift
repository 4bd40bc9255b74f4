import Foundation
import Testing

/// Broken archive corpora (issue 31): a shard missing, a truncated tar, a member whose length is
/// not its WAV header's. Each gives an error naming the shard and the member; `score` goes on with
/// the other shards' clips (counting the failures), `features` (clip order matters) refuses.
@Suite struct ArchiveBadInputTests {
    /// An archive corpus of 10 clips in shards of 4 (shard 0: clips 0-3, 1: 4-7, 2: 8-9).
    func corpus(_ folder: CatalogCLIFolder) throws {
        try MixCommandTests().makeSources(folder)
        let mixed = try MixArchiveCommandTests.mix(folder, out: "out", ["--archive", "tar", "--archive-clips", "4"])
        #expect(mixed.status == 0, "\(mixed.stderr)")
    }

    func score(_ folder: CatalogCLIFolder) throws -> (result: SEKitBinary.Result, scored: Int) {
        let result = try SEKitBinary.run(["score", "--corpus", folder.path("out"), "--metrics", "snr", "--format", "json",
                                          "--per-clip", folder.path("clips.csv"), "--no-catalog"])
        let rows = (try? String(contentsOfFile: folder.path("clips.csv"), encoding: .utf8)) ?? ""
        // Rows without an error: the clips scored.
        let scored = rows.split(separator: "\n").dropFirst().filter { !$0.contains("cannot read audio") }.count
        return (result, scored)
    }

    func features(_ folder: CatalogCLIFolder) throws -> SEKitBinary.Result {
        try SEKitBinary.run(["features", "--corpus", folder.path("out"), "--out", folder.path("f.h5"), "--no-catalog"])
    }

    @Test func aMissingShardFailsItsClipsOnly() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        try corpus(folder)
        try FileManager.default.removeItem(atPath: folder.path("out/shard-000001.tar"))
        let (scored, count) = try score(folder)
        #expect(scored.status == 1)
        #expect((scored.stdout + scored.stderr).contains("the archive shard shard-000001.tar is missing"), "\(scored.stdout)")
        #expect(count == 6, "the other shards' clips are scored")
        let exported = try features(folder)
        #expect(exported.status != 0 && exported.stderr.contains("shard-000001.tar"), "\(exported.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("f.h5")))
    }

    @Test func aTruncatedTarIsNamed() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        try corpus(folder)
        let handle = try FileHandle(forWritingTo: folder.url.appendingPathComponent("out/shard-000002.tar"))
        try handle.truncate(atOffset: 20_000)
        try handle.close()
        let (scored, count) = try score(folder)
        #expect(scored.status == 1)
        let named = "shard-000002.tar:s3-0000009.clean.wav: cannot read audio: truncated tar: member s3-0000008.clean.wav"
        #expect((scored.stdout + scored.stderr).contains(named), "\(scored.stdout)")
        #expect(count == 8)
        let exported = try features(folder)
        #expect(exported.status != 0 && exported.stderr.contains("truncated tar"), "\(exported.stderr)")
    }

    @Test func aMemberOfTheWrongLengthIsNamed() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        try corpus(folder)
        // Shard 0 remade by the system's tar, with clip 1's clean stem cut to 10,000 bytes.
        let shard = folder.path("out/shard-000000.tar"), work = folder.path("x")
        let listing = try MixArchiveCommandTests.shell("""
            mkdir -p \(work) && cd \(work) && tar -xf \(shard) && truncate -s 10000 s3-0000001.clean.wav \
            && tar --format=ustar -cf \(shard) $(tar -tf \(shard)) && tar -tvf \(shard)
            """)
        #expect(listing.contains("10000"), "\(listing)")
        let (scored, count) = try score(folder)
        #expect(scored.status == 1)
        #expect((scored.stdout + scored.stderr).contains("s3-0000001.clean.wav: cannot read audio: the member holds 10000 bytes, "
                                                         + "its WAV header promises 16044"), "\(scored.stdout)")
        #expect(count == 9)
    }
}
