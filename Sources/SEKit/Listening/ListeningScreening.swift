import Foundation

/// Rater screening by the standard rules, applied to each rater's own ratings at import.
///
/// - MUSHRA (ITU-R BS.1534-3 §4.1.2, post-screening): a rater who scores the hidden reference
///   below 90 in more than 15 % of the trials is excluded (`mushra-reference`).
/// - ACR, DCR, CCR and P.835 (ITU-T P.808 §6.2): a rater who does not answer the trapping trial as
///   it asks is excluded (`p808-trapping`), and one whose answer to the gold trial is more than one
///   category from the expected one, on any scale (`p808-gold`).
public enum ListeningScreening {
    /// The hidden-reference score below which a MUSHRA trial counts against the rater.
    public static let mushraReferenceThreshold = 90.0
    /// The share of trials that may fall below it.
    public static let mushraReferenceShare = 0.15

    /// Nil when the rater is kept; otherwise the rule that excludes the rater, with the evidence
    /// (`mushra-reference: hidden reference below 90 in 2 of 3 trials`).
    public static func exclusion(_ rater: RaterRatings, manifest: ListeningTestManifest) -> String? {
        let trials = Dictionary(uniqueKeysWithValues: manifest.allStimuli.map { ($0.stimulus.id, $0.trial) })
        if manifest.test == .mushra {
            let hidden = rater.ratings.filter { trials[$0.stimulus]?.role == "test" && $0.stimulus.hasSuffix("/reference") }
            let low = hidden.filter { $0.score < mushraReferenceThreshold }.count
            guard !hidden.isEmpty, Double(low) / Double(hidden.count) > mushraReferenceShare else { return nil }
            return "mushra-reference: hidden reference below 90 in \(low) of \(hidden.count) trials"
        }
        for role in ["trap", "gold"] {
            for rating in rater.ratings {
                guard let trial = trials[rating.stimulus], trial.role == role, let expected = trial.expected else { continue }
                if role == "trap" && rating.score != expected {
                    return "p808-trapping: answered \(ReportNumber.fixed(rating.score, decimals: 0)) (\(rating.scale)) "
                        + "where the trapping trial asked for \(ReportNumber.fixed(expected, decimals: 0))"
                }
                if role == "gold" && abs(rating.score - expected) > 1 {
                    return "p808-gold: rated the gold trial \(ReportNumber.fixed(rating.score, decimals: 0)) (\(rating.scale)), "
                        + "expected \(ReportNumber.fixed(expected, decimals: 0)) ± 1"
                }
            }
        }
        return nil
    }
}
