import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// Files written by the Swift writer, read by h5py, `experiments/python/sekit_dataset.py` and `h5dump`.
@Suite struct FeatureFileInteropTests {
    static let datasetModuleFolder = Fixtures.projectRoot.appendingPathComponent("experiments/python")

    @Test(.enabled(if: PythonReference.available, "run through scripts/test.sh"), arguments: [
        (FeatureDType.float32, FeatureCompression.gzip(level: 3)), (FeatureDType.float16, FeatureCompression.none),
    ])
    func h5pyReadsLayout(dtype: FeatureDType, compression: FeatureCompression) throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("features.h5")
        let clips = FeatureFileSample.clips(count: 10)
        try FeatureFileSample.write(clips, to: url, dtype: dtype, compression: compression)
        for stream in FeatureFileSample.streams {
            try PythonReference.writeRaw(clips.flatMap { $0.frames[stream.name]! }, to: folder.file("\(stream.name).f32"))
        }
        let expectedChunk = FeatureFileLayout.chunkFrames(bins: 9, dtype: dtype)
        let gzipLevel: Int = if case .gzip(let level) = compression { level } else { 0 }
        let output = try PythonReference.run("""
        import sys, math, numpy as np, h5py
        path, folder, dtype, chunk, level = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
        f = h5py.File(path, "r")
        assert sorted(f.keys()) == ["clean", "index", "irm", "noisy", "stats"], list(f.keys())
        total = int(f["index/num_frames"][()].sum())
        for name in ["noisy", "clean", "irm"]:
            d = f[name]
            assert d.shape == (total, 9), d.shape
            assert d.dtype == np.dtype("<f4" if dtype == "float32" else "<f2"), d.dtype
            assert d.maxshape == (None, 9), d.maxshape
            assert d.chunks == (chunk, 9), d.chunks
            if level:
                assert d.compression == "gzip" and d.compression_opts == level and d.shuffle, (d.compression, d.compression_opts, d.shuffle)
            else:
                assert d.compression is None and not d.shuffle
            expected = np.fromfile(f"{folder}/{name}.f32", "<f4").reshape(-1, 9)
            if dtype == "float16":
                expected = expected.astype(np.float16)
            assert np.array_equal(d[()], expected), name
        idx = f["index"]
        ids = idx["clip_id"].asstr()[()]
        assert [str(x) for x in ids] == [f"clip-{i:03d}" for i in range(10)], ids
        assert isinstance(idx["clip_id"][0], bytes)
        assert idx["offset"].dtype == np.int64 and idx["num_frames"].dtype == np.int64 and idx["snr_db"].dtype == np.float64
        off, n = idx["offset"][()], idx["num_frames"][()]
        assert off[0] == 0 and np.array_equal(off[1:], np.cumsum(n)[:-1])
        snr = idx["snr_db"][()]
        assert math.isnan(snr[1]) and snr[0] == -5.5 and snr[9] == 3.5, snr
        split = idx["split"].asstr()[()]
        assert list(split[:4]) == ["train", "train", "train", "valid"], split
        a = f.attrs
        assert isinstance(a["window"], str) and a["window"] == "hann"
        assert isinstance(a["n_fft"], np.integer) and a["n_fft"] == 16
        assert isinstance(a["exponent"], np.floating) and a["exponent"] == 0.3
        for key in ["format_version", "sekit_version", "frame_convention", "sample_rate", "mix_run_id", "features_run_id"]:
            assert key in a, key
        assert a["sample_rate"] == 16000 and a["format_version"] == 1 and a["features_run_id"] == "features-run-1"
        assert a["dtype"] == dtype and a["chunk_frames"] == chunk
        train = np.concatenate([f["noisy"][o:o + k] for o, k, s in zip(off, n, split) if s == "train"]).astype(np.float64)
        mean, std = f["stats/noisy/mean"][()], f["stats/noisy/std"][()]
        assert mean.dtype == np.float64 and mean.shape == (9,)
        assert np.allclose(mean, train.mean(axis=0), rtol=1e-12, atol=0), mean - train.mean(axis=0)
        assert np.allclose(std, train.std(axis=0), rtol=1e-10, atol=0)
        assert f["stats/noisy"].attrs["count"] == len(train) and f["stats/noisy"].attrs["split"] == "train"
        print("ok", total)
        """, arguments: [url.path, folder.url.path, dtype.rawValue, String(expectedChunk), String(gzipLevel)])
        #expect(output.hasPrefix("ok"))
    }

    @Test(.enabled(if: PythonReference.available, "run through scripts/test.sh"))
    func pythonDatasetReadsSwiftFile() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("features.h5")
        let clips = FeatureFileSample.clips(count: 10)
        try FeatureFileSample.write(clips, to: url, compression: .gzip(level: 1))
        let clip3 = clips[4]
        try PythonReference.writeRaw(clip3.frames["irm"]!, to: folder.file("irm4.f32"))
        let output = try PythonReference.run("""
        import sys, numpy as np
        sys.path.insert(0, sys.argv[1])
        sys.modules["torch"] = None  # the numpy-only path, whether or not torch is installed
        from sekit_dataset import SEKitFeatureDataset
        assert SEKitFeatureDataset.__mro__[1] is object, SEKitFeatureDataset.__mro__
        whole = SEKitFeatureDataset(sys.argv[2], target="irm", normalize=False)
        assert len(whole) == 10
        noisy, irm, clip_id = whole[4]
        assert clip_id == "clip-004" and noisy.dtype == np.float32 and noisy.shape[1] == 9
        assert np.array_equal(irm, np.fromfile(sys.argv[3], "<f4").reshape(-1, 9))
        train = SEKitFeatureDataset(sys.argv[2], target="irm", split="train", normalize=True)
        stacked = np.concatenate([train[i][0] for i in range(len(train))]).astype(np.float64)
        assert np.allclose(stacked.mean(axis=0), 0, atol=1e-5) and np.allclose(stacked.std(axis=0), 1, atol=1e-4)
        seg = SEKitFeatureDataset(sys.argv[2], target="clean", split="valid", segment_frames=8, seed=5)
        for i in range(len(seg)):
            x, y, _ = seg[i]
            assert x.shape == (8, 9) and y.shape == (8, 9)
        print("ok", len(train), len(seg))
        """, arguments: [Self.datasetModuleFolder.path, url.path, folder.file("irm4.f32").path])
        #expect(output.hasPrefix("ok 8 2"))

        let unitTests = try PythonReference.run("""
        import sys, unittest
        sys.path.insert(0, sys.argv[1])
        import test_sekit_dataset
        result = unittest.main(module=test_sekit_dataset, argv=["test"], exit=False).result
        print("ran", result.testsRun, "failed", len(result.failures) + len(result.errors))
        """, arguments: [Self.datasetModuleFolder.path])
        #expect(unitTests.contains("failed 0"))
        #expect(!unitTests.contains("ran 0"))
    }

    static var h5dump: String? {
        ["/usr/bin/h5dump", "/usr/local/bin/h5dump"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(.enabled(if: h5dump != nil, "needs h5dump (hdf5-tools)"))
    func h5dumpShowsLayout() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("features.h5")
        try FeatureFileSample.write(FeatureFileSample.clips(count: 3), to: url, dtype: .float16, compression: .gzip(level: 4))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.h5dump!)
        process.arguments = ["-H", "-p", url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        if ProcessInfo.processInfo.environment["SEKIT_PRINT_H5DUMP"] != nil { print(text) }
        for expected in ["DATASET \"noisy\"", "DATASET \"clean\"", "DATASET \"irm\"", "H5S_UNLIMITED", "GROUP \"index\"",
                         "DATASET \"clip_id\"", "DATASET \"offset\"", "DATASET \"num_frames\"", "DATASET \"snr_db\"",
                         "DATASET \"split\"", "H5T_STD_I64LE", "H5T_IEEE_F64LE", "H5T_STRING", "STRSIZE H5T_VARIABLE",
                         "CSET H5T_CSET_UTF8", "GROUP \"stats\"", "ATTRIBUTE \"sample_rate\"", "ATTRIBUTE \"format_version\"",
                         "SHUFFLE", "COMPRESSION DEFLATE { LEVEL 4 }", "CHUNKED"] {
            #expect(text.contains(expected), "h5dump -H lacks \(expected)")
        }
    }
}
