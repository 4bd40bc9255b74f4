import Foundation

/// Where a run made from a corpus (features, enhance, score) attaches in the catalogue it is
/// recorded in: its parent is the corpus's mix run when that catalogue holds it (an unsharded mix);
/// when the corpus was mixed into another catalogue, the run instead names the corpus's mix runs in
/// the parameter `corpus_mix_runs` (`ScoredCorpus.corpusMixRunsKey`), so that it is known to come
/// from that corpus whichever catalogue holds it, and `catalog merge` makes the mix run its parent.
struct CorpusLineage: Sendable, Equatable {
    /// The corpus's mix run in this catalogue, when there is exactly one.
    var parent: RunID?
    /// The mix runs recorded in this catalogue (one per shard).
    var mixRunsHere: [MixCatalogRunState]
    /// Every mix run the corpus records, wherever it was recorded.
    var mixRunsAnywhere: [MixCatalogRunState]

    /// The lineage of a run made from `corpus` and recorded in `catalog` (nil: recorded nowhere).
    ///
    /// A folder that lost its own records (`.sekit/`, as a copy without hidden files does) is found
    /// in the catalogue by its identity (`CorpusIdentity`): the mix run that made it, when there is one.
    init(corpus: URL, catalog: Catalog?) {
        mixRunsAnywhere = MixCatalogRunState.all(in: corpus)
        let here = catalog?.url.standardizedFileURL.path
        if mixRunsAnywhere.isEmpty, let catalog, let here, let identity = try? CorpusIdentity.of(folder: corpus),
           let runs = try? catalog.mixRuns(ofCorpus: identity.identity), runs.count == 1 {
            let held = (try? catalog.run(runs[0].rawValue)) != nil
            mixRunsAnywhere = [MixCatalogRunState(catalog: held ? here : "", runID: runs[0], shard: .whole,
                                                  specSHA256: identity.specSHA256)]
        }
        mixRunsHere = mixRunsAnywhere.filter { $0.catalog == here }
        let ids = Set(mixRunsHere.map(\.runID))
        parent = ids.count == 1 ? ids.first : nil
    }

    /// The parameters that name the corpus when its mix runs are all in another catalogue:
    /// `corpus_mix_runs` = their ids, sorted, comma-separated; empty otherwise (and without a catalogue).
    func params(recorded: Bool) -> [String: String] {
        guard recorded, mixRunsHere.isEmpty, !mixRunsAnywhere.isEmpty else { return [:] }
        return [ScoredCorpus.corpusMixRunsKey: Set(mixRunsAnywhere.map(\.runID.rawValue)).sorted().joined(separator: ",")]
    }
}
