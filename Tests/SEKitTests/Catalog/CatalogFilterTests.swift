import Foundation
import GRDB
import Testing
@testable import SEKit
@testable import SEKitCatalog
@testable import SEKitSignal

@Suite struct CatalogFilterTests {
    @Test func parsesPrecedenceAndForms() throws {
        let tree = try CatalogFilter.parse("not a = 1 or b != 'x' and (c like 'crn%' or d not in (1, 2.5e1)) and e is not null")
        guard case .or(let alternatives) = tree, alternatives.count == 2,
              case .not(.compare(let a, "=", let one)) = alternatives[0],
              case .and(let terms) = alternatives[1], terms.count == 3,
              case .compare(_, "!=", _) = terms[0],
              case .or(let inner) = terms[1], inner.count == 2,
              case .like(_, _, false) = inner[0], case .inList(_, let list, true) = inner[1],
              case .isNull(_, true) = terms[2] else {
            Issue.record("unexpected tree \(tree)"); return
        }
        #expect(a.name == "a" && a.column == 5 && one.literal == .number(1))
        #expect(list.map(\.literal) == [.number(1), .number(25)])
        #expect(try CatalogFilter.parse("x = 'it''s'") == .compare(FilterField(name: "x", column: 1), "=",
                                                                   FilterValue(literal: .text("it's"), column: 5)))
        #expect(try CatalogFilter.parse("snr_realised_db>=-5") == .compare(FilterField(name: "snr_realised_db", column: 1), ">=",
                                                                           FilterValue(literal: .number(-5), column: 18)))
    }

    /// Errors point at the 1-based column where parsing failed.
    @Test(arguments: [
        ("x'; drop table runs; --", 2, "unterminated string"),
        ("split = ", 9, "expected a number or a quoted string"),
        ("split = test", 9, "quote text values"),
        ("(split = 'a'", 13, "expected ')'"),
        ("split = 'a' split = 'b'", 13, "unexpected name"),
        ("split == 'a' ; drop", 14, "unexpected character ';'"),
        ("snr_realised_db > 'high'", 19, "is a number"),
        ("split = 5", 9, "is text; quote"),
        ("nonsense > 1", 1, "unknown field 'nonsense'"),
        ("metrics.stoi > 1", 1, "metrics.NAME.FIELD"),
        ("metrics.stoi.median > 1", 1, "unknown metric field"),
        ("", 1, "empty filter"),
        ("snr_realised_db like 5", 22, "'like' needs a quoted pattern"),
        ("params.k in (1, 'a')", 17, "mixes numbers and strings"),
        ("split = \"a\"", 9, "double quotes"),
        ("1 = 1", 1, "expected a field name"),
    ])
    func errorsPointAtTheColumn(expression: String, column: Int, reason: String) {
        do {
            _ = try CatalogFilter.compile(expression.isEmpty ? " x" : expression, context: .clips)
            if !expression.isEmpty { Issue.record("\(expression) compiled") }
        } catch {
            guard case .filter(_, let at, let why) = error else { Issue.record("\(error)"); return }
            if expression.isEmpty { return }
            #expect(at == column, "\(expression): \(why)")
            #expect(why.contains(reason), "\(expression): \(why)")
            #expect(error.description.contains("\n  \(expression)\n  " + String(repeating: " ", count: column - 1) + "^"))
        }
        if expression.isEmpty {
            #expect(throws: CatalogError.filter(expression: "", column: 1, reason: "empty filter")) { _ = try CatalogFilter.parse("") }
        }
    }

    @Test func valuesAreBoundNeverSpliced() throws {
        let hostile = "x'); drop table runs; --"
        let compiled = try CatalogFilter.compile("split = '\(hostile.replacingOccurrences(of: "'", with: "''"))' "
                                                 + "or params.\("k") like '%;%'", context: .clips)
        #expect(!compiled.sql.contains("drop"))
        #expect(!compiled.sql.contains("'x"))
        // A clip's params.KEY looks at the clip's degradation parameters, then its run's: the key is bound twice.
        #expect(compiled.arguments == StatementArguments([hostile, "k", "k", "%;%"]))
        // Hostile input in the key of a dotted name is bound, too.
        let metric = try CatalogFilter.compile("metrics.stoi.mean > 0.5", context: .runs)
        #expect(compiled.sql.contains("?") && metric.arguments == StatementArguments(["stoi", 0.5]))
    }

    /// Filters select the right rows from a real catalogue; numeric params compare as numbers.
    @Test func selectsRows() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        let runA = try catalog.beginRun(kind: .score, name: "a", commandLine: ["sekit"], params: ["checkpoint": "crn-1", "snr_db": "10"])
        let runB = try catalog.beginRun(kind: .score, name: "b", commandLine: ["sekit"], params: ["checkpoint": "dcunet", "snr_db": "9"])
        let runC = try catalog.beginRun(kind: .mix, name: "c", commandLine: ["sekit"], params: ["snr_db": "5"])
        try catalog.insertRunMetrics([RunMetricRecord(runID: runA, metric: "stoi", mean: 0.85, n: 10),
                                      RunMetricRecord(runID: runB, metric: "stoi", mean: 0.75, n: 10),
                                      RunMetricRecord(runID: runB, metric: "stoi", subset: "snr=5", mean: 0.95, n: 3)])
        func names(_ filter: String) throws -> [String] { try catalog.runs(filter: filter).map(\.name).sorted() }
        #expect(try names("params.snr_db > 9.5") == ["a"])          // 10 > 9.5 numerically ("10" < "9.5" as text)
        #expect(try names("params.snr_db >= '9'") == ["b"])         // text comparison when asked for
        #expect(try names("kind = 'score' and metrics.stoi.mean > 0.8") == ["a"])
        #expect(try names("metrics.stoi.mean < 0.9") == ["a", "b"])  // the snr=5 subset is not the overall mean
        #expect(try names("params.checkpoint like 'crn%' or params.snr_db in (0, 5)") == ["a", "c"])
        #expect(try names("params.checkpoint is null") == ["c"])
        #expect(try names("not (kind = 'score')") == ["c"])
        #expect(try names("name = 'x''; drop table runs; --'") == [])
        #expect(try catalog.runs().count == 3)
        try catalog.insertClips((0..<20).map { CatalogTestSupport.clip(runC, index: $0, split: $0 < 15 ? "train" : "test",
                                                                       snrDB: Double($0 - 5)) })
        #expect(try catalog.clips(filter: "split = 'test' and snr_realised_db > 12.5").map(\.clipIndex) == [18, 19])
        #expect(try catalog.clips(filter: "params.snr_db = 5 and clip_index < 2").map(\.clipIndex) == [0, 1])
    }

    /// Seeds are unsigned 64-bit values stored as bit patterns (hardening item 15): the filter compares
    /// the unsigned value exactly, across the 2^63 boundary, and listings print it unsigned.
    @Test func seedsCompareAndPrintAsUnsigned() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("c.sqlite"))
        let run = try catalog.beginRun(kind: .mix, commandLine: ["mix"])
        let seeds: [UInt64] = [0, 1, 1 << 53 + 1, UInt64(Int64.max), 1 << 63, 11_330_540_286_530_808_424, .max]
        try catalog.insertClips(seeds.enumerated().map { index, seed in
            var clip = CatalogTestSupport.clip(run, index: index)
            clip.seed = Int64(bitPattern: seed)
            return clip
        }, noises: [])
        func selected(_ filter: String) throws -> [UInt64] { try catalog.clips(filter: filter).map(\.unsignedSeed) }
        #expect(try selected("seed = 11330540286530808424") == [11_330_540_286_530_808_424])
        #expect(try selected("seed = 9007199254740993") == [1 << 53 + 1])   // 2^53 + 1: no Double holds it
        #expect(try selected("seed != 0 and seed < 9223372036854775808") == [1, 1 << 53 + 1, UInt64(Int64.max)])
        #expect(try selected("seed >= 9223372036854775808") == [1 << 63, 11_330_540_286_530_808_424, .max])
        #expect(try selected("seed > 11330540286530808424") == [.max])
        #expect(try selected("seed <= 1 or seed > 18446744073709551614") == [0, 1, .max])
        #expect(try selected("seed in (18446744073709551615, 1)") == [1, .max])
        #expect(try selected("seed < 9223372036854775807 and seed >= 1e3") == [1 << 53 + 1])
        for bad in ["seed = -7116203787178743192", "seed = 1.5", "seed < 18446744073709551616", "seed = '1'"] {
            #expect(throws: CatalogError.self, "\(bad)") { _ = try catalog.clips(filter: bad) }
        }
        do { _ = try catalog.clips(filter: "seed = -1") } catch {
            #expect(error.description.contains("unsigned 64-bit integer") && error.description.contains("column 8"))
        }
        for format in [TableFormat.csv, .json, .table] {
            var text = ""
            try catalog.exportClips(filter: "seed = 11330540286530808424", format: format) { text += $0 }
            #expect(text.contains("11330540286530808424") && !text.contains("-7116203787178743192"), "\(format): \(text)")
        }
    }

    /// Hostile nesting is refused with a clear error, not a crash; long flat lists compile to SQL
    /// that SQLite's parser accepts.
    @Test func deepNestingIsRefusedAndLongListsRun() throws {
        let deep = String(repeating: "(", count: 20_000) + "split = 'a'" + String(repeating: ")", count: 20_000)
        #expect(throws: CatalogError.self) { try CatalogFilter.compile(deep, context: .clips) }
        do { _ = try CatalogFilter.compile(deep, context: .clips) } catch {
            #expect("\(error)".contains("nested too deeply") && "\(error)".contains("column 101"))
        }
        let nots = String(repeating: "not ", count: 5_000) + "split = 'a'"
        #expect(throws: CatalogError.self) { try CatalogFilter.compile(nots, context: .clips) }
        #expect(try CatalogFilter.compile(String(repeating: "(", count: 50) + "split = 'a'" + String(repeating: ")", count: 50),
                                          context: .clips).sql.contains("split"))

        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let catalog = try Catalog.open(at: folder.file("catalog.sqlite"))
        let run = try catalog.beginRun(kind: .mix, commandLine: ["mix"])
        try catalog.insertClips((0..<10).map { CatalogTestSupport.clip(run, index: $0, snrDB: Double($0)) }, noises: [])
        for joiner in ["and", "or"] {
            let terms = (0..<500).map { "snr_requested_db != \(1000 + $0)" }.joined(separator: " \(joiner) ")
            #expect(try catalog.clips(filter: terms).count == 10, "500 terms joined by \(joiner)")
        }
        let mixed = (0..<300).map { "(split = 'train' and snr_requested_db >= \($0 % 10))" }.joined(separator: " or ")
        #expect(try catalog.clips(filter: mixed).count == 10)
    }
}
