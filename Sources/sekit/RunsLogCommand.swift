import ArgumentParser
import Foundation
import SEKit

/// `sekit runs log RUN`: per-step metrics, parameters and tags into a running run.
struct RunsLogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Log per-step metrics, parameters and tags into a running run made elsewhere.",
        discussion: """
            One call: sekit runs log RUN --step 3 --metric loss=0.21 --metric valid_stoi=0.83 \
            [--param KEY=VALUE]... [--tag KEY=VALUE]...

            A stream (a training loop, or a file): --jsonl FILE, or --jsonl - for standard input, one \
            JSON object a line: {"step": 3, "metrics": {"loss": 0.21}, "params": {"lr": 0.001}, \
            "tags": {"stage": "warm-up"}, "time": UNIX_SECONDS}, every member optional (metrics need \
            a step; time defaults to now). What has been read is committed before the stream waits \
            for more input: a writer killed between lines loses nothing it wrote, and the stream \
            ends at the end of input. --acknowledge answers each line on standard output once it is \
            committed: `ok`, or `error: REASON` for a line refused (sekit.tracking waits for it).

            Refused, naming the key: a metric that is not a finite number, a step logged before with \
            another value (the same value again is accepted), a parameter the run has with another \
            value; a refused line leaves the others recorded, and the command exits 1. A run that has \
            ended (finished or failed) takes nothing. RUN: id, unique id prefix or name (of several \
            runs with the name, the one running). Several processes may log into one catalogue at once.
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Argument(help: ArgumentHelp("The run: id, unique id prefix or name.", valueName: "run"))
    var reference: String

    @Option(help: ArgumentHelp("The step of --metric (an epoch, an iteration), from 0.", valueName: "n"))
    var step: Int?

    @Option(name: .customLong("metric"), help: ArgumentHelp("A metric at --step, KEY=VALUE (repeatable).", valueName: "key=value"),
            transform: KeyValue.parse)
    var metrics: [KeyValue] = []

    @OptionGroup var annotations: RunAnnotationOptions

    @Option(help: ArgumentHelp("Read JSON lines from this file, or - for standard input.", valueName: "file"))
    var jsonl: String?

    @Flag(help: "With --jsonl: answer each line on standard output (ok, or error: REASON) once committed.")
    var acknowledge = false

    func validate() throws {
        if jsonl != nil {
            let given = [("--step", step != nil), ("--metric", !metrics.isEmpty), ("--param", !annotations.params.isEmpty),
                         ("--tag", !annotations.tags.isEmpty)].filter(\.1).map(\.0)
            if !given.isEmpty { throw ValidationError("--jsonl reads what to log; it takes no \(given.joined(separator: ", "))") }
            return
        }
        if acknowledge { throw ValidationError("--acknowledge answers the lines of --jsonl; give --jsonl FILE or -") }
        if metrics.isEmpty && annotations.params.isEmpty && annotations.tags.isEmpty {
            throw ValidationError("nothing to log: give --step N --metric KEY=VALUE, --param, --tag or --jsonl")
        }
        if !metrics.isEmpty && step == nil { throw ValidationError("--metric needs --step N") }
        if step != nil && metrics.isEmpty { throw ValidationError("--step needs at least one --metric KEY=VALUE") }
        if let step, step < 0 { throw ValidationError("--step must be >= 0, got \(step)") }
        _ = try metricValues()
    }

    /// `--metric` values as numbers (`nan` and `inf` parse, and are refused by the catalogue naming the key).
    func metricValues() throws -> [String: Double] {
        var values: [String: Double] = [:]
        for (key, text) in try KeyValue.dictionary(metrics, option: "metric") {
            guard let value = Double(text.trimmingCharacters(in: .whitespaces)) else {
                throw ValidationError("--metric \(key)=\(text): not a number")
            }
            values[key] = value
        }
        return values
    }

    func run() throws {
        let opened = try catalog.open(create: false)
        let run = try opened.resolveRun(reference, preferring: .running).id
        guard let jsonl else {
            let entry = RunLogEntry(step: step, metrics: try metricValues(),
                                    params: try KeyValue.dictionary(annotations.params, option: "param"),
                                    tags: try KeyValue.dictionary(annotations.tags, option: "tag"))
            if let refusal = try opened.log([entry], to: run)[0] { throw refusal }
            return
        }
        let input: FileHandle
        if jsonl == "-" {
            input = FileHandle.standardInput
        } else {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: jsonl, isDirectory: &isFolder), !isFolder.boolValue,
                  let handle = FileHandle(forReadingAtPath: jsonl) else {
                throw CommandLineMessage(description: "--jsonl \(jsonl): no such file (or not a readable file)")
            }
            input = handle
        }
        let acknowledge = acknowledge
        let summary = try RunLogStream(catalog: opened, run: run).record(from: input, isRegularFile: jsonl != "-") { line, refusal in
            if acknowledge {
                print(refusal.map { "error: " + "\($0)".replacingOccurrences(of: "\n", with: " ") } ?? "ok")
            } else if let refusal {
                printError("runs log: \(refusal)")
            }
        }
        if !acknowledge {
            printError("runs log: \(summary.recorded) of \(summary.lines) lines recorded into run \(run)")
        }
        if !summary.refused.isEmpty { throw ExitCode(1) }
    }
}
