import Foundation

/// The lower and upper quantiles a clip's noisy input is clipped between (`--clip-quantiles
/// 0:0.1,0.9:1`: the lower drawn uniformly in 0-0.1, the upper in 0.9-1, as the URGENT challenge).
public struct ClipQuantiles: Sendable, Codable, Equatable, CustomStringConvertible {
    /// Lower quantiles, 0-1.
    public var low: ValueSpec
    /// Upper quantiles, 0-1, above every lower one.
    public var high: ValueSpec

    /// Parses `LOWER,UPPER`, each a value or a range `A:B`.
    /// - Throws: ``MixError/invalidOption(name:value:reason:)`` naming `clip-quantiles`.
    public init(parsing text: String) throws {
        let name = "clip-quantiles"
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 else {
            throw MixError.invalidOption(name: name, value: text,
                                         reason: "expected LOWER,UPPER quantiles, each a value or a range (0:0.1,0.9:1)")
        }
        low = try ValueSpec(parsing: parts[0], option: name)
        high = try ValueSpec(parsing: parts[1], option: name)
        guard low.bounds.lowerBound >= 0, high.bounds.upperBound <= 1, low.bounds.upperBound < high.bounds.lowerBound else {
            throw MixError.invalidOption(name: name, value: text,
                                         reason: "quantiles must be in [0, 1], every lower one below every upper one")
        }
    }

    public var description: String { "\(low),\(high)" }
}

extension MixOptions {
    /// The soxr qualities `--bandwidth-rates` draws among (uniformly, per clip).
    static let bandwidthResamplerQualities: [Resampler.Quality] = [.medium, .high, .veryHigh]

    /// The rates of `bandwidthRates` a clip may be resampled to: those below the corpus rate, ascending.
    var bandwidthRateChoices: [Int] { (bandwidthRates ?? []).filter { $0 < sampleRate }.sorted() }

    /// Checks `bandwidthRates` and `clipQuantiles` against the modes they replace.
    /// - Throws: ``MixError/invalidOption(name:value:reason:)`` naming the option.
    func validateRateAndQuantileModes() throws {
        if let bandwidthRates {
            let text = bandwidthRates.map(String.init).joined(separator: ",")
            guard bandwidthHz == nil else {
                throw MixError.invalidOption(name: "bandwidth-rates", value: text,
                                             reason: "give band edges (--bandwidth-hz) or rates, not both")
            }
            guard bandwidthRates.allSatisfy({ (1000...768_000).contains($0) }) else {
                throw MixError.invalidOption(name: "bandwidth-rates", value: text,
                                             reason: "rates must be whole numbers of Hz in 1000...768000")
            }
            guard !bandwidthRateChoices.isEmpty else {
                throw MixError.invalidOption(name: "bandwidth-rates", value: text,
                                             reason: "has no effect: no rate is below the corpus rate \(sampleRate) Hz")
            }
        }
        if let clipQuantiles, clipDistortion != nil {
            throw MixError.invalidOption(name: "clip-quantiles", value: clipQuantiles.description,
                                         reason: "give thresholds (--clip-distortion) or quantiles, not both")
        }
    }
}

extension DegradationCounts {
    /// Counts `LOW:HIGH` (or one count `N`) with one weight per count, in order
    /// (`--degradations-per-clip 0:3 --degradations-per-clip-weights 0.25,0.40,0.20,0.15`).
    /// - Throws: ``MixError/invalidOption(name:value:reason:)`` when a weight is not a number in
    ///   [0, 1], the weights do not sum to 1 (within 1e-6) or their number is not the range's size.
    public init(range text: String, weights weightsText: String) throws {
        let name = "degradations-per-clip-weights"
        let range = try CountRange(parsing: text, option: "degradations-per-clip")
        var weights: [Double] = []
        for part in weightsText.split(separator: ",", omittingEmptySubsequences: false) {
            guard let weight = Double(part.trimmingCharacters(in: .whitespaces)), (0...1).contains(weight) else {
                throw MixError.invalidOption(name: name, value: weightsText, reason: "'\(part)' is not a weight in [0, 1]")
            }
            weights.append(weight)
        }
        let size = range.high - range.low + 1
        guard weights.count == size else {
            throw MixError.invalidOption(name: name, value: weightsText,
                reason: "gives \(weights.count) weight\(weights.count == 1 ? "" : "s") for the \(size) counts of "
                    + "--degradations-per-clip \(text)")
        }
        let total = weights.reduce(0, +)
        guard abs(total - 1) <= 1e-6 else {
            throw MixError.invalidOption(name: name, value: weightsText, reason: "weights sum to \(formatNumber(total)), not 1")
        }
        try self.init(parsing: zip(range.low...range.high, weights).map { "\($0):\($1)" }.joined(separator: ","))
    }
}
