import Foundation

extension Catalog {
    /// The runs of `run`'s lineage (itself first, then its parent...; see ``lineage(of:)``) with their parameters.
    public func lineageParams(of run: RunID) throws(CatalogError) -> [(run: RunRecord, params: [String: String])] {
        var result: [(run: RunRecord, params: [String: String])] = []
        for record in try lineage(of: try resolveRun(run.rawValue)) { result.append((record, try paramValues(of: record.id))) }
        return result
    }

    /// The value of the parameter `key` nearest along `run`'s lineage (the run, its parent...), or nil.
    public func lineageParam(_ key: String, of run: RunID) throws(CatalogError) -> String? {
        try lineageParams(of: run).lazy.compactMap { $0.params[key] }.first
    }
}
