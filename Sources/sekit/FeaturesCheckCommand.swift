import ArgumentParser
import Foundation
import SEKit

/// `sekit features check FILE`: whether a feature file (a merged one's shards above all) reads whole.
struct FeaturesCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check that a feature file reads whole: every shard a merged file maps is present and of the expected size.",
        discussion: """
        A file made by `sekit features merge` (virtual datasets) reads its rows from the shard \
        files; HDF5 (and h5py) read the rows of a missing or replaced shard as zeros without an \
        error. check lists every mapping whose shard file is missing, unreadable, lacks the \
        dataset or has another shape than the merged file maps, and exits 1 if there is one. \
        SEKit's readers (synthesize, experiments/python/sekit_dataset.py) refuse such a file.

        Example:
          sekit features check feats/train.h5
        """
    )

    @Argument(help: "The feature file (.h5).") var file: String
    @OptionGroup var outputFormat: OutputFormatOptions

    func run() throws {
        let check = try FeatureFileCheck.run(URL(fileURLWithPath: file))
        try outputFormat.print(check, text: { check.text }, table: {
            ReportTable(columns: ["stream", "first_row", "rows", "shard", "problem"], rows: check.mappings.map { mapping in
                [.text(mapping.stream), .integer(Int64(mapping.firstRow)), .integer(Int64(mapping.rows)), .text(mapping.path),
                 mapping.problem.map(TableCell.text) ?? .null]
            })
        })
        if !check.isSound { throw ExitCode(1) }
    }
}
