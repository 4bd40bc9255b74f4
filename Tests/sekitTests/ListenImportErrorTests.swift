import Foundation
import Testing

/// `sekit listen import` and `make` on bad input: results of another test, a duplicated rater, ratings
/// out of range, a tampered page or manifest, an incomplete webMUSHRA session, a run missing the
/// clips: a named error, a non-zero exit, and nothing of the file stored.
@Suite(.serialized, .needsFixtures)
struct ListenImportErrorTests {
    /// A results file for `rater` as the page writes it: every stimulus scored by its condition.
    func results(_ manifest: [String: Any], rater: String, scores: [String: Double], edit: (inout [[String: Any]]) -> Void = { _ in })
        throws -> Data
    {
        var ratings: [[String: Any]] = []
        for trial in manifest["trials"] as! [[String: Any]] {
            for stimulus in trial["stimuli"] as! [[String: Any]] {
                let condition = stimulus["condition"] as! String
                ratings.append([
                    "trial": trial["id"]!, "stimulus": stimulus["id"]!, "condition": condition, "file": stimulus["file"]!,
                    "scale": "mushra", "score": scores[condition]!, "seconds": 1.5,
                ])
            }
        }
        edit(&ratings)
        let file: [String: Any] = [
            "format": "sekit-listening-results", "version": 1, "test": manifest["name"]!, "kind": "mushra",
            "stimuliHash": manifest["stimuliHash"]!, "rater": rater, "ratings": ratings,
        ]
        return try JSONSerialization.data(withJSONObject: file, options: [.sortedKeys])
    }

    @Test func badResultsAreNamedAndNothingIsStored() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        let catalog = try ReportCommandTests().scoredCorpus(folder)
        let out = folder.path("t")
        let tooMany = try SEKitBinary.run([
            "listen", "make", "--runs", "logmmse,oracle-irm", "--test", "mushra", "--clips", "9", "--out", out, "--catalog", catalog,
        ])
        #expect(tooMany.status != 0 && tooMany.stderr.contains("8 clips in common"), "\(tooMany.stderr)")
        let made = try SEKitBinary.run([
            "listen", "make", "--runs", "logmmse,oracle-irm", "--test", "mushra", "--clips", "2", "--out", out, "--catalog", catalog,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let manifestData = try Data(contentsOf: URL(fileURLWithPath: out + "/test.json"))
        // Deterministic: the same runs, clips, seed and name give the same bytes.
        let again = try SEKitBinary.run(["listen", "make", "--runs", "logmmse,oracle-irm", "--test", "mushra", "--clips", "2",
                                         "--out", folder.path("again"), "--name", "t", "--catalog", catalog])
        #expect(again.status == 0, "\(again.stderr)")
        for file in ["test.json", "index.html", "webmushra/config.yaml", "audio/s0007.wav"] {
            let first = FileManager.default.contents(atPath: out + "/" + file)
            let second = FileManager.default.contents(atPath: folder.path("again/" + file))
            #expect(first != nil && first == second, "\(file) differs between two makes")
        }
        let manifest = try #require(try JSONSerialization.jsonObject(with: manifestData) as? [String: Any])
        let scores: [String: Double] = ["logmmse": 40, "oracle-irm": 80, "anchor35": 10, "anchor70": 30, "reference": 100]
        func write(_ name: String, _ data: Data) throws -> String {
            try data.write(to: folder.file(name))
            return folder.path(name)
        }
        func ratings() throws -> String { try folder.sqlite(catalog, "SELECT count(*) FROM listening_ratings") }
        func importing(_ files: [String]) throws -> SEKitBinary.Result {
            try SEKitBinary.run(["listen", "import", "--test", out] + files + ["--catalog", catalog])
        }
        let good = try write("r1.json", try results(manifest, rater: "r1", scores: scores))
        let first = try importing([good])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try ratings() == "10")

        var cases: [(String, String, String)] = []  // file, expected words, what
        cases.append((good, "already imported", "the same rater again"))
        var other = manifest
        other["stimuliHash"] = String(repeating: "a", count: 64)
        cases.append((try write("other.json", try results(other, rater: "r2", scores: scores)), "another test", "another test's results"))
        cases.append(
            (
                try write("range.json", try results(manifest, rater: "r3", scores: scores.merging(["logmmse": 120]) { $1 })),
                "out of range",
                "a score of 120"
            ))
        cases.append(
            (
                try write("tampered.json", try results(manifest, rater: "r4", scores: scores) { $0[0]["file"] = "audio/r0001.wav" }),
                "tampered",
                "a stimulus played from another file"
            ))
        cases.append(
            (
                try write("missing.json", try results(manifest, rater: "r5", scores: scores) { $0.removeLast() }), "rated 9 of",
                "an incomplete rater"
            ))
        // Issue 40 item 21: a duplicated rating row was reported as "rater is already imported"; a negative
        // time reached the catalogue's CHECK constraint, whose message named the catalogue, not the file.
        cases.append(
            (
                try write("twice.json", try results(manifest, rater: "r8", scores: scores) { $0.append($0[0]) }),
                "twice on the mushra scale", "a rating row written twice"
            ))
        cases.append(
            (
                try write("negative.json", try results(manifest, rater: "r9", scores: scores) { $0[0]["seconds"] = -3 }),
                "the time spent on", "a negative time"
            ))
        // With a good file beside each bad one: found before anything is stored, so neither is.
        let another = try write("r6.json", try results(manifest, rater: "r6", scores: scores))
        for (file, words, what) in cases {
            let result = try importing([another, file])
            #expect(
                result.status != 0 && result.stderr.contains(words) && result.stderr.contains((file as NSString).lastPathComponent),
                "\(what): \(result.stderr)")
            #expect(try ratings() == "10", "\(what): nothing stored")
        }

        // webMUSHRA: one session complete, one missing a rating: the file is refused whole.
        let trials = (manifest["trials"] as! [[String: Any]]).map { $0["id"] as! String }
        var csv = "session_test_id,session_uuid,trial_id,rating_stimulus,rating_score,rating_time,rating_comment\n"
        for session in ["w1", "w2"] {
            for trial in trials {
                for (condition, score) in scores.sorted(by: { $0.key < $1.key })
                where !(session == "w2" && trial == trials[1] && condition == "logmmse") {
                    csv += "t,\(session),\(trial),\(condition),\(Int(score) - (session == "w2" ? 4 : 0)),2500,\n"
                }
            }
        }
        let incomplete = try write("mushra.csv", Data(csv.replacingOccurrences(of: "\nt,", with: "\n\(manifest["name"]!),").utf8))
        let refused = try importing([incomplete])
        #expect(refused.status != 0 && refused.stderr.contains("rater w2 rated 9 of"), "\(refused.stderr)")
        #expect(try ratings() == "10")
        // Issue 40 item 21: a spreadsheet's UTF-8 byte-order mark before the header ("no column session_test_id").
        var marked = Data([0xEF, 0xBB, 0xBF])
        let rows = (csv + "t,w2,\(trials[1]),logmmse,36,100,\n").replacingOccurrences(of: "\nt,", with: "\n\(manifest["name"]!),")
        marked.append(Data(rows.utf8))
        let accepted = try importing([try write("complete.csv", marked)])
        #expect(accepted.status == 0 && accepted.stdout.contains("2 raters imported, 2 kept"), "\(accepted.stderr)")
        let mean = try folder.sqlite(
            catalog,
            "SELECT avg(score) FROM listening_ratings r JOIN listening_stimuli s ON s.test = r.test AND s.id = r.stimulus "
                + "WHERE s.condition = 'logmmse'")
        #expect(abs(Double(mean)! - 116.0 / 3) < 1e-9, "r1, w1 40 and w2 36: \(mean)")

        // A folder holding a test is never made over (raters may be rating it).
        let over = try SEKitBinary.run(["listen", "make", "--runs", "logmmse", "--test", "acr", "--clips", "2", "--out", out,
                                        "--catalog", catalog])
        #expect(over.status != 0 && over.stderr.contains("holds a listening test already"), "\(over.stderr)")
        // The manifest edited after make, and a run whose outputs are gone.
        try Data(String(decoding: manifestData, as: UTF8.self).replacingOccurrences(of: "\"oracle-irm\"", with: "\"oracle-x\"").utf8)
            .write(to: URL(fileURLWithPath: out + "/test.json"))
        let edited = try importing([try write("r7.json", try results(manifest, rater: "r7", scores: scores))])
        #expect(edited.status != 0 && edited.stderr.contains("edited after"), "\(edited.stderr)")
        try FileManager.default.removeItem(atPath: folder.path("enhanced/logmmse"))
        let gone = try SEKitBinary.run([
            "listen", "make", "--runs", "logmmse,oracle-irm", "--test", "acr", "--clips", "2", "--out", folder.path("t2"),
            "--catalog", catalog,
        ])
        #expect(gone.status != 0 && gone.stderr.contains("run logmmse cannot give clip"), "\(gone.stderr)")
    }
}
