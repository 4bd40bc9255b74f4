import ArgumentParser
import Foundation
import SEKit

/// `sekit runs show`.
struct RunsShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one run: provenance, parameters, artifacts, metrics, counts."
    )

    @OptionGroup var catalog: CatalogOptions

    @Argument(help: "Run id, or an unambiguous prefix of it.")
    var id: String

    @Flag(help: "Print as JSON.")
    var json = false

    func run() async throws {
        let details = try catalog.open(create: false).runDetails(id)
        if json { writeToStandardOutput(try jsonText(details)); return }
        let run = details.run
        var lines = [
            "run \(run.id)", "kind: \(run.kind.rawValue)", "name: \(run.name)", "status: \(run.status.rawValue)",
            "started: \(run.startedAt)", "finished: \(run.finishedAt.map { "\($0)" } ?? "-")",
            "tool version: \(run.toolVersion)", "host: \(run.host) (pid \(run.pid))",
            "folder: \(run.workingDirectory)", "command: \(run.commandLine)",
        ]
        if let parent = run.parentID { lines.append("parent: \(parent)") }
        if let error = run.error { lines.append("error: \(error)") }
        lines.append("clips: \(details.clipCount), clip scores: \(details.clipScoreCount), sources: \(details.sourceCount)")
        if !details.children.isEmpty { lines.append("children: \(details.children.map(\.rawValue).joined(separator: ", "))") }
        if !details.params.isEmpty {
            lines.append("params:")
            lines += details.params.map { "  \($0.key) = \($0.valueText)" }
        }
        if !details.artifacts.isEmpty {
            lines.append("artifacts:")
            lines += details.artifacts.map { "  \($0.kind) \($0.path)\($0.bytes.map { " (\($0) bytes)" } ?? "")" }
        }
        if !details.metrics.isEmpty {
            lines.append("metrics:")
            lines += details.metrics.map { m in
                let ci = (m.ci95Low != nil && m.ci95High != nil) ? String(format: " [%.4g, %.4g]", m.ci95Low!, m.ci95High!) : ""
                return "  \(m.metric)\(m.subset.isEmpty ? "" : " (\(m.subset))"): mean \(String(format: "%.4g", m.mean))\(ci) n=\(m.n)"
            }
        }
        writeToStandardOutput(lines.joined(separator: "\n") + "\n")
    }
}
