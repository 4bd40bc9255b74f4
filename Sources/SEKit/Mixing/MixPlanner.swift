import Foundation

/// Draws clip plans. Pure and deterministic: plan `i` depends only on the options, the sorted
/// sources and `i`, never on `--jobs`, shards or the order the file system lists inputs in.
public struct MixPlanner: Sendable {
    public private(set) var options: MixOptions
    public let speech: [MixSource]
    public let noise: [MixSource]
    public let rirs: [MixSource]
    /// For each split (in `options.split` order), indices of its speech / noise / RIR sources.
    public let speechBySplit: [[Int]]
    public let noiseBySplit: [[Int]]
    public let rirBySplit: [[Int]]
    /// Number of clips in the run.
    public let clipCount: Int
    /// The plans read from a manifest (`sekit mix --from-manifest`), which ``plan(index:attempt:)``
    /// returns instead of drawing; nil for a drawn mix.
    public let manifest: MixManifestPlans?

    /// Seed streams, so the split assignment and the clips draw from unrelated sequences.
    private enum Stream: UInt64 { case clips = 1, speechSplit = 2, noiseSplit = 3, rirSplit = 4 }

    /// Sorts the sources by key, assigns them to splits and fixes the clip count.
    /// - Throws: ``MixError`` when a kind has no sources or splits cannot be made disjoint.
    public init(options: MixOptions, speech: [MixSource], noise: [MixSource], rirs: [MixSource]) throws {
        try options.validate()
        guard !speech.isEmpty else { throw MixError.noUsableSources(kind: "speech", skipped: 0) }
        guard !noise.isEmpty else { throw MixError.noUsableSources(kind: "noise", skipped: 0) }
        self.options = options
        self.speech = speech.sorted { $0.key < $1.key }
        self.noise = noise.sorted { $0.key < $1.key }
        self.rirs = rirs.sorted { $0.key < $1.key }
        let seed = options.seed
        speechBySplit = try SplitAssignment.assign(self.speech, spec: options.split,
            seed: SplitMix64.childSeed(seed, index: 0, stream: Stream.speechSplit.rawValue),
            bySpeaker: options.disjointSpeakers, kind: "speech")
        let splits = options.split.names.count
        if options.splitSources == .speech {
            // Noise and RIR files are shared: every split draws from all of them.
            noiseBySplit = Array(repeating: Array(self.noise.indices), count: splits)
            rirBySplit = Array(repeating: Array(self.rirs.indices), count: splits)
        } else {
            noiseBySplit = try SplitAssignment.assign(self.noise, spec: options.split,
                seed: SplitMix64.childSeed(seed, index: 0, stream: Stream.noiseSplit.rawValue),
                bySpeaker: false, kind: "noise")
            rirBySplit = self.rirs.isEmpty ? Array(repeating: [], count: splits)
                : try SplitAssignment.assign(self.rirs, spec: options.split,
                    seed: SplitMix64.childSeed(seed, index: 0, stream: Stream.rirSplit.rawValue),
                    bySpeaker: false, kind: "rir")
        }
        let planned: Int
        if let count = options.count {
            planned = count
        } else {
            let hours = options.hours!
            if options.lengthMode == .fullUtterance {
                // Utterance lengths vary: the mean over the speech sources sets the count.
                let rate = options.sampleRate, native = options.isNativeRate
                let meanSeconds = self.speech.map { native ? $0.durationSeconds : Double($0.frames(atRate: rate)) / Double(rate) }.reduce(0,
                                                                                                            +) / Double(self.speech.count)
                planned = max(1, Int(min(1e15, (hours * 3600 / meanSeconds).rounded(.up))))
            } else {
                planned = max(1, Int(min(1e15, (hours * 3600 / options.seconds).rounded(.up))))
            }
        }
        guard planned <= MixOptions.maximumClipCount else {
            throw MixError.invalidOption(name: options.count == nil ? "hours" : "count",
                                         value: options.count.map(String.init) ?? "\(options.hours!)",
                reason: "gives \(planned) clips, more than one mix makes (at most \(MixOptions.maximumClipCount)); "
                    + "make a larger corpus as several mixes")
        }
        clipCount = planned
        manifest = nil
        if options.isNativeRate { try NativeRates.refuseUnreachable(self) }
    }

    /// This planner with the corpus rate `rate` (`--sample-rate native` renders each rate's clips
    /// with one): the same draws, the rate-dependent stages at `rate`.
    func atRate(_ rate: Int) -> MixPlanner {
        var copy = self
        copy.options.sampleRate = rate
        return copy
    }

    /// The sample rate of `plan`'s clip, Hz.
    public func sampleRate(of plan: ClipPlan) -> Int { plan.sampleRate ?? options.sampleRate }

    /// A planner that draws nothing: it returns the plans of `manifest`, whose source indices
    /// point into `speech`, `noise` and `rirs` (``MixManifestPlans/planner(manifest:jobs:note:)``).
    init(manifest: MixManifestPlans, options: MixOptions, speech: [MixSource], noise: [MixSource], rirs: [MixSource]) {
        self.options = options
        self.speech = speech; self.noise = noise; self.rirs = rirs
        speechBySplit = []; noiseBySplit = []; rirBySplit = []
        clipCount = manifest.indices.count
        self.manifest = manifest
    }

    /// The clip indices of the run, in order: 0 ..< clipCount, or those the manifest lists.
    public var clipIndices: [Int] { manifest?.indices ?? Array(0..<clipCount) }

    /// The id of clip `index`.
    public func clipID(index: Int) -> String {
        manifest?.plans[index]?.clipID ?? ClipPlan.clipID(seed: options.seed, index: index)
    }

    /// Clip `index`'s generator after its first draw, its split and the speech source that draw picks
    /// (the clip's first speech piece; under `--sample-rate native` it fixes the clip's rate).
    private func start(index: Int) -> (rng: SplitMix64, seed: UInt64, split: Int, speech: Int) {
        let seed = SplitMix64.childSeed(options.seed, index: UInt64(index), stream: Stream.clips.rawValue)
        var rng = SplitMix64(seed: seed)
        let split = options.split.split(ofClip: index, count: clipCount)
        let pool = speechBySplit[split]
        let speech = pool[rng.nextIndex(below: pool.count)]  // drawn before rng is returned: the plan goes on from here
        return (rng, seed, split, speech)
    }

    /// The rates the clips of a `--sample-rate native` mix have, ascending: each clip's first speech
    /// source's rate (one draw per clip, not whole plans), or the manifest's recorded rates.
    public func clipRates() -> [Int] {
        if let manifest { return Array(Set(manifest.plans.values.map(sampleRate(of:)))).sorted() }
        var rates = Set<Int>()
        for index in 0..<clipCount { rates.insert(speech[start(index: index).speech].sampleRate) }
        return rates.sorted()
    }

    /// The plan of clip `index` (0 ≤ index < clipCount). O(pieces); allocates only the plan.
    /// `attempt` > 0 redraws the level (used by `--clipping reject`).
    /// From a manifest, the clip's plan as recorded (`attempt` is ignored: its level is an input).
    public func plan(index: Int, attempt: Int = 0) -> ClipPlan {
        if let manifest { return manifest.plans[index]! }
        let (started, clipSeed, splitIndex, first) = start(index: index)
        var rng = started
        let speechPool = speechBySplit[splitIndex]
        var noisePool = noiseBySplit[splitIndex]
        let rirPool = rirBySplit[splitIndex]

        // Speech; under `--sample-rate native` it fixes the clip's rate and the noise files it may use.
        var options = self.options
        if options.isNativeRate {
            options.sampleRate = speech[first].sampleRate
            noisePool = NativeRates.noisePool(noisePool, noise: noise, reaching: options.sampleRate)
        }
        let rate = options.sampleRate
        var pieces: [ClipPlan.SpeechPiece] = []
        var length: Int
        switch options.lengthMode {
        case .fullUtterance:
            length = speech[first].frames(atRate: rate)
            pieces = [.init(source: first, offset: 0, length: length, position: 0)]
        case .fixed:
            length = max(1, Int((options.seconds * Double(rate)).rounded()))
            let available = speech[first].frames(atRate: rate)
            if available >= length {
                let offset = rng.nextIndex(below: available - length + 1)
                pieces = [.init(source: first, offset: offset, length: length, position: 0)]
            } else {
                let position = rng.nextIndex(below: length - available + 1)
                pieces = [.init(source: first, offset: 0, length: available, position: position)]
            }
        case .concatenate:
            length = max(1, Int((options.seconds * Double(rate)).rounded()))
            let speaker = speech[first].speaker
            let sameSpeaker = speaker == nil ? [first] : speechPool.filter { speech[$0].speaker == speaker }
            var position = 0
            var source = first
            while position < length {
                let take = min(speech[source].frames(atRate: rate), length - position)
                pieces.append(.init(source: source, offset: 0, length: take, position: position))
                position += take
                source = sameSpeaker[rng.nextIndex(below: sameSpeaker.count)]
            }
        }

        // SNR and noises: k sources share the noise power with random weights in [0.25, 1.25).
        let snr = options.snrDB.draw(using: &rng)
        let noiseCount = min(options.noisesPerClip.draw(using: &rng), max(1, noisePool.count))
        var weights = (0..<noiseCount).map { _ in 0.25 + rng.nextUnitInterval() }
        let total = weights.reduce(0, +)
        weights = weights.map { $0 / total }
        var chosen: [Int] = []
        var noises: [ClipPlan.NoisePiece] = []
        for k in 0..<noiseCount {
            var pick = noisePool[rng.nextIndex(below: noisePool.count)]
            // Prefer distinct noise files within one clip when the pool allows it.
            for _ in 0..<8 where chosen.contains(pick) && noisePool.count > noiseCount {
                pick = noisePool[rng.nextIndex(below: noisePool.count)]
            }
            chosen.append(pick)
            let offset = rng.nextIndex(below: max(1, noise[pick].frames(atRate: rate)))
            noises.append(.init(source: pick, offset: offset, snrDB: snr - 10 * log10(weights[k])))
        }

        // Level, reverberation, band-limiting.
        var level = options.levelDBFS.draw(using: &rng)
        var rir: Int? = nil
        if !rirPool.isEmpty, rng.nextUnitInterval() < options.rirProbability {
            rir = rirPool[rng.nextIndex(below: rirPool.count)]
        }
        var lowpass: Double? = nil
        if let spec = options.lowpassHz, rng.nextUnitInterval() < options.lowpassProbability {
            lowpass = spec.draw(using: &rng)
            // A native clip below the highest rate: a cut-off at or above its Nyquist frequency does nothing.
            if options.isNativeRate, let cutoff = lowpass, cutoff >= Double(rate) / 2 { lowpass = nil }
        }
        if attempt > 0 {
            var retry = SplitMix64(seed: SplitMix64.childSeed(clipSeed, index: UInt64(attempt)))
            level = options.levelDBFS.draw(using: &retry)
        }
        var plan = ClipPlan(
            index: index, clipID: ClipPlan.clipID(seed: options.seed, index: index),
            split: options.split.names[splitIndex], seed: clipSeed, length: length,
            speech: pieces, noises: noises, snrDB: snr, levelDBFS: level, rir: rir, lowpassHz: lowpass,
            degradations: DegradationDraws.draw(options: options, clipIndex: index, length: length))
        if options.isNativeRate { plan.sampleRate = rate }
        if let wind = Self.windDraw(options: options, clipIndex: index) {
            // Wind noise replaces the noise sources (as in the URGENT simulation), at its own SNR.
            plan.wind = wind
            plan.noises = []
            plan.snrDB = wind.snrDB
        }
        return plan
    }

    /// The stream wind noise draws from.
    static let windStream = "wind"
    /// The default SNR range of wind noise, dB.
    static let defaultWindSNRDB = ValueSpec.uniform(low: -10, high: 15)

    /// Whether clip `clipIndex` gets wind noise, its SNR and its generator's seed, from the wind
    /// stream alone (so other draws are as without `--wind-probability`).
    static func windDraw(options: MixOptions, clipIndex: Int) -> WindDraw? {
        guard let probability = options.windProbability else { return nil }
        var generator = MixStageRandom.generator(seed: options.seed, clipIndex: clipIndex, stage: windStream)
        guard generator.nextUnitInterval() < probability else { return nil }
        let snr = (options.windSNRDB ?? defaultWindSNRDB).draw(using: &generator)
        return WindDraw(snrDB: snr, seed: generator.next())
    }
}
