import Foundation

extension ScorePairing {
    /// A recorded score run's pairs by clip id, found again from its parameters (`corpus` and
    /// `enhanced`, or the folders); files may have gone since.
    public static func pairs(ofRunParams params: [String: String]) -> [String: ScorePair] {
        let enhanced = params["enhanced"].map { URL(fileURLWithPath: $0) }
        var found: [ScorePair] = []
        if let corpus = params["corpus"] {
            found =
                (try? ScorePairing.fromCorpus(
                    URL(fileURLWithPath: corpus), enhanced: enhanced, split: params["split"], allowIncomplete: true,
                    enhancedMayBeGone: true)) ?? []
        } else if let reference = params["reference"], let enhanced {
            found =
                (try? ScorePairing.byName(
                    reference: URL(fileURLWithPath: reference), enhanced: enhanced,
                    noisy: params["noisy"].map { URL(fileURLWithPath: $0) })) ?? []
        } else if let enhanced {
            found = (try? ScorePairing.withoutReference(enhanced: enhanced)) ?? []
        }
        return Dictionary(found.map { ($0.clipID, $0) }) { first, _ in first }
    }
}
