import Foundation
import Yams

/// Mix settings by name, as written on the command line (`--snr-db -5,0,5`) or in a recipe
/// (`snr-db: "-5,0,5"`). One parser serves both, so a recipe key and a flag always mean the same.
public enum MixSettings {
    /// Every recognised key, with its help text (the CLI and the README list these).
    public static let keys: [(key: String, help: String)] = [
        ("speech", "speech input: folder, file list (.txt/.lst/.scp) or file; repeatable"),
        ("noise", "noise input: folder, file list or file; repeatable"),
        ("rir", "room impulse responses: folder, file list or file; repeatable"),
        ("sample-rate", "corpus sample rate, Hz (default 16000), or native: each clip at its speech source's rate"),
        ("count", "number of clips"),
        ("hours", "hours of noisy audio (when --count is not given)"),
        ("seconds", "clip length, seconds (default 4)"),
        ("length-mode", "fixed | full-utterance | concatenate (default fixed)"),
        ("snr-db", "SNR list (-5,0,5,10) or uniform range (-5:20), dB"),
        ("snr-mode", "global | active (default global)"),
        ("noises-per-clip", "noise sources per clip, N or LOW:HIGH (default 1)"),
        ("level-dbfs", "mixture level list or range, dBFS (default -35:-15)"),
        ("level-mode", "rms | active | lufs (default rms)"),
        ("clipping", "rescale | reject | allow (default rescale)"),
        ("target", "clean stem under reverberation: dry | early | reverberant (default dry), aligned on the RIR's first arrival"),
        ("early-ms", "early window after the RIR's first arrival for --target early, ms (default 50)"),
        ("rir-probability", "probability a clip is reverberated (default 1)"),
        ("wind-probability", "probability a clip's noise is generated wind noise instead of its noise files (default 0)"),
        ("wind-snr-db", "SNR of the wind noise: list or range, dB (default -10:15)"),
        ("lowpass-hz", "band-limiting cut-off list or range, Hz"),
        ("lowpass-probability", "probability a clip is band-limited (default 0.5)"),
        ("split", "source splits, e.g. train=0.9,test=0.1 (default train=1)"),
        ("disjoint", "speakers: assign speakers, not files, to splits"),
        ("split-sources", "which files --split assigns: speech (noise and RIRs shared by all splits) | all (default all)"),
        ("speaker-pattern", "regular expression searched in each file's path relative to its folder; its first group is the speaker"),
        ("seed", "run seed (default 0)"),
        ("format", "pcm16 | float32 (default pcm16)"),
        ("crossfade-seconds", "crossfade when a noise loops (default 0.02)"),
        ("bandwidth-hz", "band limit of the noisy input: list or range of band edges, Hz (resampled to twice the edge and back)"),
        ("bandwidth-rates", "band limit of the noisy input: rates it is resampled to and back, one drawn below the corpus rate"),
        ("bandwidth-probability", "probability a clip is band-limited (default 1)"),
        ("target-bandwidth", "clean target under --bandwidth-hz: full | limited (default full)"),
        ("codec", "codecs of the noisy input, one drawn per clip: mp3,opus,vorbis,ulaw,alaw,gsm"),
        ("codec-probability", "probability a clip is coded (default 1)"),
        ("mp3-bitrate-kbps", "MP3 bitrate list or range, kbps (default 16:128; nearest MP3 bitrate)"),
        ("opus-bitrate-kbps", "Opus bitrate list or range, kbps (default 6:64)"),
        ("opus-complexity", "Opus encoder complexity 0-10, N or LOW:HIGH drawn per clip (default 10, as libsndfile, opusenc, ffmpeg)"),
        ("vorbis-quality", "Vorbis quality list or range, 0-1 (default 0.1:0.6)"),
        ("packet-loss", "packet-loss rate list or range, 0-1 (e.g. 0.05:0.25)"),
        ("packet-loss-probability", "probability a clip loses packets (default 1)"),
        ("packet-ms", "packet length, ms (default 20)"),
        ("max-burst-packets", "longest burst of lost packets (default 10)"),
        ("concealment", "lost packets: zero | repeat (the last packet received) (default zero)"),
        ("clip-distortion", "clipping threshold list or range, fraction of the noisy peak (e.g. 0.1:0.5)"),
        ("clip-quantiles", "clipping of the noisy input between drawn quantiles: LOWER,UPPER, values or ranges (0:0.1,0.9:1)"),
        ("clip-distortion-probability", "probability a clip is clip-distorted (default 1)"),
        ("degradations-per-clip", "how many enabled degradations a clip gets, COUNT:PROBABILITY,... (e.g. 0:0.25,1:0.4,2:0.2,3:0.15)"),
        ("degradations-per-clip-weights", "with --degradations-per-clip LOW:HIGH: a weight per count, summing to 1 (0.25,0.40,0.20,0.15)"),
        ("silenced-clips", "a clip the degradations leave silent: keep (level null) | fail (counted in clips_failed) (default keep)"),
    ]

    /// Loads a recipe: a YAML mapping from the keys above to a scalar or a list.
    /// - Throws: ``MixError/invalidOption(name:value:reason:)`` naming the file and key.
    public static func loadRecipe(_ url: URL) throws -> [String: [String]] {
        let text: String
        do { text = try String(contentsOf: url, encoding: .utf8) } catch {
            throw MixError.invalidOption(name: "recipe", value: url.path, reason: "cannot read: \(error.localizedDescription)")
        }
        let node: Any?
        do { node = try Yams.load(yaml: text) } catch {
            throw MixError.invalidOption(name: "recipe", value: url.path, reason: "not valid YAML: \(error)")
        }
        guard let mapping = node as? [String: Any] else {
            throw MixError.invalidOption(name: "recipe", value: url.path, reason: "expected a mapping of option names to values")
        }
        var values: [String: [String]] = [:]
        let folder = url.deletingLastPathComponent().path
        for (key, value) in mapping {
            if key == "description" { continue }
            guard keys.contains(where: { $0.key == key }) else {
                throw MixError.invalidOption(name: "recipe", value: url.path, reason: "unknown key '\(key)'")
            }
            let list: [String]
            if let array = value as? [Any] { list = array.map { "\($0)" } } else { list = ["\(value)"] }
            // Input paths in a recipe are relative to the recipe's folder.
            if ["speech", "noise", "rir"].contains(key) {
                values[key] = list.map { $0.hasPrefix("/") ? $0 : folder + "/" + $0 }
            } else {
                values[key] = list
            }
        }
        return values
    }

    /// Builds options and inputs from named values (recipe values already overridden by flags).
    /// - Throws: ``MixError/invalidOption(name:value:reason:)`` naming the key.
    public static func parse(_ values: [String: [String]]) throws -> (MixOptions, MixInputs) {
        var options = MixOptions()
        let reader = Values(values)
        func one(_ key: String) -> String? { reader.one(key) }
        func number(_ key: String) throws -> Double? { try reader.number(key) }
        func integer(_ key: String) throws -> Int? { try reader.integer(key) }
        func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws -> T? where T.RawValue == String {
            try reader.choice(key, type)
        }
        if let text = one("sample-rate") {
            if text == MixOptions.nativeRateName { options.nativeSampleRate = true } else {
                guard let rate = Int(text) else {
                    throw MixError.invalidOption(name: "sample-rate", value: text, reason: "expected a rate in Hz or 'native'")
                }
                options.sampleRate = rate
            }
        }
        options.count = try integer("count")
        options.hours = try number("hours")
        if let v = try number("seconds") { options.seconds = v }
        if let v = try choice("length-mode", MixOptions.LengthMode.self) { options.lengthMode = v }
        if let v = one("snr-db") { options.snrDB = try ValueSpec(parsing: v, option: "snr-db") }
        if let v = try choice("snr-mode", MixOptions.SNRMode.self) { options.snrMode = v }
        if let v = one("noises-per-clip") { options.noisesPerClip = try CountRange(parsing: v, option: "noises-per-clip", minimum: 1) }
        if let v = one("level-dbfs") { options.levelDBFS = try ValueSpec(parsing: v, option: "level-dbfs") }
        if let v = try choice("level-mode", MixOptions.LevelMode.self) { options.levelMode = v }
        if let v = try choice("clipping", MixOptions.ClippingPolicy.self) { options.clipping = v }
        if let v = try choice("target", MixOptions.ReverbTarget.self) { options.target = v }
        options.earlyMs = try number("early-ms")
        if let v = try number("rir-probability") { options.rirProbability = v }
        options.windProbability = try number("wind-probability")
        if let v = one("wind-snr-db") { options.windSNRDB = try ValueSpec(parsing: v, option: "wind-snr-db") }
        if let v = one("lowpass-hz") { options.lowpassHz = try ValueSpec(parsing: v, option: "lowpass-hz") }
        if let v = try number("lowpass-probability") { options.lowpassProbability = v }
        if let v = one("split") { options.split = try SplitSpec(parsing: v) }
        if try choice("disjoint", MixOptions.Disjointness.self) == .speakers {
            options.disjointSpeakers = true
        }
        options.splitSources = try choice("split-sources", MixOptions.SplitSources.self)
        if let text = one("seed") {
            guard let seed = UInt64(text) else { throw MixError.invalidOption(name: "seed", value: text,
                                                                              reason: "expected a whole number 0...2^64-1") }
            options.seed = seed
        }
        if let v = try choice("format", MixOptions.OutputFormat.self) { options.format = v }
        if let v = try number("crossfade-seconds") { options.crossfadeSeconds = v }
        try parseDegradations(reader, into: &options)
        try options.validate()
        let inputs = MixInputs(speech: values["speech"] ?? [], noise: values["noise"] ?? [], rir: values["rir"] ?? [],
                               speakerPattern: one("speaker-pattern"))
        if inputs.speech.isEmpty { throw MixError.invalidOption(name: "speech", value: "(none)", reason: "give at least one speech input") }
        if inputs.noise.isEmpty { throw MixError.invalidOption(name: "noise", value: "(none)", reason: "give at least one noise input") }
        return (options, inputs)
    }

    /// Named values with typed accessors (the last value of a key wins), each error naming the key.
    struct Values {
        let values: [String: [String]]
        init(_ values: [String: [String]]) { self.values = values }

        func one(_ key: String) -> String? { values[key]?.last }

        func number(_ key: String) throws -> Double? {
            guard let text = one(key) else { return nil }
            guard let value = Double(text), value.isFinite else { throw MixError.invalidOption(name: key, value: text,
                                                                                               reason: "not a number") }
            return value
        }

        func integer(_ key: String) throws -> Int? {
            guard let text = one(key) else { return nil }
            guard let value = Int(text) else { throw MixError.invalidOption(name: key, value: text, reason: "not a whole number") }
            return value
        }

        func spec(_ key: String) throws -> ValueSpec? {
            try one(key).map { try ValueSpec(parsing: $0, option: key) }
        }

        func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws -> T? where T.RawValue == String {
            guard let text = one(key) else { return nil }
            guard let value = T(rawValue: text) else {
                throw MixError.invalidOption(name: key, value: text,
                                             reason: "expected one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return value
        }
    }
}
