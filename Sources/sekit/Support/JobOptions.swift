import ArgumentParser
import Foundation
import SEKit

/// `--jobs` and `--shard`, shared by every batch command.
struct JobOptions: ParsableArguments {
    @Option(name: .long, help: "Parallel workers (default: all cores). Output does not depend on it.")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .long, help: "Process shard i of N (1-based, e.g. 2/8); the union of all shards equals the unsharded run.")
    var shard: String?

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        if let shard { _ = try parsedShard(shard) }
    }

    var parsedShard: Shard { (try? shard.map(parsedShard)) ?? nil ?? .whole }

    private func parsedShard(_ text: String) throws -> Shard {
        do { return try Shard(parsing: text) } catch { throw ValidationError("\(error)") }
    }
}
