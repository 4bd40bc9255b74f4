import Foundation
import Testing

/// `sekit mix` with degradations through the real binary, on the real fixtures: the manifest's
/// `degradations`, the catalogue's degradation table through `catalog clips --filter` and
/// `catalog stats`, and errors naming the flag.
@Suite(.serialized, .needsFixtures)
struct DegradationCommandTests {
    struct Degradation: Decodable { let stage: String; let codec: String?; let mp3_bitrate_kbps: Int?; let lost_fraction: Double? }
    struct Record: Decodable { let clip_id: String; let degradations: [Degradation]? }

    func mix(_ folder: CatalogCLIFolder, catalog: String) throws -> [Record] {
        let f = GoldenCorpus.fixtures.path
        let result = try SEKitBinary.run([
            "mix", "--speech", f + "/speech", "--noise", f + "/noise", "--count", "40", "--seconds", "1", "--seed", "9",
            "--codec", "mp3,opus,gsm", "--mp3-bitrate-kbps", "16:64", "--codec-probability", "0.7",
            "--packet-loss", "0.05:0.25", "--packet-loss-probability", "0.5", "--concealment", "repeat",
            "--bandwidth-hz", "3000:6000", "--bandwidth-probability", "0.3", "--jobs", "2",
            "--out", folder.path("corpus"), "--catalog", catalog])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: folder.path("corpus/manifest.jsonl"), encoding: .utf8)
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Record.self, from: Data($0.utf8)) }
    }

    func clipIDs(_ filter: String, catalog: String) throws -> Set<String> {
        let result = try SEKitBinary.run(["catalog", "clips", "--filter", filter, "--format", "csv", "--catalog", catalog])
        #expect(result.status == 0, "\(filter): \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").dropFirst()
        return Set(lines.map { String($0.split(separator: ",")[0].split(separator: "/").last!) })
    }

    @Test func theCatalogueFiltersAndCountsClipsByDegradation() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        let catalog = folder.path("catalog.sqlite")
        let records = try mix(folder, catalog: catalog)
        func expected(_ keep: (Record) -> Bool) -> Set<String> { Set(records.filter(keep).map(\.clip_id)) }
        let lowMP3 = expected { $0.degradations!.contains { $0.codec == "mp3" && $0.mp3_bitrate_kbps! < 32 } }
        #expect(!lowMP3.isEmpty)
        #expect(try clipIDs("degradation = 'mp3' and params.mp3_bitrate_kbps < 32", catalog: catalog) == lowMP3)
        #expect(try clipIDs("degradation = 'codec'", catalog: catalog) == expected { $0.degradations!.contains { $0.stage == "codec" } })
        #expect(try clipIDs("degradation = 'none'", catalog: catalog) == expected { $0.degradations!.isEmpty })
        #expect(try clipIDs("degradation is null", catalog: catalog) == expected { $0.degradations!.isEmpty })
        #expect(try clipIDs("degradation != 'packet-loss'",
                            catalog: catalog) == expected { !$0.degradations!.contains { $0.stage == "packet-loss" } })
        #expect(try clipIDs("degradation in ('gsm', 'bandwidth')", catalog: catalog)
                == expected { $0.degradations!.contains { $0.codec == "gsm" || $0.stage == "bandwidth" } })
        #expect(try clipIDs("params.lost_fraction > 0.15", catalog: catalog)
                == expected { $0.degradations!.contains { ($0.lost_fraction ?? 0) > 0.15 } })

        let stats = try SEKitBinary.run(["catalog", "stats", "--format", "json", "--catalog", catalog])
        struct Stats: Decodable { struct Group: Decodable { let kind: String; let clips: Int }; let degradations: [Group] }
        let counted = try JSONDecoder().decode(Stats.self, from: Data(stats.stdout.utf8)).degradations
        var byKind: [String: Int] = [:]
        for record in records { for d in record.degradations! { byKind[d.codec ?? d.stage, default: 0] += 1 } }
        #expect(Dictionary(uniqueKeysWithValues: counted.map { ($0.kind, $0.clips) }) == byKind)
        let table = try SEKitBinary.run(["catalog", "stats", "--catalog", catalog])
        #expect(table.stdout.contains("degradations"))

        let sorted = try SEKitBinary.run(["catalog", "clips", "--filter", "degradation > 'mp3'", "--catalog", catalog])
        #expect(sorted.status != 0 && sorted.stderr.contains("degradation"))
    }

    @Test func badDegradationFlagsNameTheFlag() throws {
        let f = GoldenCorpus.fixtures.path
        let cases: [([String], String)] = [
            (["--codec", "mp3,aac"], "codec"), (["--packet-loss", "0.1:2"], "packet-loss"),
            (["--bandwidth-hz", "9000"], "bandwidth-hz"), (["--packet-ms", "10"], "packet-ms"),
            (["--packet-loss", "0.1", "--degradations-per-clip", "0:0.5,1:0.6"], "degradations-per-clip"),
            (["--codec", "opus", "--opus-complexity", "11"], "opus-complexity"),
            (["--codec", "mp3", "--opus-complexity", "5"], "opus-complexity"),
        ]
        for (flags, name) in cases {
            let result = try SEKitBinary.run(["mix", "--speech", f + "/speech", "--noise", f + "/noise", "--count", "2",
                                              "--out", "/tmp/sekit-never-written", "--no-catalog"] + flags)
            #expect(result.status != 0)
            #expect(result.stderr.contains("--\(name)") || result.stderr.contains(name), "\(flags): \(result.stderr)")
        }
    }
}

/// Scores broken down by degradation kind: `sekit score --corpus` stores `degradation=KIND`
/// subsets, and `runs leaderboard` / `runs diff` take them (`--subset degradation=codec`).
@Suite(.serialized, .needsFixtures)
struct DegradationScoringTests {
    struct Aggregate: Decodable { let metric: String; let subset: String; let n: Int }
    struct Output: Decodable { let summary: [Aggregate] }

    @Test func scoreLeaderboardAndDiffBreakDownByDegradation() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        let catalog = folder.path("catalog.sqlite"), corpus = folder.path("corpus")
        let f = GoldenCorpus.fixtures.path
        let mixed = try SEKitBinary.run([
            "mix", "--speech", f + "/speech", "--noise", f + "/noise", "--count", "24", "--seconds", "1", "--seed", "4",
            "--codec", "mp3,opus", "--packet-loss", "0.1:0.2", "--degradations-per-clip", "0:0.3,1:0.4,2:0.3",
            "--out", corpus, "--catalog", catalog])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        struct Record: Decodable { struct D: Decodable { let stage: String; let codec: String? }; let degradations: [D] }
        let records = try String(contentsOfFile: corpus + "/manifest.jsonl", encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(Record.self, from: Data($0.utf8)) }
        let noisy = try SEKitBinary.run(["score", "--corpus", corpus, "--metrics", "snr,sisdr", "--format", "json",
                                         "--checkpoint", "noisy", "--catalog", catalog])
        #expect(noisy.status == 0, "\(noisy.stderr)")
        let aggregates = try JSONDecoder().decode(Output.self, from: Data(noisy.stdout.utf8)).summary.filter { $0.metric == "snr" }
        let n = Dictionary(aggregates.map { ($0.subset, $0.n) }, uniquingKeysWith: { a, _ in a })
        #expect(n["degradation=none"] == records.filter { $0.degradations.isEmpty }.count)
        #expect(n["degradation=mp3"] == records.filter { $0.degradations.contains { $0.codec == "mp3" } }.count)
        #expect(n["degradation=codec"] == records.filter { $0.degradations.contains { $0.stage == "codec" } }.count)
        #expect(n["degradation=packet-loss"] == records.filter { $0.degradations.contains { $0.stage == "packet-loss" } }.count)
        #expect(n["all"] == 24)

        let clean = try SEKitBinary.run(["score", "--corpus", corpus, "--enhanced", corpus + "/noise", "--metrics", "snr,sisdr",
                                         "--checkpoint", "noise-only", "--catalog", catalog])
        #expect(clean.status == 0, "\(clean.stderr)")
        let board = try SEKitBinary.run(["runs", "leaderboard", "--corpus", "noisy", "--subset", "degradation=codec", "--format", "csv",
                                         "--catalog", catalog])
        #expect(board.status == 0, "\(board.stderr)")
        #expect(board.stdout.contains("noise-only") && board.stdout.contains("noisy"))
        let diff = try SEKitBinary.run(["runs", "diff", "noisy", "noise-only", "--subset", "degradation=codec,degradation=none",
                                        "--format", "csv", "--catalog", catalog])
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains("degradation=codec") && diff.stdout.contains("degradation=none"))
        #expect(!diff.stdout.contains("degradation=opus"))
    }
}

/// `--opus-complexity` through the binary: recorded in the manifest and the catalogue only when
/// given, and a degraded corpus made before it existed is unchanged (pinned hashes).
@Suite(.serialized, .needsFixtures)
struct OpusComplexityCommandTests {
    /// Every stage at probability 0.5, Opus on 11 of 30 clips at 12-23 kbps (SILK, hybrid): the pins
    /// were taken with SEKit before `--opus-complexity`, when Opus went through libsndfile, and taken
    /// again when the fixtures moved into the repository (issue 39: trimmed noise files give other
    /// mixes) with the same code, whose Opus path `OpusMemoryCodecTests` checks against libsndfile's.
    static let degradedMix = ["--count", "30", "--seconds", "1", "--seed", "4", "--codec", "opus,mp3,gsm", "--opus-bitrate-kbps", "6:24",
                              "--codec-probability", "0.9", "--bandwidth-hz", "2000:7000", "--bandwidth-probability", "0.5",
                              "--packet-loss", "0.05:0.25", "--packet-loss-probability", "0.5",
                              "--clip-distortion", "0.1:0.5", "--clip-distortion-probability", "0.5", "--jobs", "2"]

    func mix(_ out: String, _ flags: [String], catalog: String? = nil) throws {
        let f = GoldenCorpus.fixtures.path
        let result = try SEKitBinary.run(["mix", "--speech", f + "/speech", "--noise", f + "/noise", "--out", out]
                                         + flags + (catalog.map { ["--catalog", $0] } ?? ["--no-catalog"]))
        #expect(result.status == 0, "\(result.stderr)")
    }

    /// SHA-256 of the noisy stems (concatenated, sorted by name) and of the manifest (fixture path
    /// and UUIDs normalised as in ``GoldenCorpus``).
    func hashes(_ corpus: String) throws -> (noisy: String, manifest: String) {
        let names = try FileManager.default.contentsOfDirectory(atPath: corpus + "/noisy").filter { $0.hasSuffix(".wav") }.sorted()
        var noisy = Data()
        for name in names { noisy.append(try Data(contentsOf: URL(fileURLWithPath: corpus + "/noisy/" + name))) }
        var text = try String(contentsOfFile: corpus + "/manifest.jsonl", encoding: .utf8)
        text = text.replacingOccurrences(of: GoldenCorpus.fixtures.path, with: "$FIXTURES")
        let uuid = try NSRegularExpression(pattern: "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")
        text = uuid.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text),
                                             withTemplate: "00000000-0000-0000-0000-000000000000")
        return (GoldenCorpus.sha256(noisy), GoldenCorpus.sha256(Data(text.utf8)))
    }

    @Test func aDegradedCorpusMadeBeforeTheOptionIsUnchanged() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        try mix(folder.path("corpus"), Self.degradedMix)
        let (noisy, manifest) = try hashes(folder.path("corpus"))
        #expect(noisy == "b2e3fedddbf6aacf310c8c7500b50f6003d94eca43ba47138cdeb86f347e8450", "noisy stems")
        #expect(manifest == "fec0c6798f6ed55d3171c5978f861565ea7f5a7bcaa697d2e7159d097c12ff67", "manifest")
        let text = try String(contentsOfFile: folder.path("corpus/manifest.jsonl"), encoding: .utf8)
        #expect(text.contains("\"codec\":\"opus\"") && !text.contains("opus_complexity"))
    }

    @Test func drawnComplexitiesAreRecordedAndFilterable() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        let catalog = folder.path("catalog.sqlite")
        try mix(folder.path("corpus"), ["--count", "16", "--seconds", "1", "--seed", "4", "--codec", "opus,gsm",
                                        "--opus-complexity", "0:10", "--jobs", "2"], catalog: catalog)
        struct Record: Decodable {
            struct D: Decodable { let codec: String?; let opus_complexity: Int? }
            let clip_id: String; let degradations: [D]
        }
        let records = try String(contentsOfFile: folder.path("corpus/manifest.jsonl"), encoding: .utf8).split(separator: "\n")
            .map { try JSONDecoder().decode(Record.self, from: Data($0.utf8)) }
        let opus = records.filter { $0.degradations.contains { $0.codec == "opus" } }
        #expect(!opus.isEmpty && opus.allSatisfy { $0.degradations.allSatisfy { $0.codec != "opus" || $0.opus_complexity != nil } })
        #expect(records.allSatisfy { $0.degradations.allSatisfy { $0.codec == "opus" || $0.opus_complexity == nil } })
        let low = Set(opus.filter { $0.degradations.contains { ($0.opus_complexity ?? 99) < 5 } }.map(\.clip_id))
        let listed = try SEKitBinary.run(["catalog", "clips", "--filter", "params.opus_complexity < 5", "--format", "csv", "--catalog",
                                          catalog])
        #expect(listed.status == 0, "\(listed.stderr)")
        let ids = Set(listed.stdout.split(separator: "\n").dropFirst()
                      .map { String($0.split(separator: ",")[0].split(separator: "/").last!) })
        #expect(ids == low)
    }
}
