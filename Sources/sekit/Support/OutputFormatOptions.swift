import ArgumentParser
import Foundation
import SEKit

extension TableFormat: ExpressibleByArgument {}
extension RunKind: ExpressibleByArgument {}

/// The `--format` values one command offers, a subset of the library's ``ReportFormat``.
protocol ReportFormatChoice: RawRepresentable<String>, ExpressibleByArgument {}

extension ReportFormatChoice {
    /// The library format of the same name.
    var report: ReportFormat { ReportFormat(rawValue: rawValue)! }
}

/// `--format table|csv|json` and its alias `--json`, shared by every command that prints records.
struct OutputFormatOptions: ParsableArguments {
    @Option(help: ArgumentHelp("How to print the result (default: table; the description says what each format holds).",
                               valueName: "format"))
    var format: TableFormat?

    @Flag(help: "Same as --format json.")
    var json = false

    func validate() throws {
        if json, let format, format != .json {
            throw ValidationError("--json means --format json; it conflicts with --format \(format.rawValue)")
        }
    }

    /// The format asked for: `--format`, `json` for `--json`, else `table`.
    var resolved: TableFormat { json ? .json : format ?? .table }

    /// Prints a report: `text` for `table`, the report's main `table` as CSV, the report itself as JSON.
    func print<Report: Encodable>(_ report: Report, text: () -> String, table: () -> ReportTable) throws {
        switch resolved {
        case .table: writeToStandardOutput(text())
        case .csv: writeToStandardOutput(table().rendered(.csv))
        case .json: writeToStandardOutput(try ReportJSON.text(report))
        }
    }
}

/// `--filter`, `--limit` and the output format of the listings (`catalog clips`, `runs list`).
struct ListingOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Filter expression (and, or, not, = != < <= > >=, like, in (...), is null; fields below).",
                               valueName: "expr"))
    var filter: String?

    @Option(help: ArgumentHelp("At most this many rows.", valueName: "n"))
    var limit: Int?

    @OptionGroup var outputFormat: OutputFormatOptions

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be >= 0, got \(limit)") }
    }

    /// How listings are printed, for a command's discussion.
    static let formatsHelp = """
        Formats: table (aligned columns, sized after reading every row), csv (a header line, then \
        one line a row, streamed) or json (an array of objects, streamed).
        """
}
