/// The Wiener gain with decision-directed a priori SNR (Scalart & Vieira Filho, "Speech
/// enhancement based on a priori signal to noise estimation", ICASSP 1996):
/// G = ξ/(1 + ξ).
///
/// Loizou's wiener_as.m applies the square root of this gain, √(ξ/(1 + ξ)), and computes ξ from
/// the previous frame's noise estimate; SEKit applies the Wiener gain itself, in the framing and
/// decision-directed rule shared by the other methods (``DecisionDirectedRule``).
enum WienerGain: DecisionDirectedGain {
    static var kernel: DecisionDirectedKernel.Gain { .wiener }
}
