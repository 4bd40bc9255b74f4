import ArgumentParser
import Foundation
import SEKit

/// `sekit runs start`: begins a run made elsewhere (a training script) and prints its id.
struct RunsStartCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "start",
        abstract: "Begin a run made elsewhere (a training script) and print its id.",
        discussion: """
            The run is `running` until `sekit runs finish RUN` (or `--failed REASON`). It belongs to \
            the process that started this command (a script, the Python interpreter of sekit.tracking), \
            or to --pid: when that process is gone while the run is still running, `sekit catalog check` \
            marks the run failed, as for a killed command. In a shell script, pass --pid $$.

            Log into it with `sekit runs log RUN` (per-step metrics, parameters, tags) and \
            `sekit runs artifact RUN PATH`. --parent names the run it derives from (the features run \
            a model trained on): id, unique id prefix or name.

            Example:
              RUN=$(sekit runs start --kind train --name crnn-a --param lr=0.001 --parent train-features --pid $$)
            """
    )

    @OptionGroup var catalog: CatalogOptions

    @Option(help: ArgumentHelp("Kind of run.", valueName: "kind"))
    var kind: RunKind = .train

    @Option(help: ArgumentHelp("The run's name (a model, a checkpoint).", valueName: "name"))
    var name: String

    @OptionGroup var annotations: RunAnnotationOptions

    @Option(help: ArgumentHelp("The run it derives from: id, unique id prefix or name.", valueName: "run"))
    var parent: String?

    @Option(help: ArgumentHelp("The process the run belongs to (default: the one that started this command).", valueName: "pid"))
    var pid: Int?

    func validate() throws {
        if name.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--name is empty; name the run") }
        if let pid, pid <= 0 { throw ValidationError("--pid must be a process id (> 0), got \(pid)") }
    }

    func run() throws {
        let opened = try catalog.open(create: true)
        let parentRun = try parent.map { try opened.resolveRun($0).id }
        var context = try annotations.applied(to: RunContext(catalog: opened, commandLine: CommandLine.arguments, name: name))
        context.ownerPID = pid ?? RunContext.parentProcessID
        let run = try RecordedRun.begin(context, kind: kind, name: name, params: [:], parent: parentRun)
        print(run.id!.rawValue)
    }
}
