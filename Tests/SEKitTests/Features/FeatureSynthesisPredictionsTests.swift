import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// Predictions in each of their three shapes (the feature file's rows, a split's rows, clips named
/// by an `/index` of their own), written with h5py as a model's script would, and the refusals.
extension FeatureExportTests {
    /// A corpus of 6 clips (3 train, 3 test), its feature file with `irm`, and a synthesis helper.
    struct PredictionsSetup {
        let folder: TemporaryFolder
        let corpus: URL
        let features: URL
        let reader: FeatureFileReader

        func synthesize(_ predictions: URL, dataset: String = "mask", split: String? = nil, into name: String) throws
            -> (result: FeatureSynthesis.Result, output: URL) {
            var options = FeatureSynthesis.Options()
            options.split = split
            let output = folder.url.appendingPathComponent(name)
            let result = try FeatureSynthesis.run(features: reader, predictions: try PredictionMatrix(url: predictions, dataset: dataset),
                                                  output: output, corpus: corpus, options: options)
            return (result, output)
        }

        func wavs(in folder: URL) -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".wav") }.sorted()
        }
    }

    func predictionsSetup() throws -> PredictionsSetup {
        let folder = try TemporaryFolder()
        let corpus = folder.url.appendingPathComponent("corpus")
        _ = try mixCorpus(corpus, count: 6)
        var options = FeatureExportOptions()
        options.targets = [.irm]
        let features = folder.url.appendingPathComponent("features.h5")
        _ = try FeatureExport.run(corpus: corpus, output: features, options: options)
        return PredictionsSetup(folder: folder, corpus: corpus, features: features, reader: try FeatureFileReader(url: features))
    }

    /// Writes predictions files from the feature file's `irm` with h5py: `all.h5` (every row, no
    /// index), `copied.h5` (every row and a copy of the index), `test.h5` (the test split's rows,
    /// no index), `subset.h5` (two clips, last first, with an index of their own and a `run_id`),
    /// `unknown.h5` (an index naming a clip the file lacks), `two.h5` (two clips' rows, no index),
    /// `short.h5` (a clip one frame short).
    func writePredictions(_ setup: PredictionsSetup) throws {
        _ = try PythonReference.run("""
        import sys, os, h5py, numpy as np
        src, out = sys.argv[1:3]
        def index(g, ids, frames):
            offsets = np.concatenate([[0], np.cumsum(frames)[:-1]]).astype(np.int64)
            g.create_dataset('index/clip_id', data=np.array(ids, dtype=object), dtype=h5py.string_dtype())
            g.create_dataset('index/offset', data=offsets)
            g.create_dataset('index/num_frames', data=np.array(frames, dtype=np.int64))
        with h5py.File(src, 'r') as f:
            irm = f['irm'][:]
            ids = list(f['index/clip_id'].asstr()[()]); off = f['index/offset'][:]; n = f['index/num_frames'][:]
            split = list(f['index/split'].asstr()[()])
            rows = lambda i: irm[off[i]:off[i] + n[i]]
            with h5py.File(os.path.join(out, 'all.h5'), 'w') as g:
                g.create_dataset('mask', data=irm)
            with h5py.File(os.path.join(out, 'copied.h5'), 'w') as g:
                g.create_dataset('mask', data=irm); f.copy('index', g)
            test = [i for i in range(len(ids)) if split[i] == 'test']
            with h5py.File(os.path.join(out, 'test.h5'), 'w') as g:
                g.create_dataset('mask', data=np.concatenate([rows(i) for i in test]))
            pick = [len(ids) - 1, 0]
            with h5py.File(os.path.join(out, 'subset.h5'), 'w') as g:
                g.create_dataset('mask', data=np.concatenate([rows(i) for i in pick]))
                index(g, [ids[i] for i in pick], [n[i] for i in pick]); g.attrs['run_id'] = 'not-in-any-catalogue'
            with h5py.File(os.path.join(out, 'unknown.h5'), 'w') as g:
                g.create_dataset('mask', data=rows(0)); index(g, ['no_such_clip'], [n[0]])
            with h5py.File(os.path.join(out, 'two.h5'), 'w') as g:
                g.create_dataset('mask', data=np.concatenate([rows(0), rows(1)]))
            with h5py.File(os.path.join(out, 'short.h5'), 'w') as g:
                g.create_dataset('mask', data=rows(0)[:-1]); index(g, [ids[0]], [n[0] - 1])
        print('ok')
        """, arguments: [setup.features.path, setup.folder.url.path])
    }

    @Test(.enabled(if: PythonReference.available, "run through scripts/test.sh"))
    func predictionsOfAnySubsetOfClipsGiveTheWholeFilesWAVs() throws {
        let setup = try predictionsSetup(); defer { setup.folder.cleanup() }
        try writePredictions(setup)
        let file = { (name: String) in setup.folder.url.appendingPathComponent(name) }
        let all = try setup.synthesize(file("all.h5"), into: "all")
        #expect(all.result.written == 6 && all.result.failures.isEmpty)
        let bytes = { (folder: URL, wav: String) in try Data(contentsOf: folder.appendingPathComponent(wav)) }
        // Every other shape writes its clips' WAVs byte for byte as the whole file's rows do.
        let testIDs = setup.reader.clips.filter { $0.split == "test" }.map { $0.clipID + ".wav" }.sorted()
        let shapes: [(String, String?, [String])] = [
            ("copied.h5", nil, setup.wavs(in: all.output)),
            ("test.h5", "test", testIDs),
            ("all.h5", "test", testIDs),
            ("subset.h5", nil, [setup.reader.clips[5].clipID + ".wav", setup.reader.clips[0].clipID + ".wav"].sorted()),
        ]
        for (index, (name, split, expected)) in shapes.enumerated() {
            let made = try setup.synthesize(file(name), split: split, into: "shape\(index)")
            #expect(setup.wavs(in: made.output) == expected, "\(name) --split \(split ?? "-")")
            for wav in expected { #expect(try bytes(made.output, wav) == bytes(all.output, wav), "\(name): \(wav)") }
        }
        #expect(try PredictionMatrix(url: file("subset.h5"), dataset: "mask").runID == "not-in-any-catalogue")
    }

    @Test(.enabled(if: PythonReference.available, "run through scripts/test.sh"))
    func predictionsThatDoNotFitAreRefusedNamingTheClipAndTheNumbers() throws {
        let setup = try predictionsSetup(); defer { setup.folder.cleanup() }
        try writePredictions(setup)
        let file = { (name: String) in setup.folder.url.appendingPathComponent(name) }
        let first = setup.reader.clips[0]
        let total = setup.reader.clips.reduce(0) { $0 + $1.numFrames }
        let testRows = setup.reader.clips.filter { $0.split == "test" }.reduce(0) { $0 + $1.numFrames }
        let trainRows = setup.reader.clips.filter { $0.split == "train" }.reduce(0) { $0 + $1.numFrames }
        let twoRows = setup.reader.clips[0].numFrames + setup.reader.clips[1].numFrames
        let cases: [(String, String?, [String])] = [
            ("unknown.h5", nil, ["unknown.h5", "clip 'no_such_clip'", "not in the feature file"]),
            ("short.h5", nil, ["clip '\(first.clipID)' has \(first.numFrames - 1) frames; the feature file has \(first.numFrames)"]),
            ("test.h5", nil, ["/mask is [\(testRows), 257]; expected [\(total), 257]", "write_predictions"]),
            ("two.h5", "train", ["/mask is [\(twoRows), 257]; expected [\(total), 257]",
                                 "[\(trainRows), 257] (the 3 clips of split 'train', in file order)"]),
            ("all.h5", "valid", ["invalid split = valid", "splits: test, train"]),
        ]
        for (index, (name, split, phrases)) in cases.enumerated() {
            let output = file("refused\(index)")
            #expect {
                _ = try setup.synthesize(file(name), split: split, into: "refused\(index)")
            } throws: { error in
                phrases.allSatisfy { "\(error)".contains($0) }
            }
            #expect(!FileManager.default.fileExists(atPath: output.path), "\(name): nothing written")
        }
    }
}
