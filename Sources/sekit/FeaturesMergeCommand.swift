import ArgumentParser
import Foundation
import SEKit

struct FeaturesMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the files of a sharded export (sekit features --shard i/N) into one feature file.",
        discussion: """
        Default: OUT's streams are HDF5 virtual datasets over the shard files (nothing is \
        copied; h5py reads OUT as one file): rows are shard 1's frames, then shard 2's, ...; \
        /index lists the clips in that order; /stats combines the shards' counts, means and \
        stds exactly. Shards are named relative to OUT's folder, so OUT and its shards can move \
        together. --copy writes one ordinary file instead, byte for byte the \
        unsharded export but for the run ids. Shards must be all N of one export (same corpus, \
        same options); anything else is refused and nothing is written.

        Example:
          sekit features merge feats/train.h5 feats/train-1-of-4.h5 feats/train-2-of-4.h5 feats/train-3-of-4.h5 feats/train-4-of-4.h5
        """
    )

    @Argument(help: "The merged HDF5 file to write.") var out: String
    @Argument(help: "The shard files, all N of them, in any order.") var shards: [String]
    @Flag(name: .long, help: "Copy every frame into one ordinary file (the unsharded export's bytes) instead of virtual datasets.")
    var copy = false
    @Flag(name: .long, help: "Replace an existing output file.") var overwrite = false

    func run() throws {
        var options = FeatureMerge.Options()
        options.mode = copy ? .copy : .virtual
        options.overwrite = overwrite
        let output = URL(fileURLWithPath: out)
        let meter = ProgressMeter(label: "features merge")
        let result = try FeatureMerge.run(output: output, shards: shards.map { URL(fileURLWithPath: $0) }, options: options,
                                          progress: { done, total in meter.update(done, of: total) })
        print("merged: \(output.path) (\(result.mode == .copy ? "copy" : "virtual datasets over the shard files"))")
        print("shards: \(result.shards), clips: \(result.summary.clipCount), frames: \(result.summary.totalFrames), "
              + "\(result.summary.fileBytes) bytes")
    }
}
