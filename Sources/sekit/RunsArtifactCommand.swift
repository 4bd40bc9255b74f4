import ArgumentParser
import Foundation
import SEKit

/// `sekit runs artifact RUN PATH`.
struct RunsArtifactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "artifact",
        abstract: "Record a file (or folder) a running run made elsewhere produced: a checkpoint, an exported model.",
        discussion: """
            A file is recorded with its SHA-256 and size (`catalog check` then finds it changed or \
            gone), a folder by its path. The same path again replaces the record. RUN: id, unique id \
            prefix or name (of several runs with the name, the one running).
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Argument(help: ArgumentHelp("The run: id, unique id prefix or name.", valueName: "run"))
    var reference: String

    @Argument(help: "The file or folder.")
    var path: String

    @Option(help: ArgumentHelp("What it is, e.g. checkpoint, onnx (default: file, or folder).", valueName: "kind"))
    var kind: String?

    func validate() throws {
        if let kind, kind.isEmpty { throw ValidationError("--kind is empty; leave it out or name what the file is") }
    }

    func run() throws {
        let opened = try catalog.open(create: false)
        let record = try opened.resolveRun(reference, preferring: .running)
        try opened.recordArtifactOfRunningRun(record.id, at: URL(fileURLWithPath: path), kind: kind)
    }
}
