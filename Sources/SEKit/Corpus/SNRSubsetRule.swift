import Foundation

/// How a corpus's requested SNRs are grouped into subsets, decided by the mix's SNR specification and
/// recorded with the corpus (`mix.json` and the mix run's parameter `snr_subsets`; a score run of the
/// corpus records it too): a list of SNRs gives one subset per value (`snr=5`), a range gives 5 dB
/// bands (`snr=[0,5)`) whatever the number of clips.
public enum SNRSubsetRule: String, Sendable, Codable, CaseIterable {
    /// One subset per requested SNR.
    case perValue = "per-value"
    /// 5 dB bands, low end included: `snr=[0,5)`.
    case bands5dB = "5db-bands"

    /// The catalogue parameter (mix and score runs) and the `mix.json` field that record the rule.
    public static let recordKey = "snr_subsets"

    /// The rule for a corpus that did not record one (mixed before it was recorded, imported or
    /// re-rendered from a manifest): one subset per value up to 25 distinct SNRs, bands above.
    public static func inferred(distinctSNRs: Int) -> SNRSubsetRule {
        distinctSNRs <= 25 ? .perValue : .bands5dB
    }

    /// The recorded rule of a run's parameters (nil when absent or not one of the names).
    public init?(params: [String: String]) {
        guard let text = params[Self.recordKey], let rule = SNRSubsetRule(rawValue: text) else { return nil }
        self = rule
    }
}
