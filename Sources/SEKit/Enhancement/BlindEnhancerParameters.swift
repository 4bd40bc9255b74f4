/// The analysis window of the blind enhancers. All are symmetric (MATLAB's default): the framing
/// synthesises by plain overlap-add of the filtered frames, with the window scaled so that its
/// overlapped copies sum to about 1 (`w·hop/Σw`, Loizou's normalisation).
public enum EnhancementWindow: String, Sendable, CaseIterable, Codable {
    /// MATLAB `hanning(L)`: 0.5·(1 − cos(2πn/(L+1))), n = 1...L, no zero end points. Loizou's
    /// logmmse.m, mmse.m and specsub.m.
    case matlabHanning = "matlab-hanning"
    /// Symmetric Hann with zero end points, 0.5·(1 − cos(2πn/(L−1))), n = 0...L−1: numpy
    /// `hanning(L)`, MATLAB `hann(L)`. The `logmmse` PyPI package.
    case hann
    /// Symmetric Hamming, 0.54 − 0.46·cos(2πn/(L−1)): MATLAB `hamming(L)`, Loizou's wiener_as.m.
    case hamming

    /// The window's L samples, unscaled.
    func samples(length: Int) -> [Double] {
        switch self {
        case .matlabHanning: Window.matlabHanning(length: length)
        case .hann: Window.make(.hann, length: length, periodic: false)
        case .hamming: Window.make(.hamming, length: length, periodic: false)
        }
    }
}

/// Every tunable parameter of the blind enhancers, with Loizou's (MATLAB code of "Speech
/// Enhancement: Theory and Practice", 2nd ed., 2013) or the papers' defaults. Each property's name
/// in ``recorded`` is its command-line flag and the parameter name of ``EnhancementError``.
public struct BlindEnhancerParameters: Sendable, Equatable, Codable {
    // MARK: Framing (all methods)

    /// Analysis frame, seconds (`frame-seconds`; Loizou: 0.020). The frame length in samples is
    /// ⌊frameSeconds·sampleRate⌋, made even by adding one when odd (as the MATLAB code does).
    public var frameSeconds: Double = 0.02
    /// Overlap between frames as a fraction of the frame (`overlap`; Loizou: 0.5). The hop is
    /// L − ⌊L·overlap⌋ samples.
    public var overlap: Double = 0.5
    /// Analysis window (`window`; Loizou's logmmse.m: MATLAB `hanning`).
    public var window: EnhancementWindow = .matlabHanning
    /// FFT size as a multiple of the frame length (`fft-size-factor`; Loizou's logmmse.m and
    /// mmse.m: 2, i.e. each frame zero-padded to twice its length).
    public var fftSizeFactor: Int = 2

    // MARK: Noise estimate

    /// How λ is estimated (`noise-estimate`).
    public var noiseEstimate: NoiseEstimateMethod = .leading
    /// Noise-only lead-in for ``NoiseEstimateMethod/leading``, seconds (`leading-seconds`; 0.25).
    /// λ starts as the squared mean magnitude of the ⌊leadingSeconds·sampleRate/L⌋
    /// non-overlapping frames it holds. Loizou's code uses 6 frames of 20 ms (0.12 s; specsub.m 5).
    public var leadingSeconds: Double = 0.25
    /// Threshold η of the likelihood-ratio voice activity detector that updates λ in noise-only
    /// frames for the decision-directed methods, dimensionless (`vad-threshold`; logmmse.m: 0.15).
    public var vadThreshold: Double = 0.15
    /// Smoothing μ of that update, λ ← μ·λ + (1 − μ)·|Y|² (`noise-smoothing`; logmmse.m: 0.98;
    /// 1 keeps the lead-in estimate).
    public var noiseSmoothing: Double = 0.98
    /// specsub's detector: a frame whose SNR 10·log10(Σ|Y|²/Σλ) is below this is noise only, dB
    /// (`specsub-vad-threshold-db`; specsub.m: 3).
    public var specsubVADThresholdDB: Double = 3
    /// specsub's update smoothing, λ ← μ·λ + (1 − μ)·|Y|² (`specsub-noise-smoothing`; specsub.m: 0.9).
    public var specsubNoiseSmoothing: Double = 0.9
    /// MCRA smoothing αs of the power spectrum in time (`mcra-alpha-s`; Cohen & Berdugo: 0.8).
    public var mcraAlphaS: Double = 0.8
    /// MCRA smoothing αd of the noise estimate (`mcra-alpha-d`; Cohen & Berdugo: 0.95).
    public var mcraAlphaD: Double = 0.95
    /// MCRA smoothing αp of the speech-presence probability (`mcra-alpha-p`; Cohen & Berdugo: 0.2).
    public var mcraAlphaP: Double = 0.2
    /// MCRA threshold δ on the ratio of the smoothed power to its minimum, above which speech is
    /// present (`mcra-delta`, linear; Cohen & Berdugo: 5).
    public var mcraDelta: Double = 5
    /// MCRA minimum-search window, seconds (`mcra-window-seconds`; Loizou's mcra_estimation.m:
    /// 100 frames at a 10 ms hop = 1 s). Rounded to whole hops.
    public var mcraWindowSeconds: Double = 1

    // MARK: Decision-directed methods (mmse-stsa, logmmse, wiener)

    /// Decision-directed smoothing α of the a priori SNR (`alpha-dd`; Ephraim & Malah, Loizou: 0.98).
    public var alphaDD: Double = 0.98
    /// Floor of the a priori SNR ξ, dB (`ksi-min-db`; Loizou's logmmse.m and mmse.m: −25).
    public var ksiMinDB: Double = -25
    /// Cap of the a posteriori SNR γ, linear power ratio (`gamma-max`; logmmse.m and mmse.m: 40).
    public var gammaMax: Double = 40

    // MARK: Spectral subtraction

    /// Over-subtraction factor α (`over-subtraction`); nil: Berouti's rule from each frame's SNR,
    /// α = 4 − 0.15·SNR dB on [−5, 20] dB, 5 below, 1 above (specsub.m's `berouti`).
    public var overSubtraction: Double? = nil
    /// Spectral floor β, as a fraction of the noise power (`spectral-floor`; specsub.m: 0.002;
    /// Berouti et al. suggest 0.005 to 0.1 at low SNR).
    public var spectralFloor: Double = 0.002

    /// Loizou's and the papers' defaults.
    public init() {}

    /// The run parameters as flag names → values, for the catalogue: every parameter, whatever
    /// the method (see ``recorded(for:)`` for those a method uses). `over-subtraction` is
    /// `berouti` when nil.
    public var recorded: [String: String] {
        var all = [String: String]()
        for entry in entries { all[entry.name] = entry.value }
        return all
    }

    /// The parameters `method` with this noise estimate actually uses, as flag names → values.
    public func recorded(for method: BlindMethod) -> [String: String] {
        var used = [String: String]()
        for entry in entries where entry.usedBy(method, noiseEstimate) { used[entry.name] = entry.value }
        return used
    }

    /// The parameters set away from their defaults that `method` with this noise estimate does
    /// not use (`alpha-dd` for specsub, `over-subtraction` for logmmse, `mcra-*` with the leading
    /// estimate), as flag names and values in flag order: they would change nothing.
    public func unused(by method: BlindMethod) -> [(name: String, value: String)] {
        let defaults = Dictionary(uniqueKeysWithValues: Self().entries.map { ($0.name, $0.value) })
        return entries.filter { !$0.usedBy(method, noiseEstimate) && defaults[$0.name] != $0.value }.map { ($0.name, $0.value) }
    }

    /// One parameter: flag name, value, and which configurations use it.
    private struct Entry {
        enum Scope { case all, leading, mcra, decisionDirected, decisionDirectedLeading, specsub, specsubLeading }
        let name: String
        let value: String
        let scope: Scope

        func usedBy(_ method: BlindMethod, _ noise: NoiseEstimateMethod) -> Bool {
            let specsub = method == .specsub, leading = noise == .leading
            switch scope {
            case .all: return true
            case .leading: return leading
            case .mcra: return !leading
            case .decisionDirected: return !specsub
            case .decisionDirectedLeading: return !specsub && leading
            case .specsub: return specsub
            case .specsubLeading: return specsub && leading
            }
        }
    }

    private var entries: [Entry] {
        [
            Entry(name: "frame-seconds", value: "\(frameSeconds)", scope: .all),
            Entry(name: "overlap", value: "\(overlap)", scope: .all),
            Entry(name: "window", value: window.rawValue, scope: .all),
            Entry(name: "fft-size-factor", value: "\(fftSizeFactor)", scope: .all),
            Entry(name: "noise-estimate", value: noiseEstimate.rawValue, scope: .all),
            Entry(name: "leading-seconds", value: "\(leadingSeconds)", scope: .leading),
            Entry(name: "vad-threshold", value: "\(vadThreshold)", scope: .decisionDirectedLeading),
            Entry(name: "noise-smoothing", value: "\(noiseSmoothing)", scope: .decisionDirectedLeading),
            Entry(name: "specsub-vad-threshold-db", value: "\(specsubVADThresholdDB)", scope: .specsubLeading),
            Entry(name: "specsub-noise-smoothing", value: "\(specsubNoiseSmoothing)", scope: .specsubLeading),
            Entry(name: "mcra-alpha-s", value: "\(mcraAlphaS)", scope: .mcra),
            Entry(name: "mcra-alpha-d", value: "\(mcraAlphaD)", scope: .mcra),
            Entry(name: "mcra-alpha-p", value: "\(mcraAlphaP)", scope: .mcra),
            Entry(name: "mcra-delta", value: "\(mcraDelta)", scope: .mcra),
            Entry(name: "mcra-window-seconds", value: "\(mcraWindowSeconds)", scope: .mcra),
            Entry(name: "alpha-dd", value: "\(alphaDD)", scope: .decisionDirected),
            Entry(name: "ksi-min-db", value: "\(ksiMinDB)", scope: .decisionDirected),
            Entry(name: "gamma-max", value: "\(gammaMax)", scope: .decisionDirected),
            Entry(name: "over-subtraction", value: overSubtraction.map { "\($0)" } ?? "berouti", scope: .specsub),
            Entry(name: "spectral-floor", value: "\(spectralFloor)", scope: .specsub),
        ]
    }

    /// Checks every parameter on its own (those that depend on the sample rate are checked by
    /// ``BlindEnhancer/enhance(_:sampleRate:)``).
    /// - Throws: ``EnhancementError/invalidParameter(name:value:reason:)`` naming the first bad one.
    func validate() throws(EnhancementError) {
        func require(_ ok: Bool, _ name: String, _ value: Double, _ reason: String) throws(EnhancementError) {
            guard ok else { throw .invalidParameter(name: name, value: "\(value)", reason: reason) }
        }
        func fraction(_ value: Double, _ name: String, upTo one: Bool = true) throws(EnhancementError) {
            try require(value >= 0 && (one ? value <= 1 : value < 1), name, value, one ? "must be in [0, 1]" : "must be in [0, 1)")
        }
        try require(frameSeconds > 0 && frameSeconds <= 1, "frame-seconds", frameSeconds, "must be in (0, 1] seconds")
        try fraction(overlap, "overlap", upTo: false)
        guard (1...16).contains(fftSizeFactor) else {
            throw .invalidParameter(name: "fft-size-factor", value: "\(fftSizeFactor)", reason: "must be in 1...16")
        }
        try require(leadingSeconds.isFinite && leadingSeconds >= frameSeconds, "leading-seconds", leadingSeconds,
                    "must hold at least one frame (frame-seconds = \(frameSeconds))")
        try require(vadThreshold.isFinite, "vad-threshold", vadThreshold, "must be finite")
        try fraction(noiseSmoothing, "noise-smoothing")
        try require(specsubVADThresholdDB.isFinite, "specsub-vad-threshold-db", specsubVADThresholdDB, "must be finite")
        try fraction(specsubNoiseSmoothing, "specsub-noise-smoothing")
        try fraction(mcraAlphaS, "mcra-alpha-s", upTo: false)
        try fraction(mcraAlphaD, "mcra-alpha-d")
        try fraction(mcraAlphaP, "mcra-alpha-p")
        try require(mcraDelta.isFinite && mcraDelta >= 1, "mcra-delta", mcraDelta, "must be a finite ratio of at least 1")
        try require(mcraWindowSeconds.isFinite && mcraWindowSeconds > 0 && mcraWindowSeconds <= 60, "mcra-window-seconds",
                    mcraWindowSeconds, "must be in (0, 60] seconds")
        try fraction(alphaDD, "alpha-dd")
        try require(ksiMinDB.isFinite && ksiMinDB <= 0, "ksi-min-db", ksiMinDB, "must be finite and at most 0 dB")
        try require(gammaMax.isFinite && gammaMax >= 1, "gamma-max", gammaMax, "must be finite and at least 1")
        if let overSubtraction {
            try require(overSubtraction.isFinite && overSubtraction >= 0, "over-subtraction", overSubtraction,
                        "must be finite and non-negative")
        }
        try fraction(spectralFloor, "spectral-floor")
    }
}
