import ArgumentParser
import Foundation
import SEKit

extension Shard: ExpressibleByArgument {
    /// Parses `i/N` (1 ≤ i ≤ N); nil otherwise (the parser then names `--shard` and shows its help).
    public init?(argument: String) { try? self.init(parsing: argument) }
    public var defaultValueDescription: String { description }
}

/// `--jobs`, shared by every parallel command.
struct JobsOption: ParsableArguments {
    // No default value in the declaration: the core count would make `--help` depend on the machine.
    @Option(name: .customLong("jobs"),
            help: ArgumentHelp("Parallel workers (default: all cores). Output does not depend on it.", valueName: "n"))
    var requestedJobs: Int?

    /// Workers to use: `--jobs`, else every core.
    var jobs: Int { requestedJobs ?? ProcessInfo.processInfo.activeProcessorCount }

    func validate() throws {
        if let requestedJobs, requestedJobs < 1 { throw ValidationError("--jobs must be at least 1, got \(requestedJobs)") }
    }
}

/// `--jobs` and `--shard`, shared by the batch commands that split their work into shards
/// (`mix`, `enhance`, `score`, `features`, `synthesize`). A command that does not honour `--shard` takes ``JobsOption`` instead, so
/// it never accepts an option it would ignore.
struct JobOptions: ParsableArguments {
    @OptionGroup var workers: JobsOption

    @Option(help: ArgumentHelp("Process shard i of N (1-based, 1 <= i <= N, e.g. 2/8); the union of all shards equals the unsharded run.",
                               valueName: "i/N"))
    var shard: Shard = .whole

    /// Workers to use: `--jobs`, else every core.
    var jobs: Int { workers.jobs }
}
