import Foundation
import Testing

/// `--format table|csv|json` (and its alias `--json`) on the commands that print records, and
/// typed options refusing bad values before any work with the flag and the accepted values.
@Suite struct OutputFormatTests {
    func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    @Test func infoPrintsTableCSVAndJSONLines() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        try folder.writeWAV("a.wav", frames: 16000, seed: 1)
        try folder.writeWAV("b.wav", frames: 8000, seed: 2)
        let files = [folder.path("a.wav"), folder.path("b.wav")]
        let table = try SEKitBinary.run(["info"] + files)
        #expect(table.status == 0 && lines(table.stdout).count == 4 && table.stdout.hasPrefix("file "))
        let csv = try SEKitBinary.run(["info", "--format", "csv"] + files)
        let rows = lines(csv.stdout)
        #expect(csv.status == 0 && rows.count == 3)
        #expect(rows.first == "path,format,encoding,sample_rate,channels,frames,duration_seconds,peak_dbfs,rms_dbfs,"
                + "active_level_dbfs,active_ratio,lufs,clipped_ratio,dc_offset")
        #expect(rows.dropFirst().first?.contains(",16000,1,16000,1,") == true)
        let alias = try SEKitBinary.run(["info", "--json"] + files + [folder.path("missing.wav")])
        let viaFormat = try SEKitBinary.run(["info", "--format", "json"] + files + [folder.path("missing.wav")])
        #expect(alias.status == 1 && alias.stdout == viaFormat.stdout)
        let objects = try lines(alias.stdout).map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.count == 3 && objects[0]["sample_rate"] as? Int == 16000)
        #expect(objects[2]["path"] as? String == folder.path("missing.wav") && objects[2]["error"] is String)
        #expect(objects[2].count == 2)
    }

    @Test func scoreCSVIsThePerClipFile() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        try folder.writeWAV("reference/a.wav", frames: 4000, seed: 1)
        try folder.writeWAV("enhanced/a.wav", frames: 4000, seed: 4)
        let result = try SEKitBinary.run(["score", "--reference", folder.path("reference"), "--enhanced", folder.path("enhanced"),
                                          "--metrics", "snr", "--jobs", "1", "--no-catalog", "--format", "csv",
                                          "--per-clip", folder.path("scores.csv")])
        #expect(result.status == 0)
        #expect(result.stdout == (try String(contentsOfFile: folder.path("scores.csv"), encoding: .utf8)))
        #expect(result.stdout.hasPrefix("clip_id,split,snr_db,snr,snr_noisy,snr_improvement,error\n"))
    }

    @Test func catalogReportsPrintCSVAndJSON() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        try folder.writeWAV("speech/a.wav")
        let catalog = folder.path("catalog.sqlite")
        let imported = try SEKitBinary.run(["catalog", "import", "--catalog", catalog, "--kind", "speech", "--corpus", "toy",
                                            "--format", "csv", folder.path("speech")])
        #expect(imported.status == 0 && imported.stdout == "outcome,source,reason\nadded,toy:a.wav,\n")
        let stats = try SEKitBinary.run(["catalog", "stats", "--catalog", catalog, "--format", "csv"])
        #expect(stats.status == 0 && lines(stats.stdout) == ["corpus,kind,files,hours,speakers", "toy,speech,1,0.000,0"])
        let check = try SEKitBinary.run(["catalog", "check", "--catalog", catalog, "--format", "csv"])
        #expect(check.status == 0 && check.stdout == "problem,table,id,detail\n")
        let merged = try SEKitBinary.run(["catalog", "merge", folder.path("merged.sqlite"), catalog, "--format", "json"])
        let mergeReport = try #require(JSONSerialization.jsonObject(with: Data(merged.stdout.utf8)) as? [String: Any])
        #expect(merged.status == 0 && mergeReport["runsCompleted"] != nil)
        let runs = try SEKitBinary.run(["runs", "list", "--catalog", catalog, "--json"])
        let list = try #require(JSONSerialization.jsonObject(with: Data(runs.stdout.utf8)) as? [[String: Any]])
        let id = try #require(list.first?["id"] as? String)
        let show = try SEKitBinary.run(["runs", "show", "--catalog", catalog, "--format", "csv", id])
        #expect(show.status == 0 && show.stdout.hasPrefix("field,value\nid,\(id)\nkind,import\n"))
        #expect(show.stdout.contains("\nclips,0\n"))
    }

    @Test func badValuesFailBeforeWorkNamingTheFlag() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        let cases: [([String], [String])] = [
            (["noise", folder.path("n.wav"), "--color", "red"], ["--color", "white", "pink", "brown"]),
            (["score", "--corpus", folder.path("c"), "--format", "xml"], ["--format", "table", "csv", "json"]),
            (["score", "--corpus", folder.path("c"), "--align", "pad"], ["--align", "strict", "trim"]),
            (["score", "--corpus", folder.path("c"), "--shard", "3/2"], ["--shard", "i of N"]),
            (["features", "--corpus", folder.path("c"), "--out", folder.path("f.h5"), "--compression", "gzip:12"], ["--compression",
                                                                                                                    "gzip:LEVEL"]),
            (["synthesize", "--features", "f.h5", "--dataset", "irm", "--out", folder.path("o"), "--format", "pcm24"], ["--format", "pcm16",
                                                                                                                        "float32"]),
            (["info", "--json", "--format", "csv", folder.path("a.wav")], ["--json", "--format csv"]),
        ]
        for (arguments, mentions) in cases {
            let result = try SEKitBinary.run(arguments, currentDirectory: folder.url)
            #expect(result.status != 0, "\(arguments)")
            for text in mentions { #expect(result.stderr.contains(text), "\(arguments): \(result.stderr)") }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty, "nothing is written")
    }
}
