import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// `sekit features` / `sekit synthesize` on a real fixture mix: what h5py and numpy see, the
/// oracle-mask round trip, determinism and bad input.
@Suite(.needsFixtures)
struct FeatureExportTests {
    /// A small fixture mix with a train/test split, 16-bit WAVs.
    func mixCorpus(_ folder: URL, count: Int = 6) throws -> MixResult {
        var o = MixOptions()
        o.count = count; o.seconds = 2; o.snrDB = .list([-5, 0, 5]); o.seed = 5
        o.split = try SplitSpec(parsing: "train=0.5,test=0.5")
        let inputs = MixInputs(speech: [Fixtures.url("speech").path], noise: [Fixtures.url("noise").path])
        return try MixRun.prepare(options: o, inputs: inputs, output: folder, jobs: 2).run()
    }

    @Test(.enabled(if: PythonReference.available, "run through scripts/test.sh"))
    func h5pySeesTheLayoutAndNumpySTFTMagnitudes() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let corpus = folder.url.appendingPathComponent("corpus")
        let mixed = try mixCorpus(corpus)
        var options = FeatureExportOptions()
        options.targets = [.clean, .noise, .irm, .psm, .noisyPhase]
        options.jobs = 2
        let output = folder.url.appendingPathComponent("features.h5")
        let result = try FeatureExport.run(corpus: corpus, output: output, options: options, mixRunID: "mix-1", featuresRunID: "feat-1")
        #expect(result.clips == mixed.records.count)
        let script = """
        import sys, json, h5py, numpy as np, soundfile as sf
        path, corpus = sys.argv[1], sys.argv[2]
        f = h5py.File(path, 'r')
        a = f.attrs
        n_fft, hop = int(a['n_fft']), int(a['hop_length'])
        win = np.hanning(n_fft + 1)[:-1]  # periodic Hann
        ids = [s.decode() if isinstance(s, bytes) else s for s in f['index/clip_id'][:]]
        worst = 0.0
        manifest = {json.loads(l)['clip_id']: json.loads(l) for l in open(corpus + '/manifest.jsonl')}
        for i, cid in enumerate(ids):
            off, n = int(f['index/offset'][i]), int(f['index/num_frames'][i])
            for stream, stem in (('noisy', 'noisy'), ('clean', 'clean'), ('noise', 'noise')):
                x, sr = sf.read(corpus + '/' + manifest[cid][stem], dtype='float32')
                xp = np.pad(x, n_fft // 2)
                frames = 1 + len(x) // hop
                assert frames == n, (cid, frames, n)
                X = np.abs(np.fft.rfft(np.stack([xp[t*hop:t*hop+n_fft] * win for t in range(frames)]), axis=1))
                stored = f[stream][off:off+n]
                rel = np.max(np.abs(stored - X)) / np.max(X)
                worst = max(worst, rel)
        print(json.dumps({
            'shapes': {k: list(f[k].shape) for k in ('noisy', 'clean', 'noise', 'irm', 'psm', 'noisy_phase')},
            'ids': ids, 'splits': [s.decode() if isinstance(s, bytes) else s for s in f['index/split'][:]],
            'snr': [float(v) for v in f['index/snr_db'][:]], 'total': int(f['index/num_frames'][:].sum()),
            'worst': worst, 'sr': int(a['sample_rate']), 'mix': a['mix_run_id'], 'feat': a['features_run_id'],
            'window': a['window'], 'irm_range': [float(f['irm'][:].min()), float(f['irm'][:].max())],
            'psm_range': [float(f['psm'][:].min()), float(f['psm'][:].max())],
            'phase_max': float(np.abs(f['noisy_phase'][:]).max()),
            'stats': sorted(f['stats'].keys()), 'stats_split': f['stats/noisy'].attrs['split'],
            'stats_mean_bins': len(f['stats/noisy/mean'][:]),
        }))
        """
        let out = try PythonReference.run(script, arguments: [output.path, corpus.path])
        let json = try JSONSerialization.jsonObject(with: Data(out.utf8)) as! [String: Any]
        let total = json["total"] as! Int
        for (_, shape) in json["shapes"] as! [String: [Int]] { #expect(shape == [total, 257]) }
        #expect(json["ids"] as! [String] == mixed.records.map(\.clipID))
        #expect(json["splits"] as! [String] == mixed.records.map(\.split))
        #expect(json["snr"] as! [Double] == mixed.records.map(\.snrDBRequested))
        #expect((json["worst"] as! Double) < 1e-4, "magnitudes differ from numpy's STFT by \(json["worst"]!) relative")
        #expect(json["sr"] as! Int == 16000 && json["mix"] as! String == "mix-1" && json["feat"] as! String == "feat-1")
        let irm = json["irm_range"] as! [Double], psm = json["psm_range"] as! [Double]
        #expect(irm[0] >= 0 && irm[1] <= 1 && psm[0] >= 0 && psm[1] <= 1)
        #expect((json["phase_max"] as! Double) <= Double.pi + 1e-6)
        #expect(json["stats"] as! [String] == ["clean", "noise", "noisy"])
        #expect(json["stats_split"] as! String == "train" && json["stats_mean_bins"] as! Int == 257)
    }

    @Test func oracleRatioMaskResynthesisBeatsTheNoisyInputOnEveryClip() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let corpus = folder.url.appendingPathComponent("corpus")
        let mixed = try mixCorpus(corpus)
        var options = FeatureExportOptions()
        options.targets = [.irm, .noisyPhase]
        let output = folder.url.appendingPathComponent("features.h5")
        _ = try FeatureExport.run(corpus: corpus, output: output, options: options)
        let reader = try FeatureFileReader(url: output)
        for phase in [FeatureSynthesis.PhaseSource.stored, .recompute] {
            var synthesis = FeatureSynthesis.Options()
            synthesis.phase = phase
            synthesis.jobs = 2
            let enhanced = folder.url.appendingPathComponent("oracle-\(phase.rawValue)")
            let result = try FeatureSynthesis.run(features: reader, predictions: try PredictionMatrix(url: output, dataset: "irm"),
                                                  output: enhanced, corpus: corpus, options: synthesis)
            #expect(result.written == mixed.records.count && result.failures.isEmpty)
            for record in mixed.records {
                let clean = try AudioFile.read(at: corpus.appendingPathComponent(record.clean)).samples.map(Double.init)
                let noisy = try AudioFile.read(at: corpus.appendingPathComponent(record.noisy)).samples.map(Double.init)
                let oracle = try AudioFile.read(at: enhanced.appendingPathComponent(record.clipID + ".wav")).samples.map(Double.init)
                #expect(oracle.count == clean.count)
                let before = try STOI.compute(reference: clean, processed: noisy, sampleRate: 16000)
                let after = try STOI.compute(reference: clean, processed: oracle, sampleRate: 16000)
                #expect(after > before, "\(phase) \(record.clipID): STOI \(after) <= noisy \(before)")
            }
        }
        // A prediction dataset that does not exist or has the wrong shape is refused.
        #expect(throws: FeatureFileError.self) { _ = try PredictionMatrix(url: output, dataset: "nothing") }
    }

    @Test func outputDoesNotDependOnJobsAndBadInputLeavesNoFile() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let corpus = folder.url.appendingPathComponent("corpus")
        _ = try mixCorpus(corpus)
        var options = FeatureExportOptions()
        options.targets = [.clean, .ibm]
        options.compression = .gzip(level: 4)
        let one = folder.url.appendingPathComponent("one.h5"), three = folder.url.appendingPathComponent("three.h5")
        options.jobs = 1
        _ = try FeatureExport.run(corpus: corpus, output: one, options: options)
        options.jobs = 3
        _ = try FeatureExport.run(corpus: corpus, output: three, options: options)
        let a = try FeatureFileReader(url: one), b = try FeatureFileReader(url: three)
        #expect(a.clips == b.clips)
        for stream in ["noisy", "clean", "ibm"] {
            #expect(try a.frames(stream: stream, range: 0..<a.stream(stream).totalFrames) == b.frames(stream: stream,
                    range: 0..<b.stream(stream).totalFrames))
        }
        // An existing output is refused; a split with no clips and a missing stem are errors; no file is left.
        #expect(throws: FeatureFileError.self) { _ = try FeatureExport.run(corpus: corpus, output: one, options: options) }
        var empty = options
        empty.split = "valid"
        let none = folder.url.appendingPathComponent("none.h5")
        #expect(throws: FeatureFileError.self) { _ = try FeatureExport.run(corpus: corpus, output: none, options: empty) }
        let records = try MixManifestRecord.read(corpus.appendingPathComponent("manifest.jsonl"))
        try FileManager.default.removeItem(at: corpus.appendingPathComponent(records[3].clean))
        let broken = folder.url.appendingPathComponent("broken.h5")
        #expect(throws: FeatureFileError.self) { _ = try FeatureExport.run(corpus: corpus, output: broken, options: options) }
        // A stem at another sample rate, and a stem of another length, are errors naming the clip or file.
        try AudioWriter.write(AudioBuffer(samples: [Float](repeating: 0.1, count: 8000), sampleRate: 8000),
                              to: corpus.appendingPathComponent(records[3].clean), format: .wavPCM16)
        #expect {
            _ = try FeatureExport.run(corpus: corpus, output: folder.url.appendingPathComponent("rate.h5"), options: options)
        } throws: { error in "\(error)".contains("8000 Hz") && "\(error)".contains(records[3].clean) }
        try AudioWriter.write(AudioBuffer(samples: [Float](repeating: 0.1, count: 8000), sampleRate: 16000),
                              to: corpus.appendingPathComponent(records[3].clean), format: .wavPCM16)
        #expect {
            _ = try FeatureExport.run(corpus: corpus, output: folder.url.appendingPathComponent("length.h5"), options: options)
        } throws: { error in "\(error)".contains(records[3].clipID) && "\(error)".contains("samples") }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
            .filter { ["none", "broken", "rate", "length"].contains(where: $0.contains) }
        #expect(leftovers.isEmpty, "left behind: \(leftovers)")
    }
}
