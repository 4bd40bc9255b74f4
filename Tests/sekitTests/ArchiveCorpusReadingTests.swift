import Foundation
import Testing

/// Every command reads a corpus mixed with `--archive tar` exactly as the folder corpus of the same
/// mix (issue 31): the same mix is made both ways at the same path, and what `features`,
/// `synthesize`, `enhance` (blind and oracle), `score --corpus`, `info` and `plot` make of each is compared
/// byte for byte.
@Suite struct ArchiveCorpusReadingTests {
    /// Runs every command on `folder/out`, each output under a fixed name; returns them by name.
    func outputs(_ folder: CatalogCLIFolder) throws -> [String: Data] {
        let out = folder.path("out")
        var printed: [String: Data] = [:]
        func run(_ name: String, _ arguments: [String]) throws {
            let result = try SEKitBinary.run(arguments + (name == "info" || name == "plot" ? [] : ["--no-catalog"]))
            #expect(result.status == 0, "\(name): \(result.stderr)")
            printed[name] = Data(result.stdout.utf8)
        }
        try run("features", ["features", "--corpus", out, "--out", folder.path("f.h5"), "--targets", "clean,irm,noise"])
        try run("synthesize", ["synthesize", "--features", folder.path("f.h5"), "--dataset", "irm", "--out", folder.path("syn")])
        try run("enhance", ["enhance", "--corpus", out, "--method", "logmmse", "--out", folder.path("enh")])
        try run("oracle", ["enhance", "--corpus", out, "--method", "oracle-irm", "--split", "test", "--out", folder.path("orc")])
        try run("score", ["score", "--corpus", out, "--metrics", "snr,sisdr,stoi", "--format", "json"])
        try run("score-enhanced", ["score", "--corpus", out, "--enhanced", folder.path("enh"), "--metrics", "snr,stoi", "--format", "json"])
        try run("info", ["info", out + "/noisy/s3-0000004.wav", out + "/clean/s3-0000007.wav", "--format", "json"])
        try run("plot", ["plot", out + "/noisy/s3-0000004.wav", out + "/clean/s3-0000004.wav", "--out", folder.path("p.png")])
        var files = printed.mapValues { $0 }
        files["f.h5"] = FileManager.default.contents(atPath: folder.path("f.h5"))
        files["p.png"] = FileManager.default.contents(atPath: folder.path("p.png"))
        for dir in ["syn", "enh", "orc"] {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path(dir)) where name.hasSuffix(".wav") {
                files["\(dir)/\(name)"] = FileManager.default.contents(atPath: folder.path("\(dir)/\(name)"))
            }
        }
        for name in ["f.h5", "p.png", "syn", "enh", "orc"] { try FileManager.default.removeItem(atPath: folder.path(name)) }
        return files
    }

    @Test(arguments: ["tar", "shar"]) func everyCommandReadsAnArchiveCorpusAsItsFolderCorpus(format: String) throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        try MixCommandTests().makeSources(folder)
        #expect(try MixArchiveCommandTests.mix(folder, out: "out").status == 0)
        let loose = try outputs(folder)
        try FileManager.default.removeItem(atPath: folder.path("out"))
        let mixed = try MixArchiveCommandTests.mix(folder, out: "out", ["--archive", format, "--archive-clips", "3"])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out/noisy")))
        let archived = try outputs(folder)
        #expect(loose.keys.sorted() == archived.keys.sorted())
        #expect(loose.keys.filter { $0.hasPrefix("syn/") }.count == MixArchiveCommandTests.clips)
        for (name, bytes) in loose {
            #expect(archived[name] == bytes, "\(name) differs between the folder corpus and the archive corpus")
        }
    }
}
