import ArgumentParser
import Foundation
import SEKit

/// `sekit catalog merge`: merge shard catalogues.
struct CatalogMergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge shard catalogues into OUT (created if missing); merging again adds nothing.",
        discussion: "Rows already in OUT are kept; a run still 'running' in OUT takes the final status an input has."
    )

    @Argument(help: "Output catalogue.")
    var output: String

    @Argument(help: "Input (shard) catalogues.")
    var inputs: [String]

    @Flag(help: "Print the summary as JSON.")
    var json = false

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("give at least one input catalogue after OUT") }
    }

    func run() async throws {
        let store = try Catalog.open(at: URL(fileURLWithPath: output), create: true)
        let report = try store.merge(inputs.map { URL(fileURLWithPath: $0) })
        if json { writeToStandardOutput(try jsonText(report)); return }
        for (input, counts) in report.inserted.sorted(by: { $0.key < $1.key }) {
            let parts = counts.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
            print("\(input): \(parts.isEmpty ? "nothing new" : parts.joined(separator: ", "))")
        }
        print("merged into \(store.url.path): \(report.totalInserted) rows added, \(report.runsCompleted) runs completed")
    }
}
