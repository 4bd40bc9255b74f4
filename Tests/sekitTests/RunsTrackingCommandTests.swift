import Foundation
import Testing

/// `sekit runs start|log|artifact|finish`: runs made elsewhere, through the real binary and a real
/// catalogue file.
@Suite struct RunsTrackingCommandTests {
    static let sqlite = TestEnvironment.sqliteAvailable

    /// `sekit ARGUMENTS --catalog CATALOG`.
    static func sekit(_ arguments: [String], _ catalog: String, stdin: URL? = nil) throws -> SEKitBinary.Result {
        // Standard input from a file: through a shell that redirects it and then runs the binary.
        let launcher = stdin.map { ["/bin/sh", "-c", "exec \"$0\" \"$@\" < '\($0.path)'"] } ?? []
        return try SEKitBinary.run(arguments + ["--catalog", catalog], launcher: launcher)
    }

    @Test(.enabled(if: sqlite, "needs /usr/bin/sqlite3")) func aRunMadeElsewhereFromStartToFinish() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = folder.path("c.sqlite")
        let started = try Self.sekit(["runs", "start", "--kind", "train", "--name", "crnn", "--param", "lr=0.001",
                                      "--tag", "stage=warm-up"], catalog)
        #expect(started.status == 0, "\(started.stderr)")
        let run = started.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(run.count == 36 && started.stdout.hasSuffix("\n"))
        // It belongs to the process that started the command: this test, alive.
        let me = ProcessInfo.processInfo.processIdentifier
        #expect(try folder.sqlite(catalog, "SELECT kind, status, pid FROM runs") == "train|running|\(me)")

        for (step, loss) in [(0, "0.9"), (1, "0.5")] {
            let logged = try Self.sekit(["runs", "log", "crnn", "--step", "\(step)", "--metric", "loss=\(loss)",
                                         "--metric", "valid_stoi=0.7"], catalog)
            #expect(logged.status == 0, "\(logged.stderr)")
        }
        let nan = try Self.sekit(["runs", "log", String(run.prefix(8)), "--step", "2", "--metric", "loss=nan"], catalog)
        #expect(nan.status == 64 && nan.stderr.contains("loss") && nan.stderr.contains("not a finite number"), "\(nan.stderr)")
        let again = try Self.sekit(["runs", "log", run, "--step", "1", "--metric", "loss=0.4"], catalog)
        #expect(again.status == 64 && again.stderr.contains("step 1") && again.stderr.contains("0.5 already"), "\(again.stderr)")
        try Data("weights".utf8).write(to: folder.file("ckpt.pt"))
        let artifact = try Self.sekit(["runs", "artifact", "crnn", folder.path("ckpt.pt"), "--kind", "checkpoint"], catalog)
        #expect(artifact.status == 0, "\(artifact.stderr)")

        let shown = try Self.sekit(["runs", "show", "crnn"], catalog)
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("stage = warm-up") && shown.stdout.contains("checkpoint \(folder.path("ckpt.pt")) (7 bytes)"))
        #expect(shown.stdout.contains("  loss: 2 steps (0…1), first 0.9, last 0.5, min 0.5 at step 1, max 0.9 at step 0"),
                "\(shown.stdout)")
        let listed = try Self.sekit(["runs", "list", "--columns", "params.lr,metrics.loss.last,tags.stage", "--format", "csv"], catalog)
        #expect(listed.stdout.hasPrefix("id,kind,name,status,started_at,finished_at,clips,params.lr,metrics.loss.last,tags.stage,"
                                        + "command_line\n"))
        #expect(listed.stdout.contains(",0.001,0.5,warm-up,"), "\(listed.stdout)")

        let finished = try Self.sekit(["runs", "finish", "crnn"], catalog)
        #expect(finished.status == 0, "\(finished.stderr)")
        let late = try Self.sekit(["runs", "log", "crnn", "--step", "3", "--metric", "loss=0.3"], catalog)
        #expect(late.status == 1 && late.stderr.contains("is finished"), "\(late.stderr)")
        #expect(try Self.sekit(["runs", "finish", run], catalog).status == 1, "a run ends once")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM run_step_metrics") == "4")

        let failedRun = try Self.sekit(["runs", "start", "--name", "crnn-b"], catalog).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try Self.sekit(["runs", "finish", failedRun, "--failed", "ValueError('diverged')"], catalog).status == 0)
        #expect(try folder.sqlite(catalog, "SELECT status, error FROM runs WHERE id = '\(failedRun)'") == "failed|ValueError('diverged')")
    }

    @Test(.enabled(if: sqlite, "needs /usr/bin/sqlite3")) func unknownAndAmbiguousRunsExit2ListingCandidates() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = folder.path("c.sqlite")
        var ids: [String] = []
        for name in ["crnn-a", "crnn-a", "wiener"] {
            ids.append(try Self.sekit(["runs", "start", "--name", name], catalog).stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        for command in [["runs", "show"], ["runs", "log", "--step", "0", "--metric", "a=1"], ["runs", "finish"], ["score", "--from-run"]] {
            let unknown = try Self.sekit(command + ["crnn"], catalog)
            #expect(unknown.status == 2, "\(command): \(unknown.stderr)")
            #expect(unknown.stderr.contains("no run has the id, id prefix or name 'crnn'")
                    && unknown.stderr.components(separatedBy: "crnn-a").count == 3, "\(command): \(unknown.stderr)")
            let ambiguous = try Self.sekit(command + ["crnn-a"], catalog)
            #expect(ambiguous.status == 2 && ambiguous.stderr.contains(ids[0]) && ambiguous.stderr.contains(ids[1]),
                    "\(command): \(ambiguous.stderr)")
        }
        // A common prefix of two ids is ambiguous too; the whole id is always that run.
        let common = zip(ids[0], ids[1]).prefix { $0 == $1 }.map { String($0.0) }.joined()
        if !common.isEmpty { #expect(try Self.sekit(["runs", "show", common], catalog).status == 2) }
        #expect(try Self.sekit(["runs", "show", ids[1]], catalog).status == 0)
        #expect(try Self.sekit(["runs", "show", "wiener"], catalog).status == 0, "a name, as runs diff takes")
    }

    @Test(.enabled(if: sqlite, "needs /usr/bin/sqlite3")) func aStreamRecordsWhatAKilledWriterWrote() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = folder.path("c.sqlite")
        let run = try Self.sekit(["runs", "start", "--name", "crnn"], catalog).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        // The writer logs two steps and is killed (SIGKILL) before it closes its end of the pipe.
        let writer = #"printf '{"step": 0, "metrics": {"loss": 1}}\n{"step": 1, "metrics": {"loss": 0.5}}\n'; kill -9 $$"#
        let quoted = writer.replacingOccurrences(of: "'", with: "'\\''")
        let script = "sh -c '\(quoted)' | \"$0\" runs log \(run) --jsonl - --catalog '\(catalog)'"
        let piped = try SEKitBinary.run([], launcher: ["/bin/sh", "-c", script])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stderr.contains("2 of 2 lines recorded"), "\(piped.stderr)")
        #expect(try folder.sqlite(catalog, "SELECT group_concat(step || '=' || value) FROM run_step_metrics") == "0=1.0,1=0.5")

        // --acknowledge answers every line, in order, once committed; a refused line names its key.
        let lines = [#"{"step": 2, "metrics": {"loss": 0.25}}"#, #"{"step": 3, "metrics": {"loss": NaN}}"#, #"{"tags": {"stage": "main"}}"#]
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: folder.file("log.jsonl"))
        let acknowledged = try Self.sekit(["runs", "log", run, "--jsonl", "-", "--acknowledge"], catalog, stdin: folder.file("log.jsonl"))
        #expect(acknowledged.status == 1)
        let answers = acknowledged.stdout.split(separator: "\n").map(String.init)
        #expect(answers.count == 3 && answers[0] == "ok" && answers[2] == "ok", "\(acknowledged.stdout)")
        #expect(answers[1].hasPrefix("error: line 2: invalid metric loss = nan"), "\(answers)")
        let fromFile = try Self.sekit(["runs", "log", run, "--jsonl", folder.path("log.jsonl")], catalog)
        #expect(fromFile.status == 1 && fromFile.stderr.contains("runs log: line 2: invalid metric loss = nan"), "\(fromFile.stderr)")
        #expect(fromFile.stderr.contains("2 of 3 lines recorded"), "the same lines again are accepted: \(fromFile.stderr)")
        let usage = try Self.sekit(["runs", "log", run, "--jsonl", "-", "--step", "1"], catalog)
        #expect(usage.status == 64 && usage.stderr.contains("--jsonl reads what to log"), "\(usage.stderr)")
    }

    /// 8 processes log into one catalogue at once, streams and single calls: nothing is lost.
    @Test(.enabled(if: sqlite, "needs /usr/bin/sqlite3")) func eightConcurrentWritersLoseNothing() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = folder.path("c.sqlite")
        let run = try Self.sekit(["runs", "start", "--name", "crnn"], catalog).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let steps = 400
        for writer in 0..<8 {
            var text = ""
            for step in 0..<steps {
                let metrics = (0..<5).map { "\"w\(writer)_m\($0)\": \(Double(step) + Double($0) / 10)" }.joined(separator: ", ")
                text += "{\"step\": \(step), \"metrics\": {\(metrics)}}\n"
            }
            try Data(text.utf8).write(to: folder.file("w\(writer).jsonl"))
        }
        func launch(_ arguments: [String]) throws -> Process {
            let process = Process()
            process.executableURL = SEKitBinary.url
            process.arguments = arguments + ["--catalog", catalog]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        let streams = try (0..<8).map { try launch(["runs", "log", run, "--jsonl", folder.path("w\($0).jsonl")]) }
        for process in streams { process.waitUntilExit() }
        #expect(streams.map(\.terminationStatus) == Array(repeating: 0, count: 8))
        for round in 0..<5 {
            let calls = try (0..<8).map { try launch(["runs", "log", run, "--step", "\(round)", "--metric", "single_\($0)=\(round)"]) }
            for process in calls { process.waitUntilExit() }
            #expect(calls.map(\.terminationStatus) == Array(repeating: 0, count: 8), "round \(round)")
        }
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM run_step_metrics WHERE key LIKE 'w%'") == "\(8 * steps * 5)")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM run_step_metrics WHERE key LIKE 'single%'") == "40")
        let total = Double((0..<steps).reduce(0, +)) + 0.2 * Double(steps)
        #expect(try folder.sqlite(catalog, "SELECT abs(sum(value) - \(total)) < 1e-6 FROM run_step_metrics WHERE key = 'w3_m2'") == "1")
    }

    @Test(.enabled(if: sqlite, "needs /usr/bin/sqlite3")) func scoreTakesParamsAndTagsAndItsRunByName() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = folder.path("c.sqlite")
        for name in ["a", "b"] {
            try folder.writeWAV("ref/\(name).wav", frames: 16_000, seed: 1)
            try folder.writeWAV("enh/\(name).wav", frames: 16_000, seed: 2)
        }
        let base = ["score", "--reference", folder.path("ref"), "--enhanced", folder.path("enh"), "--metrics", "snr",
                    "--checkpoint", "epoch-40"]
        let scored = try Self.sekit(base + ["--param", "epoch=40", "--tag", "stage=candidate"], catalog)
        #expect(scored.status == 0, "\(scored.stderr)")
        let filter = "params.epoch = 40 and tags.stage = 'candidate'"
        let found = try Self.sekit(["runs", "list", "--filter", filter, "--format", "csv"], catalog)
        #expect(found.stdout.split(separator: "\n").count == 2 && found.stdout.contains(",epoch-40,"), "\(found.stdout)")
        let own = try Self.sekit(base + ["--param", "checkpoint=x"], catalog)
        #expect(own.status != 0 && own.stderr.contains("--param checkpoint=x") && own.stderr.contains("records checkpoint itself"),
                "\(own.stderr)")
        let unrecorded = try SEKitBinary.run(base + ["--param", "epoch=40", "--no-catalog"])
        #expect(unrecorded.status == 64 && unrecorded.stderr.contains("--no-catalog"), "\(unrecorded.stderr)")
        let printed = try Self.sekit(["score", "--from-run", "epoch-40", "--format", "csv"], catalog)
        #expect(printed.status == 0 && printed.stdout.contains("snr"), "\(printed.stderr)")
        #expect(try Self.sekit(["score", "--from-run", "epoch-40", "--param", "a=1"], catalog).status == 64)
    }
}
