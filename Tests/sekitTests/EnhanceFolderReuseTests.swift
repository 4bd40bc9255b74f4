import Foundation
import Testing

/// An enhance output folder holds one run's clips (issue 26, item 8): another method, split,
/// setting or shard layout into a non-empty folder is refused unless `--overwrite`, which
/// replaces the earlier run's outputs; the same command again (a rerun, another shard) is not.
@Suite(.serialized) struct EnhanceFolderReuseTests {
    func enhance(_ folder: CatalogCLIFolder, _ flags: [String]) throws -> SEKitBinary.Result {
        try SEKitBinary.run(["enhance", "--corpus", folder.path("corpus"), "--out", folder.path("out"), "--no-catalog"] + flags)
    }

    func wavs(_ folder: CatalogCLIFolder) -> Set<String> {
        Set(((try? FileManager.default.contentsOfDirectory(atPath: folder.path("out"))) ?? []).filter { $0.hasSuffix(".wav") })
    }

    @Test func anotherMethodOrSplitIsRefusedUnlessOverwrite() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try folder.mixSplitCorpus(count: 6)
        let oracle = try enhance(folder, ["--method", "oracle-irm"])
        #expect(oracle.status == 0, "\(oracle.stderr)")
        let oracleFiles = wavs(folder)
        #expect(oracleFiles.count == 6)
        let again = try enhance(folder, ["--method", "oracle-irm"])
        #expect(again.status == 0, "the same command again resumes: \(again.stderr)")

        let wiener = try enhance(folder, ["--method", "wiener", "--split", "test"])
        #expect(wiener.status != 0)
        #expect(wiener.stderr.contains("method: oracle-irm in the folder, wiener now")
                && wiener.stderr.contains("split: unset in the folder, test now")
                && wiener.stderr.contains("--overwrite"), "\(wiener.stderr)")
        #expect(wavs(folder) == oracleFiles)
        let sharded = try enhance(folder, ["--method", "oracle-irm", "--shard", "1/2"])
        #expect(sharded.status != 0 && sharded.stderr.contains("shards: 1 in the folder, 2 now"), "\(sharded.stderr)")

        let replaced = try enhance(folder, ["--method", "wiener", "--split", "test", "--overwrite"])
        #expect(replaced.status == 0, "\(replaced.stderr)")
        #expect(wavs(folder).count == 3, "only the test split's clips are left: \(wavs(folder))")
    }

    @Test func aFolderNotWrittenByEnhanceAndAFileAreRefused() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try folder.mixSplitCorpus(count: 6)
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: folder.url.appendingPathComponent("out/notes.txt"))
        let refused = try enhance(folder, ["--method", "wiener"])
        #expect(refused.status != 0 && refused.stderr.contains("not written by sekit enhance (notes.txt)"), "\(refused.stderr)")
        let file = try SEKitBinary.run(["enhance", "--method", "wiener", "--corpus", folder.path("corpus"),
                                        "--out", folder.path("out/notes.txt"),
                                        "--no-catalog"])
        #expect(file.status != 0 && file.stderr.contains("is a file, not a folder") && !file.stderr.contains("NSCocoaErrorDomain"),
                "\(file.stderr)")
    }
}
