import Foundation

/// `--sample-rate native`: each clip at its speech source's rate. Noise is never upsampled: a clip
/// draws its noise among the noise files at its rate or higher (resampled down), so every speech
/// rate needs a noise file that reaches it, checked before any clip is written.
enum NativeRates {
    /// The files of `pool` (indices into `noise`) whose rate is `rate` or higher, in pool order.
    static func noisePool(_ pool: [Int], noise: [MixSource], reaching rate: Int) -> [Int] {
        pool.filter { noise[$0].sampleRate >= rate }
    }

    /// Refuses a mix with a speech rate above every noise file its split may draw from.
    /// - Throws: ``MixError/invalidOption(name:value:reason:)`` naming the rate, its speech files
    ///   (the first few) and the highest noise rate.
    static func refuseUnreachable(_ planner: MixPlanner) throws {
        for (split, speechPool) in planner.speechBySplit.enumerated() {
            let highestNoise = planner.noiseBySplit[split].map { planner.noise[$0].sampleRate }.max() ?? 0
            let unreached = speechPool.map { planner.speech[$0] }.filter { $0.sampleRate > highestNoise }
            guard let rate = unreached.map(\.sampleRate).max() else { continue }
            let files = unreached.filter { $0.sampleRate == rate }.map(\.path)
            let named = files.prefix(3).joined(separator: ", ") + (files.count > 3 ? " and \(files.count - 3) more" : "")
            let scope = planner.speechBySplit.count > 1 && planner.options.splitSources != .speech
                ? " of split \(planner.options.split.names[split])" : ""
            throw MixError.invalidOption(name: "sample-rate", value: MixOptions.nativeRateName,
                reason: "no noise file\(scope) reaches \(rate) Hz, the rate of \(files.count) speech file(s) (\(named)); "
                    + "the highest noise rate is \(highestNoise) Hz, and noise is never upsampled: "
                    + "add noise at \(rate) Hz or more, or give a fixed --sample-rate")
        }
    }
}
