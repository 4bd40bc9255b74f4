extension STOI {
    /// STOI or ESTOI of one comparison, with a worker's scratch state. The band envelopes are
    /// kept on the comparison (so STOI and ESTOI of one pair analyse it once) and the reference's
    /// analysis on the reference (so several comparisons against one reference resample it once).
    /// Here, beside the generic analyses, so that they are specialised for Float (a call from another
    /// module would run them unspecialised: 22% slower scoring, measured).
    package static func compute(_ comparison: MetricComparison, extended: Bool, workspace ws: Workspace) throws -> Double {
        let reference = comparison.reference, fs = reference.sampleRate
        guard fs > 0 else { throw MetricError.invalidParameter(name: "sampleRate", value: "\(fs)", reason: "must be positive") }
        let (xBands, yBands) = try comparison.analysis("stoi.bands") { () throws -> (x: [Double], y: [Double]) in
            try MetricError.checkPair(reference.samples, comparison.processed)
            let analysis = reference.analysis("stoi.reference") {
                reference.samples.withUnsafeBufferPointer { referenceAnalysis($0, sampleRate: fs, workspace: ws) }
            }
            let yBands = comparison.processed.withUnsafeBufferPointer {
                processedBands($0, reference: analysis, sampleRate: fs, workspace: ws)
            }
            return (analysis.bands, yBands)
        }
        return try value(xBands, yBands, samples: reference.samples.count, extended: extended)
    }
}
