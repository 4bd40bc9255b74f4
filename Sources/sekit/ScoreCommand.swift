import ArgumentParser
import Foundation
import SEKit

struct ScoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "score",
        abstract: "Score enhanced speech against clean references: SNR, segSNR, SI-SDR, STOI, ESTOI and more.",
        discussion: """
        Pairs: --reference DIR --enhanced DIR (matched by relative path; --noisy DIR adds the noisy \
        input), or --corpus OUT [--enhanced DIR] (through the mix manifest: reference OUT/clean/ID.wav, \
        noisy OUT/noisy/ID.wav, enhanced DIR/ID.wav; without --enhanced the noisy input itself is \
        scored). Every clip gets each metric for the enhanced signal, for the noisy input when known, \
        and the improvement. A clip that cannot be scored is reported with its reason and counted; \
        the exit status is non-zero if any failed, unless --allow-failures.

        Metrics: \(Metric.allCases.map(\.rawValue).joined(separator: ", ")).
        """
    )

    @Option(name: .long, help: "Folder of clean reference files.") var reference: String?
    @Option(name: .long, help: "Folder of enhanced (processed) files.") var enhanced: String?
    @Option(name: .long, help: "Folder of noisy input files (paired by name with the references).") var noisy: String?
    @Option(name: .long, help: "A corpus folder made by `sekit mix` (pairs through its manifest).") var corpus: String?
    @Option(name: .long, help: "Score only this split of the corpus (e.g. test).") var split: String?
    @Option(name: .long, help: "Comma-separated metrics (default snr,segsnr,sisdr,stoi,estoi).") var metrics: String = "snr,segsnr,sisdr,stoi,estoi"
    @Option(name: .long, help: "Name of the model checkpoint or system being scored (default: the enhanced folder's name, or 'noisy').") var checkpoint: String?
    @Option(name: .long, help: "Length mismatch: strict (error for that clip) | trim (to the shorter).") var align: String = "strict"
    @Option(name: .long, help: "Output: table | json.") var format: String = "table"
    @Option(name: .long, help: "Also write per-clip scores to this CSV file.") var perClip: String?
    @Flag(name: .long, help: "Exit 0 even when some clips could not be scored.") var allowFailures = false
    @OptionGroup var job: JobOptions
    @OptionGroup var recording: CatalogRecordingOptions

    var parsedMetrics: [Metric] {
        get throws {
            try metrics.split(separator: ",").map { name in
                guard let metric = Metric(rawValue: name.trimmingCharacters(in: .whitespaces).lowercased()) else {
                    throw ValidationError("--metrics: unknown metric '\(name)'; known: \(Metric.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return metric
            }
        }
    }

    /// The options as catalogue parameters (absolute paths).
    var recordedParams: [String: String] {
        var params = ["metrics": metrics, "align": align, "shard": job.parsedShard.description]
        for (key, value) in [("reference", reference), ("enhanced", enhanced), ("noisy", noisy), ("corpus", corpus)] {
            if let value { params[key] = URL(fileURLWithPath: value).standardizedFileURL.path }
        }
        if let split { params["split"] = split }
        return params
    }

    func validate() throws {
        _ = try parsedMetrics
        guard ScoreAlignment(rawValue: align) != nil else { throw ValidationError("--align must be strict or trim") }
        guard ["table", "json"].contains(format) else { throw ValidationError("--format must be table or json") }
        if corpus == nil && reference == nil { throw ValidationError("give --reference DIR --enhanced DIR, or --corpus OUT") }
        if corpus != nil && reference != nil { throw ValidationError("--corpus and --reference are alternatives; give one") }
        if reference != nil && enhanced == nil { throw ValidationError("--reference needs --enhanced DIR") }
    }

    func run() throws {
        MemoryTuning.keepFreedMemoryForReuse()
        let metricList = try parsedMetrics
        let pairs: [ScorePair]
        if let corpus {
            pairs = try ScorePairing.fromCorpus(URL(fileURLWithPath: corpus), enhanced: enhanced.map { URL(fileURLWithPath: $0) }, split: split)
        } else {
            pairs = try ScorePairing.byName(reference: URL(fileURLWithPath: reference!), enhanced: enhanced.map { URL(fileURLWithPath: $0) },
                                            noisy: noisy.map { URL(fileURLWithPath: $0) })
        }
        let shard = job.parsedShard
        let mine = pairs.enumerated().filter { shard.contains($0.offset) }.map(\.element)
        let name = checkpoint ?? enhanced.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "noisy"
        let recorder = try recording.open().map { catalog in
            try ScoreCatalogRecorder.begin(catalog: catalog, checkpoint: name, commandLine: CommandLine.arguments,
                                           params: recordedParams, corpus: corpus.map { URL(fileURLWithPath: $0) })
        }
        let meter = ProgressMeter(label: "score")
        let clips = ScoreRunner.score(mine, metrics: metricList, alignment: ScoreAlignment(rawValue: align)!, jobs: job.jobs) { done, total in
            meter.update(done, of: total)
        }
        let summary = ScoreSummary.aggregate(clips, metrics: metricList)
        do { try recorder?.finish(clips: clips, summary: summary, metrics: metricList) } catch {
            recorder?.fail(error)
            throw error
        }
        if let perClip {
            try AtomicFile.write(Data(ScoreReport.csv(clips: clips, metrics: metricList).utf8), to: URL(fileURLWithPath: perClip))
        }
        if format == "json" {
            FileHandle.standardOutput.write(try ScoreReport.json(checkpoint: name, clips: clips, summary: summary, metrics: metricList))
            print("")
        } else {
            print(ScoreReport.table(checkpoint: name, clips: clips, summary: summary, metrics: metricList), terminator: "")
        }
        if let recorder {
            FileHandle.standardError.write(Data("catalogue: \(recorder.catalog.url.path), run \(recorder.runID)\n".utf8))
        }
        let failed = clips.filter { $0.error != nil }.count
        if failed > 0 {
            FileHandle.standardError.write(Data("score: \(failed) of \(clips.count) clips could not be scored\n".utf8))
            if !allowFailures { throw ExitCode(1) }
        }
    }
}
