import Foundation
import Testing

/// `sekit mix --from-manifest` through the real binary: a catalogued re-render is byte-identical
/// and recorded as a mix run whose params name the manifest; options that draw clips are refused;
/// a missing source is an error naming it, with nothing written.
@Suite(.serialized, .needsFixtures)
struct MixFromManifestCommandTests {
    func mixArguments(_ out: String) -> [String] {
        let f = GoldenCorpus.fixtures.path
        return ["mix", "--speech", f + "/speech", "--noise", f + "/noise", "--rir", f + "/rir/small_room.wav",
                "--rir-probability", "0.5", "--count", "6", "--seconds", "1", "--seed", "4", "--codec", "opus,mp3",
                "--packet-loss", "0.1", "--packet-loss-probability", "0.5", "--out", out]
    }

    @Test func aCataloguedRerenderIsByteIdenticalAndRecordedAsAMix() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = folder.path("catalog.sqlite")
        let original = try SEKitBinary.run(mixArguments(folder.path("a")) + ["--catalog", catalog])
        #expect(original.status == 0, "\(original.stderr)")
        let manifest = folder.path("a/manifest.jsonl")
        let copy = try SEKitBinary.run(["mix", "--from-manifest", manifest, "--out", folder.path("b"), "--jobs", "2", "--catalog", catalog])
        #expect(copy.status == 0, "\(copy.stderr)")
        #expect(!copy.stderr.contains("warning"), "\(copy.stderr)")
        let fm = FileManager.default
        let names = try fm.contentsOfDirectory(atPath: folder.path("a/noisy"))
        #expect(names.count == 6)
        for stem in ["noisy", "clean", "noise"] {
            for name in names {
                #expect(fm.contents(atPath: folder.path("a/\(stem)/\(name)")) == fm.contents(atPath: folder.path("b/\(stem)/\(name)")))
            }
        }
        #expect(fm.contents(atPath: manifest) == fm.contents(atPath: folder.path("b/manifest.jsonl")))
        let runs = try folder.sqlite(catalog, "SELECT count(*) FROM runs WHERE kind = 'mix' AND status = 'finished'")
        #expect(runs == "2")
        let param = try folder.sqlite(catalog, "SELECT value_text FROM params WHERE key = 'from_manifest'")
        #expect(param == manifest)
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM clips") == "12")
    }

    @Test func shardsAndArchivesRerenderByteIdentically() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let fm = FileManager.default
        let original = try SEKitBinary.run(mixArguments(folder.path("a")) + ["--archive", "tar", "--archive-clips", "3", "--no-catalog"])
        #expect(original.status == 0, "\(original.stderr)")
        let manifest = folder.path("a/manifest.jsonl")
        let archived = try SEKitBinary.run(["mix", "--from-manifest", manifest, "--out", folder.path("b"), "--archive", "tar",
                                            "--archive-clips", "3", "--no-catalog"])
        #expect(archived.status == 0, "\(archived.stderr)")
        let shards = try fm.contentsOfDirectory(atPath: folder.path("a")).filter { $0.hasSuffix(".tar") }.sorted()
        #expect(shards.count == 2)
        for shard in shards {
            #expect(fm.contents(atPath: folder.path("a/" + shard)) == fm.contents(atPath: folder.path("b/" + shard)), "\(shard)")
        }
        // Two command shards into one folder make the clips of the whole manifest.
        for shard in ["1/2", "2/2"] {
            let part = try SEKitBinary.run(["mix", "--from-manifest", manifest, "--out", folder.path("c"), "--shard", shard,
                                            "--no-catalog"])
            #expect(part.status == 0, "\(part.stderr)")
        }
        let loose = try SEKitBinary.run(mixArguments(folder.path("d")) + ["--no-catalog"])
        #expect(loose.status == 0, "\(loose.stderr)")
        let names = try fm.contentsOfDirectory(atPath: folder.path("d/noisy")).sorted()
        #expect(try fm.contentsOfDirectory(atPath: folder.path("c/noisy")).sorted() == names && names.count == 6)
        for name in names {
            #expect(fm.contents(atPath: folder.path("c/noisy/" + name)) == fm.contents(atPath: folder.path("d/noisy/" + name)), "\(name)")
        }
    }

    @Test func optionsThatDrawClipsAreRefused() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let result = try SEKitBinary.run(["mix", "--from-manifest", folder.path("m.jsonl"), "--out", folder.path("b"),
                                          "--count", "3", "--snr-db", "5", "--no-catalog"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--count") && result.stderr.contains("--snr-db") && result.stderr.contains("--from-manifest"),
                "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("b")))
    }

    @Test func aMissingSourceIsNamedAndNothingIsWritten() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try FileManager.default.copyItem(at: GoldenCorpus.fixtures.appendingPathComponent("noise"), to: folder.file("noise"))
        let f = GoldenCorpus.fixtures.path
        let mixed = try SEKitBinary.run(["mix", "--speech", f + "/speech", "--noise", folder.path("noise"), "--count", "4",
                                         "--seconds", "1", "--out", folder.path("a"), "--no-catalog"])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        let line = try String(contentsOfFile: folder.path("a/manifest.jsonl"), encoding: .utf8).split(separator: "\n")[0]
        struct Record: Decodable { struct Noise: Decodable { let path: String }; let noise_sources: [Noise] }
        let gone = try JSONDecoder().decode(Record.self, from: Data(line.utf8)).noise_sources[0].path
        try FileManager.default.removeItem(atPath: gone)
        let result = try SEKitBinary.run(["mix", "--from-manifest", folder.path("a/manifest.jsonl"), "--out", folder.path("b"),
                                          "--no-catalog"])
        #expect(result.status != 0)
        #expect(result.stderr.contains(gone) && result.stderr.contains("line 1"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("b")))
    }
}
