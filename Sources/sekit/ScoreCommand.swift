import ArgumentParser
import Foundation
import SEKit

extension FullScalePolicy: ExpressibleByArgument {}

extension ScoreAlignment: ExpressibleByArgument {}

struct ScoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "score",
        abstract: "Score enhanced speech against clean references: SNR, segSNR, SI-SDR, STOI, ESTOI and more.",
        discussion: """
        Pairs: --reference DIR --enhanced DIR (matched by relative path; --noisy DIR adds the noisy \
        input), or --corpus OUT [--enhanced DIR] (through the mix manifest: reference OUT/clean/ID.wav, \
        noisy OUT/noisy/ID.wav, enhanced DIR/ID.wav; without --enhanced the noisy input itself is \
        scored), or --enhanced DIR alone (real recordings without a reference: non-intrusive metrics \
        such as dnsmos only). Every clip gets each metric for the enhanced signal, for the noisy input \
        when known, and the improvement. A clip that cannot be scored is reported with its reason and \
        counted; the exit status is non-zero if any failed, unless --allow-failures.

        Metrics: \(Metric.allCases.map(\.rawValue).joined(separator: ", ")); composite (= csig,cbak,covl), \
        dnsmos (= dnsmos_sig,dnsmos_bak,dnsmos_ovrl,dnsmos_p808) and dnsmos_personalized (its sig, bak, \
        ovrl) name several at once. Presets: \(MetricPreset.all.map { "\($0.name) (\($0.summary))" }.joined(separator: "; ")); \
        a preset says on stderr which of the challenge's measures it leaves out, and the run records \
        it (metric_preset). pesq_wb, pesq_nb (ITU-T reference code, the pesq package), \
        csig/cbak/covl (Hu & Loizou 2008, with pesq_wb), dnsmos, dnsmos_personalized and plcmos \
        (speechmos' ONNX models), visqol_speech and visqol_audio (visqol-python), distillmos \
        (distillmos, PyTorch) and speaker_similarity (Resemblyzer, PyTorch) run in the project's Python environment \
        (scripts/python-env.sh, or \
        SEKIT_PYTHON), one worker process per --jobs, offline (models from the installed packages); \
        other rates than they accept are converted (to 16 kHz; 48 kHz for visqol_audio) and the run \
        records it. A worker that does not start \
        within SEKIT_PYTHON_START_TIMEOUT_SECONDS (default 120) or answer a clip within \
        SEKIT_PYTHON_CLIP_TIMEOUT_SECONDS (default 600) is killed and the scoring stops with an error.

        Formats: table (the summary per metric and subset, then failed clips), csv (one row per \
        clip, the same as --per-clip) or json (clips, with per-clip values, and summary).

        --from-run RUN prints a score run recorded in the catalogue (--catalog) instead of scoring: \
        its per-clip values and the summary recomputed from them, in --format and with --per-clip, \
        as `sekit score` printed them; no audio is read. After `sekit catalog merge` folds the shard \
        runs of a sharded score, this gives the outputs of the single-process run.
        """
    )

    @Option(name: .long, help: "Folder of clean reference files.") var reference: String?
    @Option(name: .long, help: "Folder of enhanced (processed) files.") var enhanced: String?
    @Option(name: .long, help: "Folder of noisy input files (paired by name with the references).") var noisy: String?
    @Option(name: .long, help: "A corpus folder made by `sekit mix` (pairs through its manifest).") var corpus: String?
    @Option(name: .long, help: "Score only this split of the corpus (e.g. test).") var split: String?
    @Option(name: .long, help: "Comma-separated metrics (default snr,segsnr,sisdr,stoi,estoi; e.g. pesq_wb,composite,stoi or dnsmos).")
    var metrics: String = "snr,segsnr,sisdr,stoi,estoi"
    @Option(name: .long, help: ArgumentHelp("""
        The transcripts that wer and cer score against: a UTF-8 file of KEY<TAB>TEXT lines (KEY: the clip id, or \
        the relative path, with or without its extension; # starts a comment line). A clip with no line, or \
        several, gets a per-clip error for wer and cer.
        """, valueName: "FILE.tsv"))
    var transcripts: String?
    @Option(name: .long, help: "Name of the model checkpoint or system being scored (default: the enhanced folder's name, or 'noisy').")
    var checkpoint: String?
    @Option(name: .long,
            help: "Length mismatch: strict (error for that clip) or trim (to the shorter).") var align: ScoreAlignment = .strict
    @OptionGroup var outputFormat: OutputFormatOptions
    @Option(name: .long, help: "Also write per-clip scores to this CSV file.") var perClip: String?
    @Flag(name: .long, help: "Exit 0 even when some clips or metric values could not be scored.") var allowFailures = false
    @Flag(name: .long, help: "Score a --corpus whose mix did not finish (fewer clips than it planned); the missing clips are counted.")
    var allowIncomplete = false
    @Option(name: .long, help: ArgumentHelp("""
        What DNSMOS, personalised DNSMOS and PLCMOS (which take samples in [-1, 1] only) do with a signal beyond full \
        scale: refuse (a per-clip error, the default), clip (samples beyond ±1 set to ±1) or scale (divided by its peak); \
        what was done is recorded per clip (full_scale).
        """, valueName: "policy"))
    var fullScale: FullScalePolicy = .refuse
    @Option(name: .long, help: ArgumentHelp("""
        Print the recorded score run RUN (id, unique id prefix or name) from the catalogue instead of scoring; \
        with --per-clip, write its per-clip CSV.
        """, valueName: "RUN"))
    var fromRun: String?
    @OptionGroup var job: JobOptions
    @OptionGroup var recording: CatalogRecordingOptions
    @OptionGroup var annotations: RunAnnotationOptions

    var metricNames: [String] {
        metrics.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    var parsedMetrics: [Metric] {
        get throws {
            let names = metricNames
            let known = (MetricRegistry.acceptedNames + MetricPreset.all.map(\.name)).joined(separator: ", ")
            guard !names.isEmpty else { throw ValidationError("--metrics: no metric named; known: \(known)") }
            var list: [Metric] = []
            for name in names {
                guard let metrics = MetricRegistry.outputs(named: name) ?? MetricPreset.named(name)?.metrics else {
                    throw ValidationError("--metrics: unknown metric '\(name)'; known: \(known)")
                }
                for metric in metrics where !list.contains(metric) { list.append(metric) }
            }
            return list
        }
    }

    /// The preset `--metrics` names, if any (the first when it names several).
    var preset: MetricPreset? { metricNames.lazy.compactMap(MetricPreset.named).first }

    func validate() throws {
        if fromRun != nil {
            let given = [("--corpus", corpus), ("--reference", reference), ("--enhanced", enhanced), ("--noisy", noisy), ("--split", split),
                         ("--transcripts", transcripts),
                         ("--param", annotations.params.first?.key), ("--tag", annotations.tags.first?.key)]
                .filter { $0.1 != nil }.map(\.0)
            if !given.isEmpty { throw ValidationError("--from-run prints a recorded run; it takes no \(given.joined(separator: ", "))") }
            return
        }
        let asked = try parsedMetrics
        let againstTranscripts = asked.filter { $0 == .wer || $0 == .cer }.map(\.rawValue)
        if !againstTranscripts.isEmpty && transcripts == nil {
            throw ValidationError("--metrics \(againstTranscripts.joined(separator: ",")) scores against --transcripts FILE.tsv; "
                                  + "give it (wer_vs_clean and cer_vs_clean score against the clean reference's transcript instead)")
        }
        if transcripts != nil && againstTranscripts.isEmpty {
            throw ValidationError("--transcripts is read by wer and cer only; add them to --metrics")
        }
        if corpus == nil && reference == nil && enhanced == nil {
            throw ValidationError("give --reference DIR --enhanced DIR, --corpus OUT, or --enhanced DIR alone (non-intrusive metrics)")
        }
        if corpus != nil && reference != nil { throw ValidationError("--corpus and --reference are alternatives; give one") }
        if reference != nil && enhanced == nil { throw ValidationError("--reference needs --enhanced DIR") }
        if corpus == nil && reference == nil {
            if noisy != nil { throw ValidationError("--noisy needs --reference DIR") }
            let intrusive = MetricRegistry.intrusive(try parsedMetrics)
            if !intrusive.isEmpty { throw ValidationError(ScoreError.needsReference(metrics: intrusive.map(\.rawValue)).description) }
        }
    }

    func run() throws {
        if let fromRun { return try printRecorded(fromRun) }
        MemoryTuning.keepFreedMemoryForReuse()
        let pairing: ScoreJob.Pairing
        if let corpus {
            pairing = .corpus(URL(fileURLWithPath: corpus), enhanced: enhanced.map { URL(fileURLWithPath: $0) }, split: split)
        } else if let reference {
            pairing = .folders(reference: URL(fileURLWithPath: reference), enhanced: URL(fileURLWithPath: enhanced!),
                               noisy: noisy.map { URL(fileURLWithPath: $0) })
        } else {
            pairing = .withoutReference(enhanced: URL(fileURLWithPath: enhanced!))
        }
        let name = checkpoint ?? enhanced.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "noisy"
        var request = ScoreJob.Request(pairing: pairing, metrics: try parsedMetrics, checkpoint: name)
        request.alignment = align
        request.shard = job.shard
        request.jobs = job.jobs
        request.perClipCSV = perClip.map { URL(fileURLWithPath: $0) }
        request.allowIncomplete = allowIncomplete
        request.fullScale = fullScale
        request.preset = preset?.name
        request.transcripts = transcripts.map { URL(fileURLWithPath: $0) }
        if let note = preset?.missingNote { printError("score: \(note)") }
        let meter = ProgressMeter(label: "score")
        let outcome = try ScoreJob.run(request, context: try recording.context(annotations: annotations),
                                       progress: { done, total in meter.update(done, of: total) })
        try printScores(checkpoint: name, clips: outcome.clips, summary: outcome.summary, metrics: request.metrics)
        if let line = outcome.run.summaryLine { printError(line) }
        if outcome.missingClips > 0 {
            printError("score: the corpus's mix did not finish: \(outcome.missingClips) planned clips are missing")
        }
        if outcome.failed > 0 {
            printError("score: \(outcome.failed) of \(outcome.clips.count) clips could not be scored")
        }
        if outcome.failedValues > 0 {
            let clips = outcome.clips.filter { $0.failedValues > 0 }.count
            printError("score: \(outcome.failedValues) metric values of \(clips) clips could not be computed "
                       + "(see the reasons above or in --per-clip/--format json)")
        }
        if (outcome.failed > 0 || outcome.failedValues > 0) && !allowFailures { throw ExitCode(1) }
    }

    /// The scores in `--format` on standard output.
    private func printScores(checkpoint: String, clips: [ClipScores], summary: [ScoreAggregate], metrics: [Metric]) throws {
        switch outputFormat.resolved {
        case .table:
            print(ScoreReport.table(checkpoint: checkpoint, clips: clips, summary: summary, metrics: metrics), terminator: "")
        case .csv:
            print(ScoreReport.csv(clips: clips, metrics: metrics), terminator: "")
        case .json:
            let json = try ScoreReport.json(checkpoint: checkpoint, clips: clips, summary: summary, metrics: metrics)
            writeToStandardOutput(String(decoding: json, as: UTF8.self))
            print("")
        }
    }

    /// `--from-run`: a recorded run printed (and its per-clip CSV written) as `sekit score` did.
    private func printRecorded(_ reference: String) throws {
        let recorded = try RecordedScores.run(reference, in: try recording.location.openForReading())
        if let perClip {
            try ScoreReport.writeCSV(clips: recorded.clips, metrics: recorded.metrics, to: URL(fileURLWithPath: perClip))
        }
        try printScores(checkpoint: recorded.checkpoint, clips: recorded.clips, summary: recorded.summary, metrics: recorded.metrics)
    }
}
