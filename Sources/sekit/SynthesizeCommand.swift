import ArgumentParser
import Foundation
import SEKit

extension FeatureSynthesis.PredictionKind: ExpressibleByArgument {}
extension FeatureSynthesis.PhaseSource: ExpressibleByArgument {}

struct SynthesizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synthesize",
        abstract: "Turn predictions on a feature file's frames (masks or magnitudes) back into one WAV per clip.",
        discussion: """
        --predictions holds a 2-D dataset --dataset of shape [total_frames, bins] in the same frame \
        order as the feature file (h5py: f.create_dataset("mask", data=pred)); with --split S, just \
        that split's rows in file order; or any clips with an /index of their own (clip_id, offset, \
        num_frames: sekit.predictions.write_predictions), matched to the feature file by clip id. \
        It may be the feature file itself (e.g. --dataset irm for the oracle mask). The run's \
        parent is the run named by the predictions' run_id attribute (a training run) when it is \
        in the catalogue, else the features run; OUT names the run (.sekit-enhance.json), so a \
        later score takes it as its parent. A mask multiplies the noisy \
        STFT; a magnitude (in the file's feature domain, e.g. compressed) replaces it. Either is \
        combined with the noisy phase (stored noisy_phase stream, or the noisy WAV's STFT) and \
        inverted with the file's STFT parameters; clips keep their manifest length. Writes \
        OUT/CLIP_ID.wav, ready for: sekit score --corpus CORPUS --enhanced OUT. --shard i/N \
        writes only the file's clips k (0-based, index order) with k mod N = i-1; the N shards \
        of one command may write into one OUT together.

        Example:
          sekit synthesize --features f.h5 --predictions f.h5 --dataset irm --kind mask --out oracle/
        """
    )

    @Option(name: .long, help: "Feature file written by `sekit features`.") var features: String
    @Option(name: .long, help: "HDF5 file with the predictions (default: the feature file).") var predictions: String?
    @Option(name: .long, help: "Dataset in the predictions file, [total_frames, bins].") var dataset: String
    @Option(name: .long, help: "Synthesise only the clips of this split (/index/split of the feature file).") var split: String?
    @Option(name: .long, help: "What the predictions are.") var kind: FeatureSynthesis.PredictionKind = .mask
    @Option(name: .long,
            help: "Noisy phase: stored (the noisy_phase stream), recompute (the noisy WAV's STFT) or auto (stored when present).")
    var phase: FeatureSynthesis.PhaseSource = .auto
    @Option(name: .long, help: "The mixed corpus (default: the feature file's `corpus` attribute).") var corpus: String?
    @Option(name: [.short, .long], help: "Output folder for CLIP_ID.wav files.") var out: String
    @Option(name: .long, help: "Output sample format.") var format: WAVSampleFormat = .float32
    @OptionGroup var job: JobOptions
    @OptionGroup var recording: CatalogRecordingOptions
    @OptionGroup var annotations: RunAnnotationOptions

    func run() throws {
        MemoryTuning.keepFreedMemoryForReuse()
        var options = FeatureSynthesis.Options()
        options.kind = kind
        options.phase = phase
        options.format = format.fileFormat
        options.jobs = job.jobs
        options.shard = job.shard
        options.split = split
        let output = URL(fileURLWithPath: out)
        let meter = ProgressMeter(label: "synthesize")
        let request = SynthesizeJob.Request(
            features: URL(fileURLWithPath: features), predictions: predictions.map { URL(fileURLWithPath: $0) }, dataset: dataset,
            corpus: corpus.map { URL(fileURLWithPath: $0) }, output: output, options: options)
        let (result, _) = try SynthesizeJob.run(request, context: try recording.context(annotations: annotations),
            progress: { done, total in meter.update(done, of: total) })
        print("synthesized: \(result.written) clips into \(output.path)\(options.shard == .whole ? "" : " (shard \(options.shard))")")
        for failure in result.failures.prefix(20) { printError("failed: \(failure.clipID): \(failure.reason)") }
        if !result.failures.isEmpty { throw ExitCode(1) }
    }
}
