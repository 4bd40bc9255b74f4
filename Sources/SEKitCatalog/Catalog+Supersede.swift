import Foundation
import GRDB

extension Catalog {
    /// Records that run `old`'s outputs were replaced by run `new` (a mix written over with
    /// `overwrite`): deletes `old`'s clip rows (and their noise and degradation rows), whose files now hold other
    /// audio, and sets its params `superseded_by` (the new run) and `clips_superseded` (how many
    /// rows went). The run itself, its params, artifacts and scores stay as history.
    /// - Returns: the number of clip rows deleted (0 when `old` is not in this catalogue).
    @discardableResult
    public func supersede(run old: RunID, by new: RunID) throws(CatalogError) -> Int {
        try write { db in
            guard try RunRecord.fetchOne(db, key: old.rawValue) != nil else { return 0 }
            for table in ["clip_noises", "clip_degradation_params", "clip_degradations"] {
                try db.execute(sql: "DELETE FROM \(table) WHERE clip_id IN (SELECT id FROM clips WHERE run_id = ?)",
                               arguments: [old.rawValue])
            }
            try db.execute(sql: "DELETE FROM clips WHERE run_id = ?", arguments: [old.rawValue])
            let deleted = db.changesCount
            for (key, value) in [("superseded_by", new.rawValue), ("clips_superseded", "\(deleted)")] {
                try ParamRecord(runID: old, key: key, value: value).upsert(db)
            }
            return deleted
        }
    }
}
