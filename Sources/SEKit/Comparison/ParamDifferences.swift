import Foundation

extension RunDiff {
    /// Parameters that differ between the lineages of two runs (each run, then its parent, its
    /// parent's parent...: a score run, its enhance or features run, their mix run), keyed
    /// `KIND.KEY`. Lineages are matched by kind (a score of the noisy input, score → mix, is
    /// compared with a score of enhanced outputs, score → enhance → mix, score with score and mix
    /// with mix; the enhance run's parameters are listed against nothing). A run shared by both
    /// lineages differs in nothing. Ordered by lineage (nearest first), then key.
    /// Both runs and their lineages are read from `catalog`.
    /// - Throws: the catalogue's errors as ``ComparisonError/catalog(_:)``.
    public static func paramDifferences(_ a: RunRecord, _ b: RunRecord, in catalog: Catalog) throws(ComparisonError)
        -> [ParamDifference] {
        try ComparisonError.carrying { () throws(CatalogError) in try lineageParamDifferences(a, b, in: catalog) }
    }

    /// ``paramDifferences(_:_:in:)`` read from the catalogue.
    private static func lineageParamDifferences(_ a: RunRecord, _ b: RunRecord, in catalog: Catalog) throws(CatalogError)
        -> [ParamDifference] {
        let lineageA = try catalog.lineage(of: a)
        let lineageB = try catalog.lineage(of: b)
        var kinds: [RunKind] = []
        for run in lineageA + lineageB where !kinds.contains(run.kind) { kinds.append(run.kind) }
        var differences: [ParamDifference] = []
        for kind in kinds {
            let runA = lineageA.first { $0.kind == kind }
            let runB = lineageB.first { $0.kind == kind }
            if let runA, let runB, runA.id == runB.id { continue }
            let paramsA = try runA.map { run throws(CatalogError) in try catalog.paramValues(of: run.id) } ?? [:]
            let paramsB = try runB.map { run throws(CatalogError) in try catalog.paramValues(of: run.id) } ?? [:]
            for key in Set(paramsA.keys).union(paramsB.keys).sorted() where paramsA[key] != paramsB[key] {
                differences.append(ParamDifference(key: "\(kind.rawValue).\(key)", a: paramsA[key], b: paramsB[key]))
            }
        }
        return differences
    }
}
