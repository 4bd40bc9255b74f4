import Foundation

/// What `sekit listen make` does, as one library entry point: draw the clips, copy the runs' outputs
/// (and the references and anchors) into `DIR/audio/`, write `DIR/test.json`, the test page
/// `DIR/index.html` and, for MUSHRA, `DIR/webmushra/config.yaml`, and record the run.
public enum ListenMakeJob {
    /// Everything a test needs.
    public struct Request: Sendable {
        /// Score runs (id, prefix or name), one condition each, named after the run.
        public var runs: [String]
        public var test: ListeningTestKind
        public var clips: Int
        public var out: URL
        public var seed: UInt64 = 0
        /// The test's name (default: the output folder's name).
        public var name: String?
        /// The integrated loudness (ITU-R BS.1770-4, LUFS) every stimulus (conditions, hidden
        /// reference, anchors, references) is scaled to; nil: the runs' own levels.
        public var loudnessLUFS: Double?
        /// P.808's trapping trial asks for its answer in the audio, spoken by espeak-ng after the clip
        /// (``SpokenTrap``), instead of in writing on the page.
        public var spokenTrap = false

        public init(runs: [String], test: ListeningTestKind, clips: Int, out: URL) {
            self.runs = runs
            self.test = test
            self.clips = clips
            self.out = out
        }
    }

    /// What was made.
    public struct Outcome: Sendable {
        public var manifest: ListeningTestManifest
        public var page: URL
        public var webMushra: URL?
        public var run: RecordedRun
        /// Stimuli whose level-equalising gain pushed samples beyond full scale (clipped in the file).
        public var clipped: [ClippedStimulus] = []
    }

    /// A file that clipped after its level-equalising gain.
    public struct ClippedStimulus: Sendable, Equatable {
        /// Relative to the test folder (`audio/s0003.wav`).
        public var file: String
        /// What it is (`clip s1-0000003, condition logmmse`).
        public var label: String
        public var samples: Int
    }

    /// Conditions a run may not be named (they are the test's own).
    public static let reservedConditions: Set<String> = ["anchor35", "anchor70", "reference", "noisy"]

    /// Band edges of MUSHRA's low-pass anchors, Hz (ITU-R BS.1534-3 §5.1).
    public static let anchorBandsHz = [("anchor35", 3500), ("anchor70", 7000)]

    /// Makes the test.
    /// - Throws: ``ListenError`` for an output folder that holds a test already, unknown or duplicate
    ///   runs, too few common clips, a run missing a
    ///   clip's file, no reference (MUSHRA, DCR, the P.808 gold trials) or no noisy input (CCR);
    ///   audio and catalogue errors.
    public static func run(_ request: Request, context: RunContext) throws -> Outcome {
        guard let catalog = context.catalog else {
            throw ListenError.invalidOption(name: "catalog", value: "", reason: "listen make reads the runs from a catalogue")
        }
        if let target = request.loudnessLUFS, !(target.isFinite && target < 0) {
            throw ListenError.invalidOption(
                name: "loudness-lufs", value: "\(target)", reason: "a loudness target is a negative number of LUFS (-23 or -26 are usual)")
        }
        if request.spokenTrap, !request.test.hasGoldAndTrap {
            throw ListenError.invalidOption(name: "spoken-trap", value: request.test.rawValue,
                                            reason: "a \(request.test.rawValue) test has no trapping trial (ACR, DCR, CCR and P.835 do)")
        }
        let runs = try request.runs.map { try catalog.resolveRun($0, kind: .score) }
        var seen = Set<String>()
        for run in runs {
            guard !reservedConditions.contains(run.name) else {
                throw ListenError.invalidOption(
                    name: "runs", value: run.name, reason: "\(run.name) is a condition of the test itself; rename the run")
            }
            guard seen.insert(run.name).inserted else {
                throw ListenError.invalidOption(
                    name: "runs", value: run.name, reason: "two runs are named \(run.name); a condition is a run's name")
            }
        }
        let scores = try runs.map { try RunScores.load(of: $0, from: catalog) }
        let plan = try ListeningTestPlan.draw(from: scores, count: request.clips, seed: request.seed)
        let pairs = try runs.map { run in
            ScorePairing.pairs(ofRunParams: Dictionary(try catalog.params(of: run.id).map { ($0.key, $0.valueText) }) { a, _ in a })
        }
        let name = request.name ?? request.out.standardizedFileURL.lastPathComponent
        // Raters may be rating a test already: its page and audio are never overwritten.
        let existing = request.out.appendingPathComponent(ListeningTestManifest.fileName)
        guard !FileManager.default.fileExists(atPath: existing.path) else {
            throw ListenError.invalidOption(name: "out", value: request.out.path,
                                            reason: "holds a listening test already (\(existing.lastPathComponent)); choose another folder")
        }
        try FileManager.default.createDirectory(at: request.out.appendingPathComponent("audio"), withIntermediateDirectories: true)
        let lock = try OutputLock(output: request.out.path, lockFile: request.out.appendingPathComponent(".sekit-listen.lock"))
        defer { withExtendedLifetime(lock) {} }
        var params = [
            "runs": runs.map(\.id.rawValue).joined(separator: ","), "test": request.test.rawValue,
            "clips": "\(request.clips)", "seed": "\(request.seed)", "out": request.out.standardizedFileURL.path, "name": name,
        ]
        if let target = request.loudnessLUFS { params["loudness_lufs"] = "\(target)" }
        if request.spokenTrap { params["spoken_trap"] = "1" }
        let recorded = try RecordedRun.begin(context, kind: .other, name: name, params: params)
        return try recorded.failing {
            var writer = StimulusWriter(folder: request.out, loudnessLUFS: request.loudnessLUFS)
            var made: [(ListeningTestManifest.Trial, ListeningTestManifest.Audio?)] = []
            for (index, clip) in plan.clips.enumerated() {
                // MUSHRA and DCR play every clip's clean reference; ACR and P.835 only in the gold and trapping
                // trials (the first two clips'); CCR compares with the noisy input.
                let keepsClean = request.test == .mushra || request.test == .dcr || (request.test != .ccr && index < 2)
                made.append(try trial(clip, runs: runs, pairs: pairs, request: request, keepsClean: keepsClean, writer: &writer))
            }
            var trials = made.map(\.0)
            if request.test.hasGoldAndTrap { trials += goldAndTrap(made, request: request) }
            if request.spokenTrap, let trap = trials.firstIndex(where: { $0.role == "trap" }) {
                trials[trap] = try SpokenTrap.speak(trials[trap], kind: request.test, folder: request.out, writer: &writer)
            }
            var conditions = runs.map(\.name)
            if request.test == .mushra { conditions += anchorBandsHz.map(\.0) + ["reference"] }
            var manifest = ListeningTestManifest(
                name: name, test: request.test, seed: request.seed, runs: runs.map { .init(name: $0.name, id: $0.id.rawValue) },
                conditions: conditions, scales: request.test.scales, scoreMin: request.test.range.lowerBound,
                scoreMax: request.test.range.upperBound, trials: trials, stimuliHash: "", loudnessLUFS: request.loudnessLUFS)
            manifest.stimuliHash = manifest.computeStimuliHash()
            let manifestURL = request.out.appendingPathComponent(ListeningTestManifest.fileName)
            try AtomicFile.write(try ReportJSON.data(manifest), to: manifestURL)
            let page = request.out.appendingPathComponent("index.html")
            try AtomicFile.write(Data(try ListeningPage.html(manifest).utf8), to: page)
            var webMushra: URL?
            if request.test == .mushra {
                let folder = request.out.appendingPathComponent("webmushra")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let config = folder.appendingPathComponent("config.yaml")
                try AtomicFile.write(Data(WebMushraConfig.yaml(manifest).utf8), to: config)
                webMushra = config
            }
            for (url, kind) in [(manifestURL, "listening-test"), (page, "listening-page")]
                + (webMushra.map { [($0, "webmushra-config")] } ?? [])
            {
                try recorded.recordArtifact(fileAt: url, kind: kind)
            }
            var finished = [
                "stimuli": "\(manifest.allStimuli.count)", "trials": "\(trials.count)",
                "stimuli_hash": manifest.stimuliHash,
            ]
            if request.loudnessLUFS != nil { finished["clipped_stimuli"] = "\(writer.clipped.count)" }
            try recorded.finish(params: finished)
            return Outcome(manifest: manifest, page: page, webMushra: webMushra, run: recorded, clipped: writer.clipped)
        }
    }

    /// A clip's trial (every run's output, and for MUSHRA the anchors and the hidden reference) and
    /// the clip's clean reference as written (nil for tests that need none, or when not `keepsClean`).
    static func trial(
        _ clip: ListeningTestPlan.Clip, runs: [RunRecord], pairs: [[String: ScorePair]], request: Request, keepsClean: Bool,
        writer: inout StimulusWriter
    ) throws -> (ListeningTestManifest.Trial, ListeningTestManifest.Audio?) {
        let short = RunScores.shortClipID(clip.id)
        let clipPairs = zip(runs, pairs).map { run, pairs in (run, pairs[clip.id] ?? pairs[short]) }
        var sources: [(String, URL)] = []
        for (run, pair) in clipPairs {
            guard let file = pair?.enhanced, FileManager.default.fileExists(atPath: file.path) else {
                throw ListenError.missingClip(
                    run: run.name, clip: clip.id,
                    reason: pair?.enhanced.map { "\($0.path) is gone" }
                        ?? "its parameters lead to no file for the clip")
            }
            sources.append((run.name, file))
        }
        let first = clipPairs[0].1
        let kind = request.test
        let needsReference = kind == .mushra || kind == .dcr || kind.hasGoldAndTrap
        var referenceURL: URL?
        if needsReference {
            guard let url = first?.reference, FileManager.default.fileExists(atPath: url.path) else {
                throw ListenError.missingClip(
                    run: runs[0].name, clip: clip.id, reason: "no clean reference (score the runs on a corpus or with --reference)")
            }
            referenceURL = url
        }
        let rate = try AudioFile.info(at: referenceURL ?? sources[0].1).sampleRate
        var trial = ListeningTestManifest.Trial(
            id: short, clip: clip.id, role: "test", snrDB: clip.snrDB, degradations: clip.degradations,
            reference: nil, stimuli: [])
        let clean = try referenceURL.map { try AudioFile.read(at: $0, sampleRate: rate).samples }
        let reference = try (keepsClean ? clean : nil).map {
            try writer.write($0, sampleRate: rate, prefix: "r", label: "clip \(clip.id), clean reference")
        }
        switch kind {
        case .mushra, .dcr: trial.reference = reference
        case .ccr:
            guard let noisy = first?.noisy, FileManager.default.fileExists(atPath: noisy.path) else {
                throw ListenError.missingClip(
                    run: runs[0].name, clip: clip.id,
                    reason: "no noisy input to compare with (CCR needs runs scored on a corpus with --enhanced)")
            }
            trial.reference = try writer.write(
                AudioFile.read(at: noisy, sampleRate: rate).samples, sampleRate: rate, prefix: "r", label: "clip \(clip.id), noisy input")
        case .acr, .p835: break
        }
        for (condition, url) in sources {
            let samples = try AudioFile.read(at: url, sampleRate: rate).samples
            let audio = try writer.write(samples, sampleRate: rate, prefix: "s", label: "clip \(clip.id), condition \(condition)")
            trial.stimuli.append(.init(short, condition, audio))
        }
        if kind == .mushra, let clean, let reference {
            for (condition, bandHz) in anchorBandsHz {
                let lowPassed = try Resampler.through(clean, sampleRate: rate, intermediateRate: min(rate, 2 * bandHz))
                let audio = try writer.write(lowPassed, sampleRate: rate, prefix: "s", label: "clip \(clip.id), condition \(condition)")
                trial.stimuli.append(.init(short, condition, audio))
            }
            trial.stimuli.append(.init(short, "reference", reference))
        }
        return (trial, reference)
    }

    /// P.808's screening trials: a gold trial (ACR and P.835: the clean reference; DCR and CCR: the
    /// trial's reference against itself), expecting the scale's best answer (±1 accepted), and a
    /// trapping trial whose instruction asks for a score drawn from the seed.
    static func goldAndTrap(
        _ trials: [(ListeningTestManifest.Trial, ListeningTestManifest.Audio?)],
        request: Request
    ) -> [ListeningTestManifest.Trial] {
        let kind = request.test
        var generator = SplitMix64(seed: SplitMix64.childSeed(request.seed, index: 0, stream: 0x7472_6170))
        let steps = Int(kind.range.upperBound - kind.range.lowerBound) + 1
        let trapIndex = generator.nextIndex(below: UInt64(steps))
        let trapScore = kind.range.lowerBound + Double(trapIndex)
        var made: [ListeningTestManifest.Trial] = []
        for (role, (source, clean)) in [("gold", trials[0]), ("trap", trials[trials.count > 1 ? 1 : 0])] {
            let comparing = kind == .dcr || kind == .ccr
            let audio = comparing ? source.reference! : clean!
            var trial = ListeningTestManifest.Trial(
                id: role, clip: source.clip, role: role, snrDB: source.snrDB, degradations: source.degradations,
                reference: comparing ? audio : nil,
                stimuli: [.init(role, "reference", audio)])
            if role == "gold" {
                trial.expected = kind.goldScore
            } else {
                trial.expected = trapScore
                let label = kind.labels(scale: kind.scales.last!)[trapIndex]
                let scales = kind.scales.count > 1 ? " on every scale" : ""
                trial.instruction =
                    "Attention check: whatever you hear, answer \(ReportNumber.fixed(trapScore, decimals: 0)) (\(label))\(scales)."
            }
            made.append(trial)
        }
        return made
    }
}
