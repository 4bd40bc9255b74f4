/// A named set of metrics a challenge ranks by, grouped in the challenge's categories:
/// `--metrics urgent-offline` and `--metrics dns`. A preset lists what SEKit computes in each
/// category and names, with the reason, the measures it cannot compute offline.
public struct MetricPreset: Sendable {
    /// One of the challenge's categories of measures.
    public struct Category: Sendable, Equatable {
        /// The category's name as the challenge gives it.
        public var name: String
        /// What SEKit computes for it, in column order.
        public var metrics: [Metric]
        /// The category's measures SEKit does not compute offline, each with the reason.
        public var missing: [(measure: String, reason: String)]

        public static func == (a: Category, b: Category) -> Bool {
            a.name == b.name && a.metrics == b.metrics && a.missing.map(\.measure) == b.missing.map(\.measure)
        }
    }

    /// The name `--metrics` takes.
    public var name: String
    /// What the preset stands for, one line.
    public var summary: String
    /// The categories, in the challenge's order.
    public var categories: [Category]

    /// Every metric of the preset, category by category.
    public var metrics: [Metric] { categories.flatMap(\.metrics) }
    /// Every measure of the challenge the preset leaves out.
    public var missing: [(measure: String, reason: String)] { categories.flatMap(\.missing) }

    /// The category of `metric` in this preset, nil when it has none.
    public func category(of metric: Metric) -> String? { categories.first { $0.metrics.contains(metric) }?.name }

    /// The presets `--metrics` accepts.
    public static let all: [MetricPreset] = [urgentOffline, dns]

    /// The preset named `name`, nil when there is none.
    public static func named(_ name: String) -> MetricPreset? { all.first { $0.name == name } }

    static let notYet = "not in SEKit yet"
    static let hubModel = "its model is fetched from a hub at run time; SEKit runs offline"

    /// The URGENT 2025 challenge's four categories (non-intrusive, intrusive, downstream-independent,
    /// downstream-dependent), with what SEKit computes offline in each.
    public static let urgentOffline = MetricPreset(
        name: "urgent-offline",
        summary: "URGENT 2025's ranking measures that SEKit computes offline, in the challenge's four categories",
        categories: [
            Category(name: "non-intrusive", metrics: [.dnsmosOVRL],
                     missing: [("NISQA", notYet), ("UTMOS", hubModel)]),
            Category(name: "intrusive", metrics: [.pesqWB, .estoi, .sdr, .lsd],
                     missing: [("MCD", notYet)]),
            Category(name: "downstream-independent", metrics: [],
                     missing: [("SpeechBERTScore", hubModel), ("phoneme similarity (LPS)", hubModel)]),
            Category(name: "downstream-dependent", metrics: [.speakerSimilarity],
                     missing: [("character accuracy (OWSM v3.1 ASR against the true transcript; SEKit's cer_vs_clean is "
                                    + "pocketsphinx against the clean reference's transcript)", hubModel)]),
        ])

    /// The DNS Challenge's measures: DNSMOS P.835 (signal, background, overall) and P.808.
    public static let dns = MetricPreset(
        name: "dns",
        summary: "the DNS Challenge's DNSMOS P.835 (sig, bak, ovrl) and P.808",
        categories: [
            Category(name: "DNSMOS P.835", metrics: [.dnsmosSIG, .dnsmosBAK, .dnsmosOVRL], missing: []),
            Category(name: "DNSMOS P.808", metrics: [.dnsmosP808], missing: []),
        ])

    /// One line naming what the preset leaves out (nil when nothing): for the command's stderr.
    public var missingNote: String? {
        guard !missing.isEmpty else { return nil }
        let parts = categories.filter { !$0.missing.isEmpty }.map { category in
            category.name + ": " + category.missing.map { "\($0.measure) (\($0.reason))" }.joined(separator: ", ")
        }
        return "--metrics \(name) computes \(metrics.map(\.rawValue).joined(separator: ", ")); not computed: "
            + parts.joined(separator: "; ")
    }
}
