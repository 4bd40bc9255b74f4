import Foundation
import GRDB

/// One clip of a score run read back in clip-id order (``CatalogSession/forEachScoredClipInIDOrder(of:metrics:paths:_:)``):
/// what `clips` says about it and its `clip_scores` rows.
package struct ScoredClipRows {
    /// The id `sekit score` gave it (the catalogue id without its mix run).
    package var clipID: String
    package var index: Int?
    package var split: String?
    package var snrDB: Double?
    /// Degradation kinds in stage order (empty: none).
    package var degradations: [String]?
    /// Whether the clip is in `clips` (false: a clip of a folder, or of a corpus mixed into another catalogue).
    package var isCatalogued = false
    /// The path (relative to its corpus) of the RIR the clip was convolved with; nil: none.
    package var rirPath: String?
    /// The mix run's reverberation target (`dry` unless its `target` param says otherwise).
    package var reverbTarget = "dry"
    package var cleanPath: String?
    package var noisyPath: String?
    /// Per metric (index into the metrics asked for): value, noisy value, reason.
    package var rows: [(metric: Int, value: Double?, noisy: Double?, error: String?)] = []

    package init(clipID: String) { self.clipID = clipID }
}

extension CatalogSession {
    /// Reads a score run's `clip_scores` rows in the order of their clip ids (the primary key's order:
    /// no sort) and hands `body` each clip with what `clips` says about it (``ScoredClipLookup``), so a
    /// million-clip run is read in a few seconds. The caller puts the clips in scoring order
    /// (SEKit's `RecordedScores.scoringOrder(_:)`); a clip's degradation kinds are empty when it has
    /// none. Its files are read only when `paths` is true; rows of metrics not in `metrics` are left
    /// out. The clip handed to `body` is valid during the call.
    package func forEachScoredClipInIDOrder(of run: RunID, metrics: [String], paths: Bool,
                                            _ body: (ScoredClipRows) throws -> Void) throws {
        var lookup = ScoredClipLookup(db, paths: paths)
        // A run scoring a corpus mixed into another catalogue names its clips `MIXRUN/CLIP` after
        // mix runs this catalogue may not hold: those clips are shown as `CLIP`.
        let foreignPrefixes = (try String.fetchOne(db, sql: "SELECT value_text FROM params WHERE run_id = ? AND key = ?",
                                                   arguments: [run, ScoredCorpus.corpusMixRunsKey]) ?? "")
            .split(separator: ",").map { $0 + "/" }
        // Each metric as its position in `metrics` (-1: not one of them), not as text.
        let metricCase = "CASE metric "
            + metrics.enumerated().map { "WHEN '\($1.replacingOccurrences(of: "'", with: "''"))' THEN \($0) " }.joined() + "ELSE -1 END"
        let rows = try Row.fetchCursor(db, sql: """
            SELECT clip_id, \(metricCase), value, noisy_value, error FROM clip_scores WHERE run_id = ? ORDER BY clip_id
            """, arguments: [run])
        // One clip value reused (its rows' storage too): a million clips allocate little.
        var current = ScoredClipRows(clipID: "")
        var currentID: String?
        while let row = try rows.next() {
            let id: String = row[0]
            if currentID == nil || !ByteOrder.sameBytes(id, currentID!) {
                if currentID != nil { try body(current) }
                currentID = id
                current.rows.removeAll(keepingCapacity: true)
                if let clip = try lookup.row(for: id) {
                    current.clipID = String(decoding: id.utf8.dropFirst(clip.runID.utf8.count + 1), as: UTF8.self)
                    (current.index, current.split, current.snrDB, current.degradations) = (clip.index, clip.split, clip.snrDB, clip.kinds)
                    (current.cleanPath, current.noisyPath) = (clip.cleanPath, clip.noisyPath)
                    (current.isCatalogued, current.rirPath) = (true, try clip.rirSourceID.map { try lookup.rirPath(of: $0) })
                    current.reverbTarget = try lookup.reverbTarget(of: clip.runID)
                } else {
                    let prefix = foreignPrefixes.first { id.hasPrefix($0) }
                    current.clipID = prefix.map { String(id.dropFirst($0.count)) } ?? id
                    (current.index, current.split, current.snrDB, current.degradations, current.cleanPath, current.noisyPath) = (nil, nil,
                            nil, [], nil, nil)
                    (current.isCatalogued, current.rirPath) = (false, nil)
                }
            }
            let metric: Int = row[1]
            guard metric >= 0 else { continue }
            current.rows.append((metric, row[2], row[3], row[4]))
        }
        if currentID != nil { try body(current) }
    }
}

/// Finds the `clips` rows of catalogue clip ids asked for in ascending byte order: the clips of
/// each run prefix (`RUN/…`) are read in one range scan of the primary key with their
/// degradation kinds alongside, and matched as the ids go by; an id without a run prefix is
/// looked up alone.
struct ScoredClipLookup {
    /// What `clips` says about one scored clip.
    struct ClipRow {
        var id: String
        var index: Int
        var split: String?
        var snrDB: Double?
        var runID: String
        var rirSourceID: String?
        var cleanPath: String?
        var noisyPath: String?
        /// Its degradation kinds in stage order (empty: none).
        var kinds: [String] = []
    }

    /// RIR source id → its relative path; mix run → its reverberation target (looked up once each).
    private var rirPaths: [String: String] = [:]
    private var reverbTargets: [String: String] = [:]

    private let db: Database
    /// `RUN/` of the range being read.
    private var prefix = ""
    private var clips: RowCursor?
    private var kinds: RowCursor?
    /// The next row of each range cursor not yet passed.
    private var nextClip: ClipRow?
    private var nextKind: (clipID: String, kind: String)?

    /// The columns read: a clip's files only when asked for.
    private let columns: String

    init(_ db: Database, paths: Bool) {
        self.db = db
        columns = "id, clip_index, split, snr_requested_db, run_id, rir_source_id" + (paths ? ", clean_path, noisy_path" : "")
    }

    /// The row of clip `id`; ids must come in ascending byte order.
    mutating func row(for id: String) throws -> ClipRow? {
        guard let slash = id.utf8.firstIndex(of: UInt8(ascii: "/")) else { return try single(id) }
        if prefix.isEmpty || !id.utf8.starts(with: prefix.utf8) {
            prefix = String(id[...slash])
            // '/' is followed by '0' in byte order: the ids under `RUN/` are exactly [RUN/, RUN0).
            let range: StatementArguments = [prefix, String(prefix.dropLast()) + "0"]
            clips = try Row.fetchCursor(db.cachedStatement(sql: "SELECT \(columns) FROM clips WHERE id >= ? AND id < ? ORDER BY id"),
                                        arguments: range)
            kinds = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT clip_id, kind FROM clip_degradations WHERE clip_id >= ? AND clip_id < ? ORDER BY clip_id, position
                """), arguments: range)
            nextClip = try clips!.next().map(Self.clipRow)
            nextKind = try kinds!.next().map { ($0[0], $0[1]) }
        }
        while let candidate = nextClip, Self.precedes(candidate.id, id) { nextClip = try clips!.next().map(Self.clipRow) }
        guard var found = nextClip, ByteOrder.sameBytes(found.id, id) else { return nil }
        nextClip = try clips!.next().map(Self.clipRow)
        while let kind = nextKind, Self.precedes(kind.clipID, id) { nextKind = try kinds!.next().map { ($0[0], $0[1]) } }
        while let kind = nextKind, ByteOrder.sameBytes(kind.clipID, id) {
            found.kinds.append(kind.kind)
            nextKind = try kinds!.next().map { ($0[0], $0[1]) }
        }
        return found
    }

    /// One clip looked up by id (statements prepared once: a folder's scores are all such ids).
    private func single(_ id: String) throws -> ClipRow? {
        let clip = try db.cachedStatement(sql: "SELECT \(columns) FROM clips WHERE id = ?")
        guard var found = try Row.fetchOne(clip, arguments: [id]).map(Self.clipRow) else { return nil }
        let kinds = try db.cachedStatement(sql: "SELECT kind FROM clip_degradations WHERE clip_id = ? ORDER BY position")
        found.kinds = try String.fetchAll(kinds, arguments: [id])
        return found
    }

    private static func clipRow(_ row: Row) -> ClipRow {
        ClipRow(id: row[0], index: row[1], split: row[2], snrDB: row[3], runID: row[4], rirSourceID: row[5],
                cleanPath: row.count > 6 ? row[6] : nil, noisyPath: row.count > 7 ? row[7] : nil)
    }

    /// The relative path of RIR source `id` (its id when the source row is missing).
    mutating func rirPath(of id: String) throws -> String {
        if let known = rirPaths[id] { return known }
        let path = try String.fetchOne(db.cachedStatement(sql: "SELECT relative_path FROM sources WHERE id = ?"), arguments: [id]) ?? id
        rirPaths[id] = path
        return path
    }

    /// The reverberation target mix run `run` recorded (its `target` param; `dry` by default).
    mutating func reverbTarget(of run: String) throws -> String {
        if let known = reverbTargets[run] { return known }
        let target = try String.fetchOne(db.cachedStatement(sql: "SELECT value_text FROM params WHERE run_id = ? AND key = 'target'"),
                                         arguments: [run]) ?? "dry"
        reverbTargets[run] = target
        return target
    }

    /// SQLite's order of text (bytes), which Swift's `<` on strings is not in general.
    private static func precedes(_ a: String, _ b: String) -> Bool { ByteOrder.compareBytes(a, b) < 0 }
}

/// Byte-wise text comparison (SQLite's BINARY collation).
enum ByteOrder {
    /// Whether two texts are the same bytes (SQLite's equality; Swift's `==` is canonical equivalence).
    static func sameBytes(_ a: String, _ b: String) -> Bool { a.utf8.count == b.utf8.count && ByteOrder.compareBytes(a, b) == 0 }

    /// The sign of the byte-wise comparison of `a` and `b` (SQLite's BINARY collation).
    static func compareBytes(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let shorter = min(x.count, y.count)
                let common = shorter == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, shorter)
                return common != 0 ? Int(common) : x.count - y.count
            }
        }
    }
}
