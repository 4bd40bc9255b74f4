import ArgumentParser
import Foundation
import SEKit

extension NoiseEstimateMethod: ExpressibleByArgument {}
extension EnhancementWindow: ExpressibleByArgument {}

/// The blind methods' parameters as flags (`sekit enhance`); each left out keeps Loizou's or the
/// paper's default (``BlindEnhancerParameters``), shown in `--help`.
struct EnhanceParameterOptions: ParsableArguments {
    static let defaults = BlindEnhancerParameters()

    @Option(help: ArgumentHelp("""
        Noise estimate of the blind methods: leading (the first --leading-seconds, then updated in frames a detector calls noise) \
        or mcra (Cohen & Berdugo 2002, tracks non-stationary noise).
        """, valueName: "method"))
    var noiseEstimate: NoiseEstimateMethod = defaults.noiseEstimate
    @Option(help: ArgumentHelp("Noise-only lead-in for --noise-estimate leading, seconds.", valueName: "s"))
    var leadingSeconds: Double = defaults.leadingSeconds
    @Option(help: ArgumentHelp("Analysis frame, seconds (Loizou: 0.02).", valueName: "s"))
    var frameSeconds: Double = defaults.frameSeconds
    @Option(help: ArgumentHelp("Frame overlap, fraction of a frame.", valueName: "fraction"))
    var overlap: Double = defaults.overlap
    @Option(help: ArgumentHelp("Analysis window: matlab-hanning (Loizou), hann (the logmmse package), hamming.", valueName: "window"))
    var window: EnhancementWindow = defaults.window
    @Option(help: ArgumentHelp("FFT size as a multiple of the frame length.", valueName: "n"))
    var fftSizeFactor: Int = defaults.fftSizeFactor
    @Option(help: ArgumentHelp("Voice activity threshold of the decision-directed methods' noise update (logmmse.m).", valueName: "x"))
    var vadThreshold: Double = defaults.vadThreshold
    @Option(help: ArgumentHelp("Smoothing of that noise update (1 keeps the lead-in estimate).", valueName: "x"))
    var noiseSmoothing: Double = defaults.noiseSmoothing
    @Option(parsing: .unconditional, help: ArgumentHelp("specsub: frames below this SNR update the noise, dB.", valueName: "dB"))
    var specsubVadThresholdDb: Double = defaults.specsubVADThresholdDB
    @Option(help: ArgumentHelp("specsub: smoothing of its noise update.", valueName: "x"))
    var specsubNoiseSmoothing: Double = defaults.specsubNoiseSmoothing
    @Option(help: ArgumentHelp("MCRA time smoothing of the power spectrum.", valueName: "x"))
    var mcraAlphaS: Double = defaults.mcraAlphaS
    @Option(help: ArgumentHelp("MCRA smoothing of the noise estimate.", valueName: "x"))
    var mcraAlphaD: Double = defaults.mcraAlphaD
    @Option(help: ArgumentHelp("MCRA smoothing of the speech-presence probability.", valueName: "x"))
    var mcraAlphaP: Double = defaults.mcraAlphaP
    @Option(help: ArgumentHelp("MCRA speech-presence threshold (ratio to the minimum).", valueName: "x"))
    var mcraDelta: Double = defaults.mcraDelta
    @Option(help: ArgumentHelp("MCRA minimum-search window, seconds.", valueName: "s"))
    var mcraWindowSeconds: Double = defaults.mcraWindowSeconds
    @Option(help: ArgumentHelp("Decision-directed smoothing of the a priori SNR.", valueName: "x"))
    var alphaDd: Double = defaults.alphaDD
    @Option(parsing: .unconditional, help: ArgumentHelp("Floor of the a priori SNR, dB.", valueName: "dB"))
    var ksiMinDb: Double = defaults.ksiMinDB
    @Option(help: ArgumentHelp("Cap of the a posteriori SNR (power ratio).", valueName: "x"))
    var gammaMax: Double = defaults.gammaMax
    @Option(help: ArgumentHelp("specsub: over-subtraction factor (default: Berouti's rule from each frame's SNR).", valueName: "x"))
    var overSubtraction: Double?
    @Option(help: ArgumentHelp("specsub: spectral floor, fraction of the noise power.", valueName: "x"))
    var spectralFloor: Double = defaults.spectralFloor

    /// The parameters (validated by the enhancer, which names the flag at fault).
    var parameters: BlindEnhancerParameters {
        var p = BlindEnhancerParameters()
        p.noiseEstimate = noiseEstimate; p.leadingSeconds = leadingSeconds; p.frameSeconds = frameSeconds; p.overlap = overlap
        p.window = window; p.fftSizeFactor = fftSizeFactor; p.vadThreshold = vadThreshold; p.noiseSmoothing = noiseSmoothing
        p.specsubVADThresholdDB = specsubVadThresholdDb; p.specsubNoiseSmoothing = specsubNoiseSmoothing
        p.mcraAlphaS = mcraAlphaS; p.mcraAlphaD = mcraAlphaD; p.mcraAlphaP = mcraAlphaP; p.mcraDelta = mcraDelta
        p.mcraWindowSeconds = mcraWindowSeconds; p.alphaDD = alphaDd; p.ksiMinDB = ksiMinDb; p.gammaMax = gammaMax
        p.overSubtraction = overSubtraction; p.spectralFloor = spectralFloor
        return p
    }

    /// Whether any blind parameter differs from its default (then an oracle method is refused it).
    var changed: Bool { parameters != Self.defaults }
}
