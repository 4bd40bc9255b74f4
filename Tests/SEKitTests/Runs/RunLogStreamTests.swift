import Foundation
import Testing
@testable import SEKit

/// `sekit runs log --jsonl`: JSON lines parsed and refused with their line and key, recorded as
/// they come, each committed before the stream waits for more.
@Suite struct RunLogStreamTests {
    @Test func linesParseIntoEntriesAndBadLinesSayWhy() throws {
        let line = #"{"step": 3, "metrics": {"loss": 0.25}, "params": {"lr": 0.001, "amp": true, "opt": "adam", "epochs": 40}, "#
            + #""tags": {"s": "a"}, "time": 1733000000.5}"#
        let entry = try RunLogLine.parse(Substring(line), lineNumber: 1)
        #expect(entry.step == 3 && entry.metrics == ["loss": 0.25] && entry.tags == ["s": "a"])
        #expect(entry.params == ["lr": "0.001", "amp": "true", "opt": "adam", "epochs": "40"])
        #expect(entry.time == Date(timeIntervalSince1970: 1_733_000_000.5))
        // Python's json.dumps writes NaN and Infinity: they parse, and the entry refuses them by key.
        let nan = try RunLogLine.parse(#"{"step": 0, "metrics": {"loss": NaN, "b": -Infinity}}"#, lineNumber: 2)
        #expect("\(nan.validationError!)".contains("metric b") && "\(nan.validationError!)".contains("-inf"), "\(nan.validationError!)")
        // Issue 40 item 22: a step of 2^62 from Python was "not a whole number" while the CLI takes up to 2^63 − 1.
        for step in [Int(1) << 62, Int.max] {
            #expect(try RunLogLine.parse(Substring(#"{"step": \#(step), "metrics": {"a": 1}}"#), lineNumber: 1).step == step)
        }
        #expect(try RunLogLine.parse(#"{"step": 3.0, "metrics": {"a": 1}}"#, lineNumber: 1).step == 3)
        let cases: [(String, String)] = [
            ("not json", "line 7: not JSON"),
            (#"{"step": 1e20, "metrics": {"a": 1}}"#, "line 7: step 1e+20: a step is a whole number"),
            ("[1, 2]", "line 7: not a JSON object"),
            (#"{"step": 1.5, "metrics": {"a": 1}}"#, "line 7: step 1.5: a step is a whole number"),
            (#"{"step": 1, "metrics": {"a": "x"}}"#, "line 7: metrics.a: expected a number"),
            (#"{"params": {"x": null}}"#, "line 7: params.x: expected a string, number or boolean"),
            (#"{"step": 1, "metric": {"a": 1}}"#, "line 7: unknown member 'metric'"),
        ]
        for (line, message) in cases {
            do {
                _ = try RunLogLine.parse(Substring(line), lineNumber: 7)
                Issue.record("\(line) parsed")
            } catch {
                #expect("\(error)".hasPrefix(message), "\(line): \(error)")
            }
        }
    }

    @Test func aFileIsRecordedWithRefusedLinesNumberedAndTheRestKept() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        let run = try catalog.beginRun(kind: .train, name: "crnn", commandLine: ["train.py"])
        var text = ""
        for step in 0..<3000 { text += #"{"step": \#(step), "metrics": {"loss": \#(1.0 / Double(step + 1)), "acc": 0.5}}"# + "\n" }
        text += "\n" + #"{"step": 3000, "metrics": {"loss": NaN}}"# + "\n" + #"{"tags": {"stage": "done"}}"#   // no newline at the end
        try Data(text.utf8).write(to: folder.file("log.jsonl"))
        var answers: [(Int, Bool)] = []
        let file = try FileHandle(forReadingFrom: folder.file("log.jsonl"))
        let summary = try RunLogStream(catalog: catalog, run: run).record(from: file, isRegularFile: true) {
            answers.append(($0, $1 == nil))
        }
        #expect(summary.lines == 3002 && summary.recorded == 3001)
        #expect(summary.refused.map(\.line) == [3002], "the blank line 3001 is skipped but counted")
        #expect("\(summary.refused[0].error)".hasPrefix("line 3002: invalid metric loss = nan"), "\(summary.refused[0].error)")
        #expect(answers.map(\.0) == Array(1...3000) + [3002, 3003] && answers.filter { !$0.1 }.map(\.0) == [3002])
        #expect(try catalog.stepMetrics(of: run).count == 6000)
        #expect(try catalog.tags(of: run).map(\.value) == ["done"])
    }

    @Test func aLineIsCommittedBeforeTheStreamWaitsForTheNext() async throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        let run = try catalog.beginRun(kind: .train, name: "crnn", commandLine: ["train.py"])
        let pipe = Pipe()
        let reader = Task.detached { try RunLogStream(catalog: catalog, run: run).record(from: pipe.fileHandleForReading) }
        let other = try Catalog.openForReading(at: folder.file("c.sqlite"))
        for step in 0..<3 {
            pipe.fileHandleForWriting.write(Data((#"{"step": \#(step), "metrics": {"loss": 1}}"# + "\n").utf8))
            // The writer does not close the pipe: the line must be committed while the stream waits for more.
            let deadline = Date().addingTimeInterval(10)
            while try other.stepMetrics(of: run).count < step + 1 && Date() < deadline { try await Task.sleep(nanoseconds: 5_000_000) }
            #expect(try other.stepMetrics(of: run).count == step + 1, "step \(step) not committed while the stream waits")
        }
        try pipe.fileHandleForWriting.close()
        let summary = try await reader.value
        #expect(summary.recorded == 3)
    }

    @Test func aRunThatEndsStopsTheStream() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        let run = try catalog.beginRun(kind: .train, name: "crnn", commandLine: ["train.py"])
        try catalog.finishRun(run, status: .failed, error: "stopped")
        try Data((#"{"step": 0, "metrics": {"loss": 1}}"# + "\n").utf8).write(to: folder.file("log.jsonl"))
        var answered: [RunsError?] = []
        #expect(throws: RunsError.self) {
            _ = try RunLogStream(catalog: catalog, run: run).record(from: try FileHandle(forReadingFrom: folder.file("log.jsonl"))) {
                answered.append($1)
            }
        }
        #expect(answered.count == 1 && "\(answered[0]!)".contains("is failed"))
    }
}
