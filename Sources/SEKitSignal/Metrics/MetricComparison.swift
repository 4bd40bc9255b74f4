/// A reference signal being scored, with the analyses metrics made of it for this clip (STOI's
/// kept frames and band envelopes), so that comparing an enhanced output and a noisy input against
/// the same reference analyses it once. Lives for one clip, on one thread.
///
/// Samples are held as read, in Float; metrics promote each to Double where they compute (exact),
/// so an hour-long clip costs 4 bytes a sample, not 8.
public final class ReferenceSignal {
    public let samples: [Float]
    /// Hz.
    public let sampleRate: Int
    private var analyses = AnalysisStore()

    public init(samples: [Float], sampleRate: Int) {
        self.samples = samples; self.sampleRate = sampleRate
    }

    /// The analysis stored under `key`, made by `make` the first time.
    package func analysis<T>(_ key: String, _ make: () throws -> T) rethrows -> T { try analyses.value(key, make) }

    /// Whether every sample is zero (no metric can score against it).
    public var isSilent: Bool { analysis("silent") { !samples.contains { $0 != 0 } } }
}

/// One comparison to score: a processed signal against a reference (or, for the non-intrusive
/// metrics such as DNSMOS, on its own), with the analyses shared by the metrics that score this
/// pair (STOI and ESTOI share the band envelopes; PESQ's value serves `pesq_wb` and the composite
/// measures). Lives for one comparison, on one thread.
public final class MetricComparison {
    private let referenceSignal: ReferenceSignal?
    /// The processed signal, as read (Float, like the reference's).
    public let processed: [Float]
    /// Hz, of both signals.
    public let sampleRate: Int
    /// Rates this comparison was converted to for metrics that do not accept its own (Hz).
    public private(set) var resampledRates: [Int] = []
    /// What is said in the clip, when the scoring was given a transcript file (nil: none was): the
    /// truth of the error rates `wer` and `cer`.
    public var transcript: ReferenceTranscript?
    private var analyses = AnalysisStore()

    public init(reference: ReferenceSignal, processed: [Float]) {
        referenceSignal = reference; self.processed = processed; sampleRate = reference.sampleRate
    }

    /// A signal scored without a reference (non-intrusive metrics only).
    public init(processed: [Float], sampleRate: Int) {
        referenceSignal = nil; self.processed = processed; self.sampleRate = sampleRate
    }

    /// The clean reference. Only for metrics that need one: `MetricDescriptor.compute(_:workspace:)` (SEKit)
    /// refuses a comparison without a reference before an intrusive metric sees it.
    public var reference: ReferenceSignal {
        guard let referenceSignal else { preconditionFailure("an intrusive metric was given a comparison without a reference") }
        return referenceSignal
    }

    /// Whether there is a clean reference.
    public var hasReference: Bool { referenceSignal != nil }

    /// The analysis stored under `key`, made by `make` the first time.
    package func analysis<T>(_ key: String, _ make: () throws -> T) rethrows -> T { try analyses.value(key, make) }

    /// This comparison at `rate` Hz: both signals converted with SEKit's soxr resampler (high
    /// quality, linear phase, no delay), made once and shared by every metric that needs it.
    /// - Throws: ``MetricError/invalidParameter(name:value:reason:)`` when libsoxr fails.
    package func resampled(to rate: Int) throws -> MetricComparison {
        if rate == sampleRate { return self }
        return try analysis("resampled.\(rate)") {
            func convert(_ samples: [Float]) throws -> [Float] {
                do { return try Resampler.resample(AudioBuffer(samples: samples, sampleRate: sampleRate), to: rate).samples } catch {
                    throw MetricError.invalidParameter(name: "sampleRate", value: "\(sampleRate)->\(rate)", reason: "\(error)")
                }
            }
            let processed = try convert(self.processed)
            resampledRates.append(rate)
            let converted: MetricComparison
            if let referenceSignal {
                let reference = try referenceSignal.analysis("resampled.\(rate)") {
                    ReferenceSignal(samples: try convert(referenceSignal.samples), sampleRate: rate)
                }
                converted = MetricComparison(reference: reference, processed: processed)
            } else {
                converted = MetricComparison(processed: processed, sampleRate: rate)
            }
            converted.transcript = transcript
            return converted
        }
    }

    /// Why a metric of this pair came out NaN: what is special about the processed signal.
    package var likelyCauseOfUndefinedValue: String {
        guard let first = processed.first else { return "the signals are empty" }
        if !processed.contains(where: { $0 != 0 }) { return "the processed signal is silent (all zeros)" }
        if !processed.contains(where: { $0 != first }) { return "the processed signal is constant" }
        return "the value is 0/0 for this pair"
    }
}

/// Analyses by name and type, each made once (a metric's intermediate results for one signal or
/// pair). The type is part of the key, so a name asked for with another type is another analysis,
/// never a value read as the wrong type or silently made again on every call.
package struct AnalysisStore {
    private struct Key: Hashable {
        let name: String
        let type: ObjectIdentifier
    }
    private var values: [Key: Any] = [:]

    mutating func value<T>(_ name: String, _ make: () throws -> T) rethrows -> T {
        let key = Key(name: name, type: ObjectIdentifier(T.self))
        if let found = values[key] {
            // Stored under T's identifier, so it is a T.
            return found as! T
        }
        let made = try make()
        values[key] = made
        return made
    }

    /// How many analyses are held.
    var count: Int { values.count }
}
