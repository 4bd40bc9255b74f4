import ArgumentParser
import Foundation
import SEKit

/// Catalogue options of commands that produce something and record it (`mix`, `score`, ...).
struct CatalogRecordingOptions: ParsableArguments {
    @OptionGroup var location: CatalogOptions
    @Flag(name: .customLong("no-catalog"), help: "Do not record this run in the catalogue.")
    var noCatalog = false

    /// The catalogue to record into (created if missing), or nil with `--no-catalog`.
    func open() throws -> Catalog? {
        noCatalog ? nil : try location.open(create: true)
    }

    /// Where this command's run is recorded (nothing with `--no-catalog`), with its command line.
    func context(name: String? = nil) throws -> RunContext {
        RunContext(catalog: try open(), commandLine: CommandLine.arguments, name: name)
    }
}
