import ArgumentParser
import Foundation
import SEKit

extension MixOptions.LengthMode: ExpressibleByArgument {}
extension MixOptions.SNRMode: ExpressibleByArgument {}
extension MixOptions.LevelMode: ExpressibleByArgument {}
extension MixOptions.ClippingPolicy: ExpressibleByArgument {}
extension MixOptions.ReverbTarget: ExpressibleByArgument {}
extension MixOptions.Disjointness: ExpressibleByArgument {}
extension MixOptions.SplitSources: ExpressibleByArgument {}
extension WAVSampleFormat: ExpressibleByArgument {}
extension MixOptions.TargetBandwidth: ExpressibleByArgument {}
extension MixOptions.Concealment: ExpressibleByArgument {}
extension MixOptions.SilencedClips: ExpressibleByArgument {}

extension MixArchiveLayout.Format: ExpressibleByArgument {}

struct MixCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mix",
        abstract: "Mix clean speech and noise into a noisy/clean/noise corpus at exact, recorded SNRs.",
        discussion: """
        Writes OUT/noisy/ID.wav, OUT/clean/ID.wav, OUT/noise/ID.wav and OUT/manifest.jsonl (one \
        JSON record a clip). Every clip draws from its own generator seeded from (--seed, clip \
        index): output is byte-identical whatever --jobs, --shard or file-system order. Run the \
        same command again after an interruption and it resumes.

        A recipe (--recipe FILE.yaml) holds any of the options below by name (without the \
        dashes); flags given on the command line override it.

        Example:
          sekit mix --speech speech/ --noise noise/ --count 1000 --snr-db -5:20 \\
                    --split train=0.9,test=0.1 --seed 1 --out corpus/
        """
    )

    @Option(name: .long, help: "Recipe file (YAML) with any of these options.") var recipe: String?
    @Option(name: .long, help: ArgumentHelp("""
        Render exactly the clips this manifest lists (a mix's manifest.jsonl, edited or not; its mix.json must lie \
        beside it), from their recorded sources, gains, SNRs, levels, RIRs, wind and degradations: byte-identical to \
        the original corpus. Every source is checked (present, same SHA-256) before any clip is written. Takes no \
        option that draws clips (--count, --snr-db, --seed, inputs, a recipe).
        """, valueName: "FILE.jsonl")) var fromManifest: String?
    @Option(name: [.short, .long], help: "Output folder.") var out: String
    @Option(name: .long, help: """
        Speech input: folder, file list (.txt/.lst/.scp), file, or corpus:NAME [where CONDITION] (catalogue). Repeatable.
        """) var speech: [String] = []
    @Option(name: .long, help: "Noise input: folder, file list, file or corpus:NAME [where CONDITION]. Repeatable.")
    var noise: [String] = []
    @Option(name: .long, help: "Room impulse responses: folder, file list, file or corpus:NAME [where CONDITION]. Repeatable.")
    var rir: [String] = []
    @Option(name: .long, help: ArgumentHelp("""
        Corpus sample rate in Hz (default 16000); every source is resampled to it. 'native': each clip at its speech \
        source's rate, its noise drawn among noise files at that rate or higher and resampled down (never up); \
        --seconds stays seconds.
        """, valueName: "HZ|native")) var sampleRate: String?
    @Option(name: .long, help: "Number of clips.") var count: Int?
    @Option(name: .long, help: "Hours of noisy audio (when --count is not given).") var hours: Double?
    @Option(name: .long, help: "Clip length in seconds (default 4): longer speech is cropped, shorter padded.") var seconds: Double?
    @Flag(name: .long, help: "Clips as long as their utterance (same as --length-mode full-utterance).") var fullUtterance = false
    @Option(name: .long, help: """
        Clip length: fixed (--seconds), full-utterance, or concatenate (one speaker's utterances joined to --seconds). Default fixed.
        """) var lengthMode: MixOptions.LengthMode?
    @Option(name: .long, parsing: .unconditional,
            help: "SNR in dB: a list (-5,0,5,10) or a uniform range (-5:20). Default -5,0,5,10,15,20.") var snrDb: String?
    @Option(name: .long, help: "SNR measure: global (energy over the clip) or active (speech over its P.56 active frames). Default global.")
    var snrMode: MixOptions.SNRMode?
    @Option(name: .long, help: "Noise sources per clip: N or LOW:HIGH (default 1).") var noisesPerClip: String?
    @Option(name: .long, parsing: .unconditional, help: "Mixture level in dBFS: list or range (default -35:-15).") var levelDbfs: String?
    @Option(name: .long, help: "How the level is measured (default rms).") var levelMode: MixOptions.LevelMode?
    @Option(name: .long, help: """
        When the mix would clip: rescale (scale all stems so the mix peaks <= 0.99), reject (redraw the level) or allow. Default rescale.
        """) var clipping: MixOptions.ClippingPolicy?
    @Option(name: .long, help: """
        Clean stem under reverberation: dry, early (direct path + 50 ms) or reverberant. Default dry. \
        Stems are aligned on the RIR's first arrival (its first sample within 20 dB of its peak).
        """) var target: MixOptions.ReverbTarget?
    @Option(name: .long, help: "Early window after the RIR's first arrival for --target early, ms (default 50).") var earlyMs: Double?
    @Option(name: .long, help: "Probability that a clip is reverberated when --rir is given (default 1).") var rirProbability: Double?
    @Option(name: .long, help: """
        Probability that a clip's noise is generated wind noise (an airflow-driven model, Mirabilii and Habets 2018) \
        instead of its noise files (default 0).
        """) var windProbability: Double?
    @Option(name: .long, parsing: .unconditional,
            help: "SNR of the wind noise in dB: list or range (default -10:15).") var windSnrDb: String?
    @Option(name: .long, help: "Band-limiting low-pass cut-off in Hz: list or range (off unless given).") var lowpassHz: String?
    @Option(name: .long, help: "Probability that a clip is band-limited (default 0.5).") var lowpassProbability: Double?
    @Option(name: .long, help: "Source splits, e.g. train=0.9,test=0.1: files (not clips) are assigned to splits.") var split: String?
    @Option(name: .long, help: "speakers: assign speakers, not files, to splits (needs --speaker-pattern or a catalogued corpus).")
    var disjoint: MixOptions.Disjointness?
    @Option(name: .long, help: """
        Which files --split assigns to splits: all (speech, noise and RIR files; default) or speech \
        (noise and RIR files shared by every split).
        """) var splitSources: MixOptions.SplitSources?
    @Option(name: .long, help: ArgumentHelp("Regular expression searched in each file's path relative to its folder (as "
            + "catalog import searches); its first group (or the whole match) is the speaker.")) var speakerPattern: String?
    @Option(name: .long, help: "Run seed (default 0).") var seed: String?
    @Option(name: .long, help: "Output sample format (default pcm16).") var format: WAVSampleFormat?
    @Option(name: .long, help: "Crossfade in seconds where a short noise loops (default 0.02).") var crossfadeSeconds: Double?
    @Option(name: .long, help: """
        Degradation: band limit of the noisy input, band edges in Hz as a list (4000,8000) or range; resampled to twice the edge and back.
        """) var bandwidthHz: String?
    @Option(name: .long, help: """
        Degradation: band limit by rate, a list of rates in Hz (8000,16000,22050); each clip is resampled to one drawn \
        among those below the corpus rate and back, with a drawn soxr quality (medium, high, very-high).
        """) var bandwidthRates: String?
    @Option(name: .long, help: "Probability that a clip is band-limited (default 1).") var bandwidthProbability: Double?
    @Option(name: .long,
            help: "Clean target under --bandwidth-hz: full (bandwidth extension) or limited like the noisy input. Default full.")
    var targetBandwidth: MixOptions.TargetBandwidth?
    @Option(name: .long, help: """
        Degradation: codecs of the noisy input, one drawn per clip: mp3,opus,vorbis,ulaw,alaw,gsm \
        (encoded and decoded in memory, sample-aligned).
        """) var codec: String?
    @Option(name: .long, help: "Probability that a clip is coded (default 1).") var codecProbability: Double?
    @Option(name: .long,
            help: "MP3 bitrate in kbps: list or range (default 16:128; the nearest MP3 bitrate is used).") var mp3BitrateKbps: String?
    @Option(name: .long, help: "Opus bitrate in kbps: list or range (default 6:64).") var opusBitrateKbps: String?
    @Option(name: .long,
            help: "Opus encoder complexity 0-10: N or LOW:HIGH, drawn per clip (default 10; lower is faster).") var opusComplexity: String?
    @Option(name: .long, help: "Vorbis quality 0-1: list or range (default 0.1:0.6).") var vorbisQuality: String?
    @Option(name: .long, help: "Degradation: packet-loss rate 0-1 per clip, list or range (e.g. 0.05:0.25).") var packetLoss: String?
    @Option(name: .long, help: "Probability that a clip loses packets (default 1).") var packetLossProbability: Double?
    @Option(name: .long, help: "Packet length in ms (default 20).") var packetMs: Double?
    @Option(name: .long, help: "Longest burst of consecutive lost packets (default 10).") var maxBurstPackets: Int?
    @Option(name: .long,
            help: "Lost packets: zero, or repeat the last packet received. Default zero.") var concealment: MixOptions.Concealment?
    @Option(name: .long, help: "Degradation: hard clipping of the noisy input at a fraction of its peak, list or range (e.g. 0.1:0.5).")
    var clipDistortion: String?
    @Option(name: .long, help: """
        Degradation: clipping of the noisy input between a drawn lower and upper quantile of its samples, \
        LOWER,UPPER each a value or range (e.g. 0:0.1,0.9:1).
        """) var clipQuantiles: String?
    @Option(name: .long, help: "Probability that a clip is clip-distorted (default 1).") var clipDistortionProbability: Double?
    @Option(name: .long, help: """
        How many of the enabled degradations a clip gets, COUNT:PROBABILITY,... (e.g. 0:0.25,1:0.4,2:0.2,3:0.15); \
        the stages are chosen uniformly. Without it each applies with its own probability.
        """) var degradationsPerClip: String?
    @Option(name: .long, help: """
        With --degradations-per-clip LOW:HIGH: one weight per count, summing to 1 (e.g. 0:3 with 0.25,0.40,0.20,0.15).
        """) var degradationsPerClipWeights: String?
    @Option(name: .long, help: """
        A clip the degradations leave silent (no level): keep (written, level null in the manifest) \
        or fail (not written, counted in clips_failed). Default keep.
        """) var silencedClips: MixOptions.SilencedClips?
    @Option(name: .long, help: """
        Write the clips as archive shards instead of files: tar (WebDataset: shard-000000.tar holding \
        CLIP_ID.noisy.wav, .clean.wav, .noise.wav, .json) or shar (lhotse Shar: cuts.000000.jsonl.gz, \
        recording.000000.tar, clean.000000.tar, noise.000000.tar).
        """) var archive: MixArchiveLayout.Format?
    @Option(name: .long, help: "Clips per archive shard (default 1000); shard k holds clips [k*N, (k+1)*N).") var archiveClips: Int?
    @Flag(name: .long, help: "Replace a different mix already in the output folder.") var overwrite = false
    @Option(name: .long, help: "Name of the run in the catalogue (default: the output folder's name).") var name: String?
    @OptionGroup var job: JobOptions
    @OptionGroup var recording: CatalogRecordingOptions

    /// Named values from the flags actually given (they override the recipe).
    func flagValues() -> [String: [String]] {
        var values: [String: [String]] = [:]
        func set(_ key: String, _ value: CustomStringConvertible?) { if let value { values[key] = ["\(value)"] } }
        if !speech.isEmpty { values["speech"] = speech }
        if !noise.isEmpty { values["noise"] = noise }
        if !rir.isEmpty { values["rir"] = rir }
        set("sample-rate", sampleRate); set("count", count); set("hours", hours); set("seconds", seconds)
        set("length-mode", fullUtterance ? MixOptions.LengthMode.fullUtterance.rawValue : lengthMode?.rawValue)
        set("snr-db", snrDb); set("snr-mode", snrMode?.rawValue); set("noises-per-clip", noisesPerClip)
        set("level-dbfs", levelDbfs); set("level-mode", levelMode?.rawValue); set("clipping", clipping?.rawValue); set("target",
                                                                                                                       target?.rawValue)
        set("wind-probability", windProbability); set("wind-snr-db", windSnrDb)
        set("early-ms", earlyMs); set("split-sources", splitSources?.rawValue)
        set("rir-probability", rirProbability); set("lowpass-hz", lowpassHz); set("lowpass-probability", lowpassProbability)
        set("split", split); set("disjoint", disjoint?.rawValue); set("speaker-pattern", speakerPattern); set("seed", seed)
        set("format", format?.rawValue); set("crossfade-seconds", crossfadeSeconds)
        set("bandwidth-hz", bandwidthHz); set("bandwidth-probability", bandwidthProbability); set("target-bandwidth",
                                                                                                  targetBandwidth?.rawValue)
        set("codec", codec); set("codec-probability", codecProbability); set("mp3-bitrate-kbps", mp3BitrateKbps)
        set("opus-bitrate-kbps", opusBitrateKbps); set("opus-complexity", opusComplexity); set("vorbis-quality", vorbisQuality)
        set("packet-loss", packetLoss); set("packet-loss-probability", packetLossProbability); set("packet-ms", packetMs)
        set("max-burst-packets", maxBurstPackets); set("concealment", concealment?.rawValue)
        set("clip-distortion", clipDistortion); set("clip-distortion-probability", clipDistortionProbability)
        set("degradations-per-clip", degradationsPerClip); set("degradations-per-clip-weights", degradationsPerClipWeights)
        set("bandwidth-rates", bandwidthRates); set("clip-quantiles", clipQuantiles); set("silenced-clips", silencedClips?.rawValue)
        return values
    }

    func run() throws {
        MemoryTuning.keepFreedMemoryForReuse()
        if let fromManifest { return try render(fromManifest: fromManifest) }
        var values = try recipe.map { try MixSettings.loadRecipe(URL(fileURLWithPath: $0)) } ?? [:]
        values.merge(flagValues()) { _, flag in flag }
        let (options, inputs) = try MixSettings.parse(values)
        var request = MixJob.Request(options: options, inputs: inputs, output: URL(fileURLWithPath: out))
        request.params = values.mapValues { $0.joined(separator: ",") }
        try execute(request)
    }

    /// `--from-manifest`: the clips the manifest lists, with the job, archive and catalogue
    /// options; any option that draws clips is refused.
    private func render(fromManifest manifest: String) throws {
        let drawing = flagValues().keys.sorted().map { "--\($0)" } + (recipe == nil ? [] : ["--recipe"])
        guard drawing.isEmpty else {
            throw ValidationError("--from-manifest renders the clips its manifest lists and draws none: "
                                  + "\(drawing.joined(separator: ", ")) cannot go with it (edit the manifest to change a clip)")
        }
        var request = MixJob.Request(options: MixOptions(), inputs: MixInputs(speech: [], noise: []), output: URL(fileURLWithPath: out))
        request.fromManifest = URL(fileURLWithPath: manifest)
        try execute(request)
    }

    /// Runs the request with the job, archive and catalogue options, and prints the summary.
    private func execute(_ request: MixJob.Request) throws {
        var request = request
        request.shard = job.shard
        request.jobs = job.jobs
        request.overwrite = overwrite
        if let archive {
            request.archive = MixArchiveRequest(format: archive, clipsPerShard: archiveClips ?? MixArchiveLayout.defaultClipsPerShard)
            request.params["archive"] = archive.rawValue
            request.params["archive-clips"] = "\(request.archive!.clipsPerShard)"
        } else if archiveClips != nil {
            throw ValidationError("--archive-clips needs --archive tar")
        }
        let meter = ProgressMeter(label: "mix")
        let (result, run) = try MixJob.run(
            request, context: try recording.context(name: name),
            warn: { skipped in printError("warning: skipping \(skipped.kind.rawValue) \(skipped.path): \(skipped.reason)") },
            note: { printError("warning: " + $0) },
            curated: { s in
                print("\(s.kind) \(s.input): \(s.kept) files kept, \(s.excluded) excluded (the run's curated_sources says why)")
            },
            progress: { done, total in meter.update(done, of: total) })
        print(MixSummaryText.render(result))
        if let line = run.summaryLine { print(line) }
        if !result.failures.isEmpty { throw ExitCode(1) }
    }
}
