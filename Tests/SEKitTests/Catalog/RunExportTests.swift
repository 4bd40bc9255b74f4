import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// `runs export`: the flat run table and the per-clip rows, read back by pandas.
@Suite(.needsFixtures, .enabled(if: PythonReference.available, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct RunExportTests {
    @Test func perClipRowsLoadInPandasWithTheirSNRSplitAndSources() throws {
        let p = try ComparisonPipeline.shared.get()
        let file = p.folder.file("per-clip.csv")
        var text = ""
        let rows = try p.catalog.exportClipScores(filter: "kind = 'score' and name in ('noisy', 'oracle-irm')", format: .csv) { text += $0 }
        try Data(text.utf8).write(to: file)
        #expect(rows == 2 * 36 * 3)
        let out = try PythonReference.run("""
            import sys, json, pandas as pd
            d = pd.read_csv(sys.argv[1])
            print(json.dumps({"rows": len(d), "columns": list(d.columns), \
            "snr_numeric": bool(pd.api.types.is_numeric_dtype(d.snr_requested_db)) and bool(pd.api.types.is_numeric_dtype(d.value)),
                              "snrs": sorted(d.snr_requested_db.unique().tolist()), "splits": sorted(d.split.unique().tolist()),
                              "runs": sorted(d.run_name.unique().tolist()), "metrics": sorted(d.metric.unique().tolist()),
                              "speakers": int(d.speaker.notna().sum()), "noises": int(d.noise_source_ids.notna().sum()),
                              "improvement_ok": bool(((d.improvement - (d.value - d.noisy_value)).abs().fillna(0) < 1e-12).all()),
                              "mean_stoi": d[(d.metric == "stoi") & (d.run_name == "oracle-irm")].value.mean()}))
            """, arguments: [file.path])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        #expect(json["rows"] as? Int == rows)
        #expect(json["columns"] as? [String] == Catalog.clipScoreExportColumns)
        #expect(json["snr_numeric"] as? Bool == true)
        #expect(json["snrs"] as? [Double] == [-5, 0, 5])
        #expect(json["splits"] as? [String] == ["test", "train"])
        #expect(json["runs"] as? [String] == ["noisy", "oracle-irm"])
        #expect(json["metrics"] as? [String] == ["sisdr", "snr", "stoi"])
        #expect(json["noises"] as? Int == rows)
        #expect(json["improvement_ok"] as? Bool == true)
        // The per-clip mean equals the run's stored aggregate.
        let stored = try p.catalog.runDetails(try p.catalog.resolveRun("oracle-irm").id.rawValue)
            .metrics.first { $0.metric == "stoi" && $0.subset == "" }
        #expect(abs((json["mean_stoi"] as? Double ?? .nan) - (stored?.mean ?? .nan)) < 1e-12)
    }

    @Test func theRunTableHasParamsAndMetricColumns() throws {
        let p = try ComparisonPipeline.shared.get()
        var text = ""
        let rows = try p.catalog.exportRunTable(filter: "kind = 'score'", format: .csv) { text += $0 }
        #expect(rows == 5)
        let header = text.split(separator: "\n")[0].split(separator: ",").map(String.init)
        #expect(Array(header.prefix(Catalog.runExportColumns.count)) == Catalog.runExportColumns)
        #expect(header.contains("params.checkpoint") && header.contains("params.enhanced"))
        for stat in Catalog.runExportMetricStats { #expect(header.contains("metrics.stoi.\(stat)")) }
        #expect(!header.contains { $0.hasPrefix("metrics.") && $0.contains("[") }, "overall aggregates only")
    }
}
