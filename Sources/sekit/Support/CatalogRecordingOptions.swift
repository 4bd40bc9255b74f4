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

    /// Where this command's run is recorded (nothing with `--no-catalog`), with its command line,
    /// and the user's `--param`/`--tag` when the command takes them.
    func context(name: String? = nil, annotations: RunAnnotationOptions? = nil) throws -> RunContext {
        if noCatalog, let annotations, !annotations.params.isEmpty || !annotations.tags.isEmpty {
            throw ValidationError("--param and --tag are recorded with the run, and --no-catalog records no run; leave one out")
        }
        let context = RunContext(catalog: try open(), commandLine: CommandLine.arguments, name: name)
        return try annotations?.applied(to: context) ?? context
    }
}
