import ArgumentParser
import Foundation
import SEKit

extension EnhanceMethod: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
    public static var allValueStrings: [String] { all.map(\.description) }
    public var defaultValueDescription: String { description }
}

/// `sekit enhance`: classical baselines and oracle masks, one WAV per clip.
struct EnhanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enhance",
        abstract: "Enhance noisy clips with a classical method, an oracle mask or an ONNX model: the rows of a leaderboard.",
        discussion: """
            Methods:
              specsub     power spectral subtraction, over-subtraction and spectral floor (Berouti, \
            Schwartz & Makhoul 1979)
              mmse-stsa   MMSE short-time spectral amplitude estimator, decision-directed a priori SNR \
            (Ephraim & Malah 1984)
              logmmse     MMSE log-spectral amplitude estimator (Ephraim & Malah 1985), as Loizou's logmmse.m
              wiener      Wiener filter with decision-directed a priori SNR (Scalart & Filho 1996)
              oracle-irm  ideal ratio mask sqrt(|S|^2/(|S|^2+|N|^2)) from the corpus's clean and noise stems
              oracle-ibm  ideal binary mask: 1 where 10 log10(|S|^2/|N|^2) > --lc-db
              oracle-psm  phase-sensitive mask Re(S conj(Y))/|Y|^2 clipped to [0, 1]
            The blind methods estimate the noise from the signal (--noise-estimate); the oracle masks \
            need --corpus (a folder made by sekit mix, with its clean and noise stems), use a 512-point \
            Hann STFT with hop 256 (as sekit features) and keep the noisy phase.

            Models: --model FILE.onnx (several, or a quoted glob) runs each trained model with ONNX Runtime in \
            the project's Python environment, one enhance run per model into OUT/NAME/; SEKit computes the \
            input features from the model's metadata and resynthesises with the noisy phase. --streaming runs \
            NAME.stream.onnx one frame at a time and records per-frame times (docs/enhancement.md: the model \
            contract, the recorded params).

            Outputs: OUT/CLIP_ID.wav for --corpus (score with: sekit score --corpus CORPUS --enhanced OUT), \
            the input's relative path for --input (score with: sekit score --reference CLEAN --enhanced OUT); \
            sample rate and length of the input. The run (kind enhance, parent the corpus's mix run) \
            records every parameter; scoring OUT records the enhance run as the score run's parent. \
            A clip that fails is reported and counted (exit 1); the others are written.

            Example:
              sekit enhance --method logmmse --corpus corpus/ --split test --out enhanced/logmmse
              sekit score --corpus corpus/ --split test --enhanced enhanced/logmmse --checkpoint logmmse
            """
    )

    @Option(help: ArgumentHelp("Enhancement method (see below).", valueName: "method"))
    var method: EnhanceMethod?

    @Option(parsing: .upToNextOption,
            help: ArgumentHelp("ONNX models (files or a quoted glob): one enhance run each, into --out DIR/NAME/.", valueName: "file.onnx"))
    var model: [String] = []

    @Flag(help: "--model: run NAME.stream.onnx one frame at a time; check it against NAME.onnx, time each frame.")
    var streaming = false

    @Option(help: ArgumentHelp("A corpus made by `sekit mix`: enhances its noisy clips.", valueName: "folder"))
    var corpus: String?

    @Option(help: ArgumentHelp("Enhance only this split of the corpus (e.g. test).", valueName: "split"))
    var split: String?

    @Option(help: ArgumentHelp("A folder of noisy audio files (blind methods only).", valueName: "folder"))
    var input: String?

    @Option(name: [.short, .long], help: ArgumentHelp("Output folder.", valueName: "folder"))
    var out: String

    @Option(help: "Output sample format.")
    var format: WAVSampleFormat = .float32

    @Option(name: .customLong("lc-db"), parsing: .unconditional, help: ArgumentHelp("oracle-ibm: local criterion, dB.", valueName: "dB"))
    var lcDB: Double = 0

    @Flag(help: "Enhance a corpus whose mix did not finish (fewer clips than it planned).")
    var allowIncomplete = false

    @Flag(help: "Replace the outputs of another enhance run (method, source, split, settings or shards) in --out.")
    var overwrite = false

    @OptionGroup(title: "Blind methods (specsub, mmse-stsa, logmmse, wiener)") var blind: EnhanceParameterOptions

    @OptionGroup var job: JobOptions
    @OptionGroup var recording: CatalogRecordingOptions
    @OptionGroup var annotations: RunAnnotationOptions

    func validate() throws {
        guard (method == nil) != model.isEmpty else { throw ValidationError("give either --method or --model (one of them)") }
        if streaming && model.isEmpty { throw ValidationError("--streaming applies to --model") }
        if !model.isEmpty && (blind.changed || lcDB != 0) { throw ValidationError("the methods' options do not apply to --model") }
        guard (corpus == nil) != (input == nil) else { throw ValidationError("give either --corpus or --input (one of them)") }
        if split != nil && corpus == nil { throw ValidationError("--split selects clips of a --corpus") }
        if lcDB != 0 && method != .oracle(.ibm) && model.isEmpty { throw ValidationError("--lc-db applies to --method oracle-ibm only") }
        if let method, method.needsStems && blind.changed {
            throw ValidationError("the blind methods' options do not apply to --method \(method)")
        }
    }

    func run() throws {
        MemoryTuning.keepFreedMemoryForReuse()  // per-clip buffers are reused instead of faulted in anew
        if let method {
            try enhance(method, output: URL(fileURLWithPath: out))
            return
        }
        let (files, setAside) = try ModelFiles.expand(model)
        if !setAside.isEmpty {
            printError("note: \(setAside.count) streaming model\(setAside.count == 1 ? "" : "s") (NAME.stream.onnx) matched by the glob "
                       + "set aside; --streaming runs each beside its NAME.onnx")
        }
        // Every model is checked before the first clip: a list never stops after partial work on a bad model.
        if files.count > 1 { try EnhanceJob.checkModels(files, streaming: streaming) }
        var failed = false
        for file in files {
            do {
                let name = file.deletingPathExtension().lastPathComponent
                try enhance(.model(file), output: URL(fileURLWithPath: out).appendingPathComponent(name))
            } catch let exit as ExitCode where exit == ExitCode(1) {
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// One enhance run: `method` into `output`.
    func enhance(_ method: EnhanceMethod, output: URL) throws {
        let source: EnhanceJob.Source = corpus.map { .corpus(URL(fileURLWithPath: $0),
                                                             split: split) } ?? .folder(URL(fileURLWithPath: input!))
        var request = EnhanceJob.Request(method: method, source: source, output: output)
        request.format = format
        request.lcDB = lcDB
        request.blind = blind.parameters
        request.jobs = job.jobs
        request.shard = job.shard
        request.allowIncomplete = allowIncomplete
        request.overwrite = overwrite
        request.streaming = streaming
        let meter = ProgressMeter(label: "enhance")
        let (result, _) = try EnhanceJob.run(request, context: try recording.context(annotations: annotations),
                                             progress: { done, total in meter.update(done, of: total) })
        print("enhanced (\(method)): \(result.written) clips into \(request.output.path)")
        if let first = result.downmixed.first {
            printError("warning: \(result.downmixed.count) input\(result.downmixed.count == 1 ? " has" : "s have") several channels " +
                       "(\(first.clipID): \(first.channels)); each was enhanced as the average of its channels, and its output is mono")
        }
        if let first = result.clipped.first {
            let samples = result.clipped.reduce(0) { $0 + $1.samples }
            printError("warning: \(samples) sample\(samples == 1 ? "" : "s") beyond full scale clipped in \(result.clipped.count) " +
                       "output\(result.clipped.count == 1 ? "" : "s") (first: \(first.clipID)); --format float32 keeps them")
        }
        for failure in result.failures.prefix(20) { printError("failed: \(failure.clipID): \(failure.reason)") }
        if result.failures.count > 20 { printError("... and \(result.failures.count - 20) more") }
        if !result.failures.isEmpty { throw ExitCode(1) }
    }
}
