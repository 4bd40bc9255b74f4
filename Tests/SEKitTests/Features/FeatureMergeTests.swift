import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// `sekit features --shard i/N` and `sekit features merge` on a corpus of real speech (mixed in
/// two shards itself): the virtual merge reads as the unsharded export, `--copy` is its bytes.
@Suite(.needsFixtures)
struct FeatureMergeTests {
    @Test(arguments: [(FeatureDType.float32, FeatureCompression.none), (.float32, .gzip(level: 4)), (.float16, .none)])
    func copyIsTheUnshardedExportButForTheRunIDs(dtype: FeatureDType, compression: FeatureCompression) throws {
        var options = FeatureExportOptions()
        options.dtype = dtype; options.compression = compression
        options.targets = [.clean, .noise, .irm, .noisyPhase]
        let export = try ShardedExport.make(options: options)
        defer { export.folder.cleanup() }
        let copy = export.folder.file("copy.h5")
        let result = try FeatureMerge.run(output: copy, shards: export.shards.reversed(), options: {
            var merge = FeatureMerge.Options(); merge.mode = .copy; return merge }())
        #expect(result.shards == 3 && result.summary.clipCount == 12)
        #expect(try ShardedExport.bytesWithoutRunIDs(copy) == ShardedExport.bytesWithoutRunIDs(export.whole))
        let merged = try FeatureFileReader(url: copy), whole = try FeatureFileReader(url: export.whole)
        #expect(merged.attributes["features_run_id"] == .string(RunID.folding(export.shardRuns).rawValue))
        #expect(merged.attributes["features_run_id"] != whole.attributes["features_run_id"])
        #expect(merged.attributes["mix_run_id"] == whole.attributes["mix_run_id"])
        for index in 1...3 {
            let params = try export.catalog!.params(of: export.shardRuns[index - 1])
            #expect(params.first { $0.key == "shard" }?.valueText == "\(index)/3")
        }
    }

    @Test func copyWithoutACatalogueIsByteIdentical() throws {
        let export = try ShardedExport.make(catalogued: false)
        defer { export.folder.cleanup() }
        let copy = export.folder.file("copy.h5")
        var options = FeatureMerge.Options(); options.mode = .copy
        _ = try FeatureMerge.run(output: copy, shards: export.shards, options: options)
        #expect(try Data(contentsOf: copy) == Data(contentsOf: export.whole))
    }

    @Test func shardsHoldTheirClipsWithTheirOwnStatistics() throws {
        let export = try ShardedExport.make(catalogued: false)
        defer { export.folder.cleanup() }
        let whole = try FeatureFileReader(url: export.whole)
        #expect(whole.attributes[FeatureFileLayout.shardAttribute] == nil && whole.clipIndices == nil)
        var seen: [String] = []
        for (position, url) in export.shards.enumerated() {
            let shard = try FeatureFileReader(url: url)
            #expect(shard.attributes[FeatureFileLayout.shardAttribute] == .string("\(position + 1)/3"))
            let indices = try #require(shard.clipIndices)
            #expect(indices == indices.sorted() && indices.allSatisfy { $0 % 3 == position })
            #expect(shard.attributes[FeatureFileLayout.corpusMixSHA256Attribute]
                    == .string(try SHA256.hex(ofFileAt: export.corpus.appendingPathComponent("mix.json"))))
            for clip in shard.clips {
                #expect(try shard.frames(stream: "noisy", clipID: clip.clipID) == whole.frames(stream: "noisy", clipID: clip.clipID))
            }
            var statistics = FeatureStatistics(bins: 257)
            for clip in shard.clips where clip.split == "train" { try statistics.add(frames: try shard.frames(stream: "clean",
                                                                                                              clipID: clip.clipID)) }
            let stored = try shard.statistics(stream: "clean")
            #expect(stored.count == statistics.count && stored.mean == statistics.mean && stored.split == "train")
            seen += shard.clips.map(\.clipID)
        }
        #expect(seen.sorted() == whole.clips.map(\.clipID).sorted())
    }

    @Test func virtualMergeReadsAsTheUnshardedExport() throws {
        var options = FeatureExportOptions()
        options.compression = .gzip(level: 1)
        options.targets = [.clean, .irm]
        let export = try ShardedExport.make(options: options)
        defer { export.folder.cleanup() }
        let merged = export.folder.file("merged.h5")
        let started = Date()
        let result = try FeatureMerge.run(output: merged, shards: [export.shards[2], export.shards[0], export.shards[1]],
                                          options: FeatureMerge.Options())
        #expect(Date().timeIntervalSince(started) < 1, "the virtual merge copies no frame")
        #expect(result.mode == .virtual && result.summary.clipCount == 12)
        let reader = try FeatureFileReader(url: merged), whole = try FeatureFileReader(url: export.whole)
        #expect(reader.clipIndices == [0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11], "shard 1's clips, then shard 2's, then shard 3's")
        for clip in whole.clips {
            for stream in ["noisy", "clean", "irm"] {
                #expect(try reader.frames(stream: stream, clipID: clip.clipID) == whole.frames(stream: stream, clipID: clip.clipID))
            }
        }
        #expect(reader.attributes[FeatureFileLayout.shardsAttribute] == .int(3))
        #expect(reader.attributes[FeatureFileLayout.mergedAttribute] == .string("virtual"))
        #expect(reader.attributes["features_run_id"] == .string(RunID.folding(export.shardRuns).rawValue))
    }

    /// h5py opens the merged file as one file from another working directory and from a moved
    /// copy of the folder (source names are relative), and reads every clip as the unsharded
    /// export's; the statistics agree within 1e-12 relative.
    @Test(.enabled(if: PythonReference.available, "run through scripts/test.sh"))
    func h5pyReadsTheMergeFromAnotherFolderAndAMovedCopy() throws {
        var options = FeatureExportOptions()
        options.dtype = .float16
        options.targets = [.clean, .noise, .irm]
        let export = try ShardedExport.make(options: options)
        defer { export.folder.cleanup() }
        let merged = export.folder.file("merged.h5")
        _ = try FeatureMerge.run(output: merged, shards: export.shards, options: FeatureMerge.Options())
        let output = try PythonReference.run("""
        import os, sys, shutil, numpy as np, h5py
        folder, moved = sys.argv[1], sys.argv[2]
        os.chdir("/")
        def check(path):
            m, w = h5py.File(path, "r"), h5py.File(os.path.join(os.path.dirname(path), "whole.h5"), "r")
            for name in ["noisy", "clean", "noise", "irm"]:
                assert m[name].is_virtual and m[name].shape == w[name].shape and m[name].dtype == w[name].dtype, name
                names = [s.file_name for s in m[name].virtual_sources()]
                assert names == [f"shard-{i}-of-3.h5" for i in (1, 2, 3)], names
            where = {c: k for k, c in enumerate(w["index/clip_id"].asstr()[()])}
            ids = m["index/clip_id"].asstr()[()]
            assert sorted(ids) == sorted(where)
            for k, clip in enumerate(ids):
                o, n = m["index/offset"][k], m["index/num_frames"][k]
                j = where[clip]
                o2, n2 = w["index/offset"][j], w["index/num_frames"][j]
                assert n == n2 and m["index/split"].asstr()[k] == w["index/split"].asstr()[j]
                for name in ["noisy", "clean", "noise", "irm"]:
                    assert np.array_equal(m[name][o:o + n], w[name][o2:o2 + n2]), (clip, name)
            assert np.array_equal(np.cumsum(m["index/num_frames"][()])[:-1], m["index/offset"][1:])
            for name in ["noisy", "clean", "noise"]:
                for key in ["mean", "std"]:
                    a, b = m[f"stats/{name}/{key}"][()], w[f"stats/{name}/{key}"][()]
                    assert np.allclose(a, b, rtol=1e-12, atol=0), (name, key, np.max(np.abs(a - b) / np.abs(b)))
                assert m[f"stats/{name}"].attrs["count"] == w[f"stats/{name}"].attrs["count"]
                assert m[f"stats/{name}"].attrs["split"] == "train"
            assert m.attrs["shards"] == 3 and m.attrs["merged"] == "virtual" and "shard" not in m.attrs
            for key in set(w.attrs) - {"features_run_id", "mix_run_id"}:
                assert m.attrs[key] == w.attrs[key], key
        check(os.path.join(folder, "merged.h5"))
        shutil.copytree(folder, moved)
        os.rename(folder, folder + ".away")
        try:
            check(os.path.join(moved, "merged.h5"))
        finally:
            os.rename(folder + ".away", folder)
            shutil.rmtree(moved)
        print("ok")
        """, arguments: [export.folder.url.path, export.folder.url.path + "-moved"])
        #expect(output.hasPrefix("ok"))
    }
}
