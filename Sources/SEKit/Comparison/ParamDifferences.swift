import Foundation

extension Catalog {
    /// Parameters that differ between the lineages of two runs (each run, then its parent, its
    /// parent's parent...: a score run's enhance or features run, their mix run), keyed
    /// `KIND.KEY` and sorted by lineage depth, then key. Runs at the same depth are compared; a key
    /// present on one side only is listed with nil on the other. A shared ancestor has no
    /// differences with itself.
    public func paramDifferences(_ a: RunRecord, _ b: RunRecord) throws(CatalogError) -> [RunDiff.ParamDifference] {
        let lineageA = try lineage(of: a)
        let lineageB = try lineage(of: b)
        var differences: [RunDiff.ParamDifference] = []
        for depth in 0..<max(lineageA.count, lineageB.count) {
            let runA = depth < lineageA.count ? lineageA[depth] : nil
            let runB = depth < lineageB.count ? lineageB[depth] : nil
            if let runA, let runB, runA.id == runB.id { continue }
            let paramsA = try runA.map { run throws(CatalogError) in try paramValues(of: run.id) } ?? [:]
            let paramsB = try runB.map { run throws(CatalogError) in try paramValues(of: run.id) } ?? [:]
            let kind = (runA ?? runB)!.kind.rawValue
            let prefix = runA?.kind == runB?.kind || runA == nil || runB == nil ? kind : "\(runA!.kind.rawValue)|\(runB!.kind.rawValue)"
            for key in Set(paramsA.keys).union(paramsB.keys).sorted() where paramsA[key] != paramsB[key] {
                differences.append(RunDiff.ParamDifference(key: "\(prefix).\(key)", a: paramsA[key], b: paramsB[key]))
            }
        }
        return differences
    }
}
