import Foundation
import Testing

/// `sekit catalog analyze` and mix inputs `corpus:NAME where ...` through the real binary.
@Suite(.enabled(if: TestEnvironment.sqliteAvailable, "needs /usr/bin/sqlite3"))
struct CatalogAnalyzeCommandTests {
    /// Sums of tones: `wide*` up to 7.8 kHz, `narrow*` up to 3 kHz (16 kHz, 1.5 s), and a noise folder.
    func makeSources(_ folder: TemporaryFolder) throws {
        func tones(_ frequencies: [Double], seed: Int) -> [Float] {
            (0..<24000).map { i in
                Float(frequencies.enumerated().reduce(0.0) { sum, tone in
                    sum + 0.05 * sin(2 * Double.pi * tone.element * Double(i) / 16000 + Double(tone.offset + seed))
                })
            }
        }
        for file in ["src/wide1.wav", "src/wide2.wav", "src/narrow1.wav", "src/narrow2.wav", "noise/hum.wav"] {
            try FileManager.default.createDirectory(at: folder.file(file).deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        try TestWAV.writeFloat32(tones([200, 1100, 3500, 6100, 7800], seed: 1), sampleRate: 16000, to: folder.file("src/wide1.wav"))
        try TestWAV.writeFloat32(tones([300, 2100, 5200, 7700], seed: 2), sampleRate: 16000, to: folder.file("src/wide2.wav"))
        try TestWAV.writeFloat32(tones([250, 900, 3000], seed: 3), sampleRate: 16000, to: folder.file("src/narrow1.wav"))
        try TestWAV.writeFloat32(tones([400, 1500, 2800], seed: 4), sampleRate: 16000, to: folder.file("src/narrow2.wav"))
        try TestWAV.writeFloat32(tones([50, 120, 2000, 5000], seed: 5), sampleRate: 16000, to: folder.file("noise/hum.wav"))
    }

    func mix(_ folder: TemporaryFolder, speech: String, out: String, catalog: String) throws -> SEKitBinary.Result {
        try SEKitBinary.run(["mix", "--speech", speech, "--noise", folder.path("noise"), "--count", "6", "--seconds", "0.5",
                             "--seed", "3", "--out", folder.path(out), "--catalog", catalog])
    }

    @Test func analyzeThenMixFromTheFilteredCorpus() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        try makeSources(folder)
        let catalog = folder.path("catalog.sqlite")
        let analysed = try SEKitBinary.run(["catalog", "analyze", "--catalog", catalog, "--no-dnsmos", "--jobs", "2", folder.path("src")])
        #expect(analysed.status == 0, "\(analysed.stderr)")
        #expect(analysed.stdout.contains("analysed corpus 'src'") && analysed.stdout.contains("4 files, 4 analysed"), "\(analysed.stdout)")
        let wide = try folder.sqlite(catalog, "SELECT group_concat(relative_path || '=' || (bandwidth_hz >= 7000), ',') FROM "
                                     + "(SELECT * FROM source_analysis ORDER BY relative_path)")
        #expect(wide == "narrow1.wav=0,narrow2.wav=0,wide1.wav=1,wide2.wav=1")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM source_analysis WHERE dnsmos_bak IS NULL") == "4")

        let mixed = try mix(folder, speech: "corpus:src where bandwidth_hz >= 7000", out: "out", catalog: catalog)
        #expect(mixed.status == 0, "\(mixed.stderr)")
        #expect(mixed.stdout.contains("speech corpus:src where bandwidth_hz >= 7000: 2 files kept, 2 excluded"), "\(mixed.stdout)")
        #expect(try folder.sqlite(catalog, """
            SELECT group_concat(DISTINCT s.relative_path) FROM (SELECT s.relative_path FROM clips c
            JOIN sources s ON s.id = c.speech_source_id ORDER BY 1) s
            """) == "wide1.wav,wide2.wav")
        #expect(try folder.sqlite(catalog, "SELECT value_text FROM params WHERE key = 'curated_sources_excluded'") == "2")
        let recorded = try folder.sqlite(catalog, "SELECT value_text FROM params WHERE key = 'curated_sources'")
        let entries = try #require(try JSONSerialization.jsonObject(with: Data(recorded.utf8)) as? [[String: Any]])
        #expect(entries.count == 1 && entries[0]["filter"] as? String == "bandwidth_hz >= 7000" && entries[0]["kept"] as? Int == 2)
        let excluded = try #require(entries[0]["excluded_files"] as? [[String: String]])
        #expect(excluded.map { ($0["path"]! as NSString).lastPathComponent } == ["narrow1.wav", "narrow2.wav"])
        #expect(excluded.allSatisfy { $0["reason"]!.hasPrefix("fails bandwidth_hz >= 7000 (bandwidth_hz = ") }, "\(excluded)")

        // The same filter selects the same files in the same order: the same corpus, byte for byte.
        let again = try mix(folder, speech: "corpus:src where bandwidth_hz >= 7000", out: "again", catalog: catalog)
        #expect(again.status == 0, "\(again.stderr)")
        let clip = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path("out/noisy")).sorted().first)
        #expect(try Data(contentsOf: folder.file("out/noisy/" + clip)) == Data(contentsOf: folder.file("again/noisy/" + clip)))

        // Without a filter every analysed file is used.
        let all = try mix(folder, speech: "corpus:src", out: "all", catalog: catalog)
        #expect(all.status == 0 && all.stdout.contains("4 files kept, 0 excluded"), "\(all.stderr)")
    }

    func analyze(_ folder: TemporaryFolder, catalog: String) throws -> SEKitBinary.Result {
        try SEKitBinary.run(["catalog", "analyze", "--catalog", catalog, "--no-dnsmos", "--name", "curated", folder.path("src")])
    }

    @Test func badFiltersUnknownCorporaAndChangedFilesAreRefusedBeforeAnythingIsWritten() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        try makeSources(folder)
        let catalog = folder.path("catalog.sqlite")
        let analysed = try analyze(folder, catalog: catalog)
        #expect(analysed.status == 0, "\(analysed.stderr)")
        let runsBefore = try folder.sqlite(catalog, "SELECT count(*) FROM runs")
        for (speech, message) in [("corpus:curated where loudness > 3", "unknown field 'loudness'"),
                                  ("corpus:curated where bandwidth_hz >=", "expected a number"),
                                  ("corpus:curated when bandwidth_hz > 1", "write corpus:NAME or corpus:NAME where"),
                                  ("corpus:elsewhere where bandwidth_hz > 1", "the catalogue has no corpus 'elsewhere'"),
                                  ("corpus:curated where bandwidth_hz > 20000", "keeps none of the 4 analysed files")] {
            let refused = try mix(folder, speech: speech, out: "out", catalog: catalog)
            #expect(refused.status != 0 && refused.stderr.contains(message), "\(speech): \(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("out")), "\(speech)")
        }
        try TestWAV.writeFloat32([Float](repeating: 0.1, count: 16000), sampleRate: 16000, to: folder.file("src/wide2.wav"))
        let changed = try mix(folder, speech: "corpus:curated where bandwidth_hz >= 7000", out: "out", catalog: catalog)
        #expect(changed.status != 0 && changed.stderr.contains("wide2.wav")
                && changed.stderr.contains("changed since `sekit catalog analyze`"),
                "\(changed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("out")))
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM runs") == runsBefore)

        let missing = try SEKitBinary.run(["catalog", "analyze", "--catalog", catalog, "--no-dnsmos", folder.path("nothing")])
        #expect(missing.status != 0 && missing.stderr.contains("nothing") && missing.stderr.contains("no such folder"), "\(missing.stderr)")
        try Data("junk".utf8).write(to: folder.file("src/junk.wav"))
        let failed = try analyze(folder, catalog: catalog)
        #expect(failed.status == 1 && failed.stderr.contains("failed: ") && failed.stderr.contains("junk.wav"), "\(failed.stderr)")
        #expect(failed.stdout.contains("5 files, 2 analysed, 3 unchanged"), "\(failed.stdout)")
        #expect(try folder.sqlite(catalog, "SELECT error IS NOT NULL FROM source_analysis WHERE relative_path = 'junk.wav'") == "1")
    }
}
