import Foundation

/// Scores pairs in parallel; a clip that fails is recorded with its reason, never dropped.
public enum ScoreRunner {
    /// Scores every pair with every metric, using `jobs` threads.
    /// - Parameters:
    ///   - pythonPool: the Python workers of metrics that run there (one per thread, taken when
    ///     first needed); nil: each thread makes its own from ``PythonEnvironment/located(_:executable:)``.
    ///   - corpus: the mixed corpus the pairs come from, whose stems are read through it (files or
    ///     archive members); nil: every path is a file.
    ///   - progress: called with (clips done, clips in total).
    /// - Returns: one ``ClipScores`` per pair, in the order of `pairs`.
    public static func score(
        _ pairs: [ScorePair], metrics: [Metric], alignment: ScoreAlignment, jobs: Int, pythonPool: PythonWorkerPool? = nil,
        corpus: MixCorpusAudio? = nil, fullScale: FullScalePolicy = .refuse, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
    ) -> [ClipScores] {
        let state = { () -> MetricWorkspace in
            let workspace = MetricWorkspace(pythonPool: pythonPool)
            workspace.fullScale = fullScale
            return workspace
        }
        return ParallelMap.map(pairs, jobs: jobs, progress: progress, workerState: state) { pair, workspace in
            scoreOne(pair, metrics: metrics, alignment: alignment, workspace: workspace, corpus: corpus)
        }
    }

    /// Every requested output of `metrics` for one comparison, each computation run once. A
    /// computation that fails (`MetricError`) is an error for its outputs only; the others are kept.
    static func values(of metrics: [Metric], _ comparison: MetricComparison,
                       workspace: MetricWorkspace) -> (values: [Metric: Double], errors: [Metric: String]) {
        var values: [Metric: Double] = [:], errors: [Metric: String] = [:]
        for descriptor in MetricRegistry.descriptors(for: metrics) {
            do {
                values.merge(try descriptor.compute(comparison, workspace: workspace)) { first, _ in first }
            } catch {
                for output in descriptor.outputs where metrics.contains(output.metric) { errors[output.metric] = "\(error)" }
            }
        }
        return (values.filter { metrics.contains($0.key) }, errors)
    }

    /// One clip's full-scale notes: the enhanced signal's, then the noisy input's marked `noisy:`; nil for none.
    static func fullScaleNote(_ enhanced: [String], noisy: [String]) -> String? {
        let all = enhanced + noisy.map { "noisy: \($0)" }
        return all.isEmpty ? nil : all.joined(separator: "; ")
    }

    static func scoreOne(_ pair: ScorePair, metrics: [Metric], alignment: ScoreAlignment, workspace: MetricWorkspace,
                         corpus: MixCorpusAudio? = nil) -> ClipScores {
        var scores = ClipScores(pair: pair)
        do {
            guard let enhancedURL = pair.enhanced else { throw ScoreError.noPairs(reason: "no enhanced file for \(pair.clipID)") }
            guard let referenceURL = pair.reference else {
                // Scored on its own: the non-intrusive metrics only.
                let (samples, rate) = try readSamples(enhancedURL, corpus: corpus)
                let comparison = MetricComparison(processed: samples, sampleRate: rate)
                comparison.transcript = pair.transcript
                (scores.enhanced, scores.metricErrors) = values(of: metrics, comparison, workspace: workspace)
                if !comparison.resampledRates.isEmpty { scores.resampledFromHz = rate }
                scores.fullScale = fullScaleNote(workspace.takeFullScaleNotes(), noisy: [])
                return scores
            }
            // Signals are held as read, in Float (the metrics promote each sample to Double where
            // they compute), and the enhanced output is released before the noisy input is read:
            // at most two signals of the clip are in memory at once.
            let (ref, rate) = try readSamples(referenceURL, corpus: corpus)
            let referenceSignal: ReferenceSignal
            do {
                let enh = try readAligned(enhancedURL, referenceCount: ref.count, rate: rate, referenceURL: referenceURL,
                                          alignment: alignment, corpus: corpus)
                referenceSignal = ReferenceSignal(samples: enh.count == ref.count ? ref : Array(ref[0..<enh.count]), sampleRate: rate)
                let comparison = MetricComparison(reference: referenceSignal, processed: enh)
                comparison.transcript = pair.transcript
                (scores.enhanced, scores.metricErrors) = values(of: metrics, comparison, workspace: workspace)
                if !comparison.resampledRates.isEmpty { scores.resampledFromHz = rate }
            }
            let enhancedNotes = workspace.takeFullScaleNotes()
            if let noisyURL = pair.noisy {
                let noi = try readAligned(noisyURL, referenceCount: ref.count, rate: rate, referenceURL: referenceURL, alignment: alignment,
                                          corpus: corpus)
                // The same reference signal as for the enhanced output when the lengths agree, so
                // metrics that analyse the reference once (STOI, ESTOI) reuse that analysis.
                let noisyReference = noi.count == referenceSignal.samples.count ? referenceSignal
                    : ReferenceSignal(samples: Array(ref[0..<noi.count]), sampleRate: rate)
                let noisyComparison = MetricComparison(reference: noisyReference, processed: noi)
                noisyComparison.transcript = pair.transcript
                (scores.noisy, scores.noisyMetricErrors) = values(of: metrics, noisyComparison, workspace: workspace)
            }
            scores.fullScale = fullScaleNote(enhancedNotes, noisy: workspace.takeFullScaleNotes())
        } catch {
            scores.enhanced = [:]
            scores.noisy = [:]
            scores.metricErrors = [:]
            scores.noisyMetricErrors = [:]
            scores.resampledFromHz = nil
            scores.fullScale = nil
            _ = workspace.takeFullScaleNotes()
            scores.error = "\(error)"
        }
        return scores
    }

    /// A file's samples, mono, and its rate.
    static func readSamples(_ url: URL, corpus: MixCorpusAudio?) throws -> ([Float], Int) {
        let buffer = try corpus?.read(url) ?? AudioFile.read(at: url)
        return (buffer.samples, buffer.sampleRate)
    }

    /// The samples of `url`, checked against the reference's rate and length: a length
    /// mismatch is an error, or with `trim` both are cut to the shorter (the caller cuts the
    /// reference to the returned count).
    static func readAligned(_ url: URL, referenceCount: Int, rate: Int, referenceURL: URL, alignment: ScoreAlignment,
                            corpus: MixCorpusAudio?) throws -> [Float] {
        let other = try corpus?.read(url) ?? AudioFile.read(at: url)
        guard other.sampleRate == rate else {
            throw ScoreError.invalidOption(name: "enhanced", value: url.path,
                reason: "sample rate \(other.sampleRate) Hz differs from the reference's \(rate) Hz (\(referenceURL.path))")
        }
        var n = referenceCount
        if other.count != referenceCount {
            guard alignment == .trim else {
                throw ScoreError.invalidOption(name: "enhanced", value: url.path,
                    reason: "\(other.count) samples, the reference has \(referenceCount) (with align = trim both are cut to the shorter)")
            }
            n = min(referenceCount, other.count)
        }
        return n == other.count ? other.samples : Array(other.samples[0..<n])
    }
}
