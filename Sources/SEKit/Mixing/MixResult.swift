import Foundation

/// What a finished (or resumed) mix did.
public struct MixResult: Sendable {
    /// Clips rendered and written by this invocation.
    public var written: Int
    /// Clips found complete from an earlier, interrupted invocation and not redone.
    public var resumed: Int
    /// Clips that could not be made, with the reason (also in the run's `failed` list).
    public var failures: [(index: Int, reason: String)]
    /// Sources left out, with the reason.
    public var skippedSources: [SkippedSource]
    /// All records of this shard, in clip order (what `manifest.jsonl` holds).
    public var records: [MixManifestRecord]
    public var layout: MixCorpusLayout
    /// Seconds of noisy audio in the manifest.
    public var audioSeconds: Double
    /// RIRs the clips use whose largest sample comes more than 5 ms after their first arrival
    /// (``RIRAlignment/hasLatePeak(_:sampleRate:)``): the summary warns, the run counts them.
    public var latePeakRIRs: [String] = []
    /// The rule the stems are aligned on (``MixOptions/rirAlignment``; `peak` for a resumed old mix).
    public var rirAlignment: RIRAlignment = .onset
}
