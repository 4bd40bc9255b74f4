extension ReportNumber {
    /// Decimals for a metric's values: 2 for decibels, 3 for scores of magnitude below 10 (STOI,
    /// LLR, MOS), else 2.
    public static func decimals(metric: String, values: [Double]) -> Int {
        if MetricRegistry.output(forSeries: metric)?.unit == "dB" { return 2 }
        let largest = values.filter(\.isFinite).map(abs).max() ?? 0
        return largest < 10 ? 3 : 2
    }
}
