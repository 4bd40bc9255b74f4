extension MetricRegistry {
    /// Suffixes of the series `sekit score` stores beside each metric: the noisy input's value and
    /// the improvement (enhanced − noisy, per clip).
    public static let seriesSuffixes = ["_noisy", "_improvement"]

    /// The output behind a stored series name (`stoi`, `stoi_noisy`, `llr_improvement`): its unit
    /// and direction hold for the series too (an improvement of LLR is enhanced − noisy, so lower
    /// is better); nil for a name the registry does not know.
    public static func output(forSeries name: String) -> MetricOutput? {
        var base = name
        for suffix in seriesSuffixes where base.hasSuffix(suffix) { base.removeLast(suffix.count) }
        return descriptor(producing: base)?.outputs.first { $0.metric.rawValue == base }
    }
}
