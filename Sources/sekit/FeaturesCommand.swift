import ArgumentParser
import Foundation
import SEKit

extension FeatureKind: ExpressibleByArgument {}
extension FeatureDType: ExpressibleByArgument {}
extension FeatureFraming: ExpressibleByArgument {}
extension WindowKind: ExpressibleByArgument {}
extension FeatureCompression: ExpressibleByArgument {
    /// Parses `none`, `gzip` or `gzip:LEVEL`; nil otherwise (the parser then names `--compression`).
    public init?(argument: String) { try? self.init(parsing: argument) }
    public var defaultValueDescription: String { description }
}

/// `sekit features`: the export (its default subcommand, so `sekit features --corpus ...` is
/// `sekit features export --corpus ...`) and `merge`.
struct FeaturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "features",
        abstract: "Export STFT features of a mixed corpus into one HDF5 file (export, the default), "
            + "merge the files of a sharded export, or check a file.",
        discussion: """
        Without a subcommand, `sekit features` is `sekit features export`, whose options are \
        --corpus DIR and --out FILE (required), --split, --sample-rate, --framing, --n-fft, --win-length, --hop-length, \
        --window, --center, --feature, --exponent, --targets, --lc-db, --dtype, --compression, \
        --stats-from, --overwrite, --allow-incomplete, --jobs, --shard, --catalog and --no-catalog: see \
        `sekit features export --help` for what each does.

        Example:
          sekit features --corpus corpus/ --out feats/train-2-of-4.h5 --shard 2/4
          sekit features merge feats/train.h5 feats/train-*-of-4.h5
          sekit features check feats/train.h5
        """,
        subcommands: [FeaturesExportCommand.self, FeaturesMergeCommand.self, FeaturesCheckCommand.self],
        defaultSubcommand: FeaturesExportCommand.self
    )
}

struct FeaturesExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export STFT features of a mixed corpus (noisy input, clean/noise targets, masks) into one HDF5 file.",
        discussion: """
        One packed dataset [total_frames, bins] per stream (noisy, then --targets in order), the \
        index /index/{clip_id,offset,num_frames,snr_db,split}, per-bin mean and std of each signal \
        feature over the training split under /stats/STREAM (--stats-from TRAIN.h5: the training \
        export's, so a test export is normalised as training was), and every parameter as a root \
        attribute. Read it with h5py (experiments/python/sekit_dataset.py). Defaults suit 16 kHz \
        speech: 512-point FFT, 512-sample (32 ms) periodic Hann window, hop 256 (50% overlap), \
        centred with zero padding. Clips are processed in parallel (--jobs) and written in manifest \
        order by one writer: the file's bytes do not depend on --jobs. Written under a temporary \
        name and renamed when complete. --shard i/N exports only clips whose corpus index k has \
        k mod N = i-1, with their own statistics, into their own file (root attribute shard = \
        "i/N"); `sekit features merge` joins the N files.

        Example:
          sekit features --corpus corpus/ --out corpus/features.h5 --targets clean,irm --compression gzip:4
        """
    )

    @Option(name: .long, help: "A corpus folder made by `sekit mix`.") var corpus: String
    @Option(name: [.short, .long], help: "Output HDF5 file.") var out: String
    @Option(name: .long, help: "Export only this split (e.g. train).") var split: String?
    @Option(name: .long, help: ArgumentHelp("""
        Export only the clips at this rate, Hz: one file per rate of a corpus mixed with --sample-rate native \
        (a corpus at several rates is refused without it, naming its rates and clip counts).
        """, valueName: "HZ")) var sampleRate: Int?
    @Option(name: .long, help: ArgumentHelp("Store this feature file's /stats instead of computing them (its STFT and feature must match).",
                                            valueName: "file.h5")) var statsFrom: String?
    @Option(name: .long, help: ArgumentHelp("A framing preset at the corpus's rate instead of --n-fft/--win-length/--hop-length: "
                                            + "dns (20 ms window, 10 ms hop, FFT the window's length; 320/160 samples at 16 kHz).",
                                            valueName: "preset"))
    var framing: FeatureFraming?
    @Option(name: .long, help: "FFT size (default 512).") var nFft: Int?
    @Option(name: .long, help: "Window length in samples (default: --n-fft).") var winLength: Int?
    @Option(name: .long, help: "Hop in samples (default: half the window, 50% overlap).") var hopLength: Int?
    @Option(name: .long, help: "Window (periodic).") var window: WindowKind = .hann
    @Option(name: .long, help: "Centre frames with zero padding of n_fft/2 on both sides: true | false.") var center: Bool = true
    @Option(name: .long, help: "Stored feature.") var feature: FeatureKind = .magnitude
    @Option(name: .long, help: "Exponent of --feature compressed (|X|^c).") var exponent: Double = 0.3
    @Option(name: .long,
            help: "Target streams besides noisy, comma-separated: clean, noise, irm, ibm, psm, noisy_phase.") var targets: String = "clean"
    @Option(name: .long, parsing: .unconditional, help: "Local criterion of the ideal binary mask, dB.") var lcDb: Double = 0
    @Option(name: .long, help: "Stored type.") var dtype: FeatureDType = .float32
    @Option(name: .long, help: ArgumentHelp("""
        none, or gzip:LEVEL (1-9; gzip alone is gzip:\(FeatureCompression.defaultGzipLevel)) after HDF5's shuffle filter.
        """, valueName: "none|gzip[:level]")) var compression: FeatureCompression = .none
    @Flag(name: .long, help: "Replace an existing output file.") var overwrite = false
    @Flag(name: .long, help: "Export a corpus whose mix did not finish (fewer clips than it planned); the missing clips are counted.")
    var allowIncomplete = false
    @OptionGroup var job: JobOptions
    @OptionGroup var recording: CatalogRecordingOptions

    var parsedTargets: [FeatureTarget] {
        get throws {
            try targets.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.map { name in
                guard let target = FeatureTarget(rawValue: name) else {
                    throw ValidationError("--targets: unknown stream '\(name)'; "
                                          + "known: \(FeatureTarget.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return target
            }
        }
    }

    func validate() throws {
        let list = try parsedTargets
        guard Set(list).count == list.count else { throw ValidationError("--targets: a stream is named twice") }
        if let framing {
            let set = [("--n-fft", nFft != nil), ("--win-length", winLength != nil), ("--hop-length", hopLength != nil)]
                .filter(\.1).map(\.0)
            guard set.isEmpty else {
                throw ValidationError("--framing \(framing) sets the window, hop and FFT size; leave out \(set.joined(separator: ", "))")
            }
        }
    }

    func run() throws {
        MemoryTuning.keepFreedMemoryForReuse()
        var options = FeatureExportOptions()
        let fftSize = nFft ?? 512
        let win = winLength ?? fftSize
        options.stft = STFTConfiguration(fftSize: fftSize, winLength: win, hopLength: hopLength ?? max(1, win / 2), window: window,
                                         center: center)
        options.framing = framing
        options.feature = feature
        options.exponent = exponent
        options.targets = try parsedTargets
        options.lcDB = lcDb
        options.dtype = dtype
        options.compression = compression
        options.split = split
        options.sampleRate = sampleRate
        options.statisticsFrom = statsFrom.map { URL(fileURLWithPath: $0) }
        options.overwrite = overwrite
        options.allowIncomplete = allowIncomplete
        options.jobs = job.jobs
        options.shard = job.shard
        let output = URL(fileURLWithPath: out)
        let meter = ProgressMeter(label: "features")
        let (result, run) = try FeaturesJob.run(.init(corpus: URL(fileURLWithPath: corpus), output: output, options: options),
                                                     context: try recording.context(),
                                                     progress: { done, total in meter.update(done, of: total) })
        print("features: \(output.path)\(options.shard == .whole ? "" : " (shard \(options.shard))")")
        print("clips: \(result.clips), frames: \(result.summary.totalFrames), bins: \(result.stft.binCount), "
              + "streams: \(options.streamNames.joined(separator: ", ")), \(result.summary.fileBytes) bytes")
        print("statistics over split: \(result.statisticsSplit)")
        if result.missingClips > 0 {
            printError("features: the corpus's mix did not finish: \(result.missingClips) planned clips are missing")
        }
        if let line = run.summaryLine { print(line) }
    }
}
