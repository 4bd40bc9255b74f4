import ArgumentParser
import Foundation
import SEKit

/// Where the catalogue is: shared by every command that reads or records into it.
struct CatalogOptions: ParsableArguments {
    @Option(name: .customLong("catalog"),
            help: ArgumentHelp("Catalogue file (default: $SEKIT_CATALOG, else experiments/catalog.sqlite under the current folder).",
                               valueName: "path"))
    var catalogPath: String?

    /// The catalogue file chosen by `--catalog`, `SEKIT_CATALOG` or the default.
    var url: URL {
        if let catalogPath { return URL(fileURLWithPath: catalogPath).standardizedFileURL }
        return Catalog.defaultURL()
    }

    /// Opens the catalogue for writing (and migrates it); `create` for commands that record into it.
    func open(create: Bool) throws -> Catalog {
        try Catalog.open(at: url, create: create)
    }

    /// Opens the existing catalogue read-only, for commands that only list or inspect: its bytes stay as they are.
    func openForReading() throws -> Catalog {
        try Catalog.openForReading(at: url)
    }
}

extension SourceKind: ExpressibleByArgument {}
extension Catalog.MergeConflictPolicy: ExpressibleByArgument {}

/// Writes text to standard output (for large listings), through ``StandardOutput``: a failed write
/// ends the command with a message, never silently or with a crash.
func writeToStandardOutput(_ text: String) {
    StandardOutput.write(text)
}

/// Writes a line to standard error.
func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}
