import Foundation
import Testing

/// `sekit enhance --model` end to end: tiny ONNX models made with torch, run on speech mixed from
/// the fixtures, the outputs checked against onnxruntime and numpy called directly, the run's
/// parameters and parent, streaming, and the bad inputs.
@Suite(.serialized, .needsFixtures, .enabled(if: PaperMetrics.pythonRequired, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct EnhanceModelCommandTests {
    /// Mixes 4 clips of `seconds` from the fixtures into `folder/corpus`.
    func corpus(_ folder: CatalogCLIFolder, catalog: String, seconds: Int = 2) throws -> String {
        let fixtures = GoldenCorpus.fixtures.path
        let mixed = try SEKitBinary.run(["mix", "--speech", fixtures + "/speech", "--noise", fixtures + "/noise/running_tap.wav",
                                         "--count", "4", "--seconds", "\(seconds)", "--snr-db", "0", "--seed", "3",
                                         "--out", folder.path("corpus"),
                                         "--catalog", catalog])
        #expect(mixed.status == 0, "\(mixed.stderr)")
        return folder.path("corpus")
    }

    func param(_ folder: CatalogCLIFolder, _ catalog: String, run name: String, _ key: String) throws -> String {
        try folder.sqlite(catalog, "SELECT value_text FROM params p JOIN runs r ON r.id = p.run_id "
                          + "WHERE r.name = '\(name)' AND r.kind = 'enhance' AND key = '\(key)'")
    }

    @Test func outputsMatchONNXRuntimeCalledDirectlyAndTheRunRecordsTheModel() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = folder.path("catalog.sqlite")
        let corpus = try corpus(folder, catalog: catalog)
        let train = try SEKitBinary.run(["runs", "start", "--kind", "train", "--name", "tiny-train", "--catalog", catalog])
        #expect(train.status == 0, "\(train.stderr)")
        let trainID = train.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try FileManager.default.createDirectory(at: folder.file("models"), withIntermediateDirectories: true)
        try TinyONNXModel.make(folder.path("models/tiny.onnx"), trainRunID: trainID)
        try TinyONNXModel.make(folder.path("models/other.onnx"), metadata: ["output": "magnitude", "feature": "compressed"])
        // A quoted glob: one run per model, each into --out DIR/NAME/ (the glob leaves tiny.stream.onnx out).
        let enhanced = try SEKitBinary.run(["enhance", "--model", folder.path("models/t*y.onnx"), folder.path("models/other.onnx"),
                                            "--corpus", corpus, "--out", folder.path("enhanced"), "--jobs", "2", "--catalog", catalog])
        #expect(enhanced.status == 0, "\(enhanced.stderr)")
        let clips = try FileManager.default.contentsOfDirectory(atPath: folder.path("corpus/noisy"))
            .filter { $0.hasSuffix(".wav") }.sorted()
        #expect(clips.count == 4)
        for clip in clips {
            let (difference, peak) = try TinyONNXModel.referenceDifference(model: folder.path("models/tiny.onnx"),
                                                                            noisy: folder.path("corpus/noisy/\(clip)"),
                                                                            enhanced: folder.path("enhanced/tiny/\(clip)"))
            #expect(difference < 1e-5 && peak > 1e-3, "\(clip): \(difference) from the reference (peak \(peak))")
            // A model whose output is the enhanced magnitude in its feature domain (compressed, exponent 0.3).
            let magnitude = try TinyONNXModel.referenceDifference(model: folder.path("models/other.onnx"),
                                                                  noisy: folder.path("corpus/noisy/\(clip)"),
                                                                  enhanced: folder.path("enhanced/other/\(clip)"))
            #expect(magnitude.difference < 1e-5 && magnitude.peak > 1e-3, "\(clip): \(magnitude.difference) (peak \(magnitude.peak))")
        }
        // The run: the model's hash, size, MACs (Linear 257→16, GRU 16, Linear 16→257 over 63 frames), latency, rtf.
        let data = try Data(contentsOf: folder.file("models/tiny.onnx"))
        let sha = try TinyONNXModel.run("import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], 'rb').read()).hexdigest())",
                                        [folder.path("models/tiny.onnx")]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!data.isEmpty)
        #expect(try param(folder, catalog, run: "tiny", "model_sha256") == sha)
        let linearIn: Int = 257 * 16, gru: Int = 2 * 3 * 16 * 16, linearOut: Int = 16 * 257
        let biases: Int = 16 + 2 * 3 * 16 + 257, frames: Int = 1 + 16000 / 256
        #expect(try param(folder, catalog, run: "tiny", "model_parameters") == "\(linearIn + gru + linearOut + biases)")
        #expect(try param(folder, catalog, run: "tiny", "model_macs_per_second") == "\(frames * (linearIn + gru + linearOut))")
        #expect(try param(folder, catalog, run: "tiny", "latency_ms") == "32.0")
        #expect(try Double(param(folder, catalog, run: "tiny", "rtf")).map { $0 > 0 } == true)
        #expect(try param(folder, catalog, run: "tiny", "clips_failed") == "0")
        // Parents: the training run the model names; the corpus's mix run for a model that names none.
        #expect(try folder.sqlite(catalog, "SELECT parent_id FROM runs WHERE name = 'tiny' AND kind = 'enhance'") == trainID)
        let mixID = try folder.sqlite(catalog, "SELECT id FROM runs WHERE kind = 'mix'")
        #expect(try folder.sqlite(catalog, "SELECT parent_id FROM runs WHERE name = 'other' AND kind = 'enhance'") == mixID)
        // The outputs pair with the corpus in score.
        let scored = try SEKitBinary.run(["score", "--corpus", corpus, "--enhanced", folder.path("enhanced/tiny"), "--metrics", "sisdr",
                                          "--catalog", catalog])
        #expect(scored.status == 0, "\(scored.stderr)")
    }

    /// What the worker derives from a model (its parameter and MAC counts, its graph with Elu rewritten) is
    /// kept under `$XDG_CACHE_HOME/sekit/onnx/<the file's SHA-256>-r1/`; a later run reads it, and a damaged
    /// file there is made again: the same parameters each time.
    @Test func theModelsCountsAreKeptByItsHashAndRemadeWhenDamaged() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = folder.path("catalog.sqlite")
        let corpus = try corpus(folder, catalog: catalog)
        try TinyONNXModel.make(folder.path("tiny.onnx"))
        let cache = folder.path("cache")
        func enhance(_ name: String) throws -> [String] {
            let runs = folder.path(name + ".sqlite")
            let result = try SEKitBinary.run(["enhance", "--model", folder.path("tiny.onnx"), "--corpus", corpus,
                                              "--out", folder.path(name), "--catalog", runs],
                                             environment: ["XDG_CACHE_HOME": cache])
            #expect(result.status == 0, "\(result.stderr)")
            return try ["model_sha256", "model_parameters", "model_macs_per_second"].map { try param(folder, runs, run: "tiny", $0) }
        }
        let first = try enhance("first")
        let entry = cache + "/sekit/onnx/\(first[0])-r1"
        let fm = FileManager.default
        #expect(try fm.contentsOfDirectory(atPath: entry).sorted() == ["counts.json", "elu-as-exp.onnx"])
        let counts = try String(contentsOfFile: entry + "/counts.json", encoding: .utf8)
        #expect(counts.contains("\"parameters\": \(first[1])") && counts.contains("\"macs_per_second\": \(first[2])"), "\(counts)")
        // No Elu node in the tiny model: the rewrite is empty, and the file itself is loaded.
        #expect((try fm.attributesOfItem(atPath: entry + "/elu-as-exp.onnx")[.size] as? Int) == 0)
        #expect(try enhance("second") == first)
        for name in ["counts.json", "elu-as-exp.onnx"] {
            try Data("damaged".utf8).write(to: URL(fileURLWithPath: entry + "/" + name))
        }
        #expect(try enhance("third") == first)
        #expect(try String(contentsOfFile: entry + "/counts.json", encoding: .utf8) == counts, "made again")
        #expect((try fm.attributesOfItem(atPath: entry + "/elu-as-exp.onnx")[.size] as? Int) == 0)
    }

    /// Issue 40 item 2: a model file replaced by another of the same size and modification time (as
    /// `tar x` or `cp -p` leave it) is hashed again: the run records the new file's SHA-256, not the
    /// cached hash of the file that was there before.
    @Test func aReplacedModelOfTheSameSizeAndTimeIsHashedAgain() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = folder.path("catalog.sqlite")
        let corpus = try corpus(folder, catalog: catalog)
        try TinyONNXModel.make(folder.path("a.onnx"), metadata: ["epoch": "1"])
        try TinyONNXModel.make(folder.path("b.onnx"), metadata: ["epoch": "2"])
        let fm = FileManager.default
        let size = { (path: String) in try fm.attributesOfItem(atPath: path)[.size] as? Int }
        #expect(try size(folder.path("a.onnx")) == size(folder.path("b.onnx")), "the two models must be of one size")
        let when = Date(timeIntervalSince1970: 1_700_000_000)
        let model = folder.path("model.onnx"), cache = folder.path("cache")
        func enhance(_ name: String) throws -> String {
            try fm.setAttributes([.modificationDate: when], ofItemAtPath: model)
            let runs = folder.path(name + ".sqlite")
            let result = try SEKitBinary.run(["enhance", "--model", model, "--corpus", corpus, "--out", folder.path(name),
                                              "--catalog", runs], environment: ["XDG_CACHE_HOME": cache])
            #expect(result.status == 0, "\(result.stderr)")
            return try param(folder, runs, run: "model", "model_sha256")
        }
        func sha(_ path: String) throws -> String {
            try TinyONNXModel.run("import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], 'rb').read()).hexdigest())", [path])
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        try fm.copyItem(atPath: folder.path("a.onnx"), toPath: model)
        #expect(try enhance("first") == sha(folder.path("a.onnx")))
        // The bytes replaced in place (same path, inode, size and modification time).
        try Data(contentsOf: folder.file("b.onnx")).write(to: URL(fileURLWithPath: model))
        #expect(try enhance("second") == sha(folder.path("b.onnx")), "the previous file's cached hash was used")
    }

    /// Issue 40 item 13: the obvious glob over the recipe's output (`epoch-*.onnx`) matched each epoch's
    /// streaming companion too and stopped after redoing epoch 1. Companions are set aside with one
    /// note, and every model is checked before the first clip.
    @Test func aGlobSetsStreamingCompanionsAsideAndEveryModelIsCheckedFirst() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = folder.path("catalog.sqlite")
        let corpus = try corpus(folder, catalog: catalog)
        try FileManager.default.createDirectory(at: folder.file("runs"), withIntermediateDirectories: true)
        for epoch in [1, 2] { try TinyONNXModel.make(folder.path("runs/epoch-\(epoch).onnx"), metadata: ["epoch": "\(epoch)"]) }
        let result = try SEKitBinary.run(["enhance", "--model", folder.path("runs/epoch-*.onnx"), "--corpus", corpus,
                                          "--out", folder.path("enhanced"), "--catalog", catalog])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.components(separatedBy: "set aside").count == 2 && result.stderr.contains("2 streaming models"),
                "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("enhanced")).sorted() == ["epoch-1", "epoch-2"])
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM runs WHERE kind = 'enhance'") == "2")
        // A bad model later in the list stops the command before the first model writes anything.
        try TinyONNXModel.make(folder.path("runs/epoch-3.onnx"), metadata: ["n_fft": "1024"])
        let refused = try SEKitBinary.run(["enhance", "--model", folder.path("runs/epoch-*.onnx"), "--corpus", corpus,
                                           "--out", folder.path("again"), "--catalog", catalog])
        #expect(refused.status == 1 && refused.stderr.contains("epoch-3.onnx"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("again")), "a model ran before the bad one was found")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM runs WHERE kind = 'enhance'") == "2")
    }

    @Test func streamingEqualsTheWholeUtteranceModelAndTimesEachFrame() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = folder.path("catalog.sqlite")
        // 4 s clips: 251 frame times make a response line longer than 4 KiB (its payload once went unread).
        let corpus = try corpus(folder, catalog: catalog, seconds: 4)
        try TinyONNXModel.make(folder.path("tiny.onnx"))
        let whole = try SEKitBinary.run(["enhance", "--model", folder.path("tiny.onnx"), "--corpus", corpus, "--out", folder.path("whole"),
                                         "--no-catalog"])
        #expect(whole.status == 0, "\(whole.stderr)")
        let streamed = try SEKitBinary.run(["enhance", "--model", folder.path("tiny.onnx"), "--streaming", "--corpus", corpus,
                                            "--out", folder.path("streamed"), "--catalog", catalog])
        #expect(streamed.status == 0, "\(streamed.stderr)")
        #expect(try Double(param(folder, catalog, run: "tiny", "streaming_max_abs_diff")).map { $0 < 1e-5 } == true)
        #expect(try param(folder, catalog, run: "tiny", "hop_ms") == "16.0")
        let p50 = try #require(Double(try param(folder, catalog, run: "tiny", "frame_ms_p50")))
        let p99 = try #require(Double(try param(folder, catalog, run: "tiny", "frame_ms_p99")))
        let max = try #require(Double(try param(folder, catalog, run: "tiny", "frame_ms_max")))
        #expect(p50 > 0 && p50 <= p99 && p99 <= max, "\(p50) \(p99) \(max)")
        for clip in try FileManager.default.contentsOfDirectory(atPath: folder.path("whole/tiny")) where clip.hasSuffix(".wav") {
            let (difference, _) = try TinyONNXModel.referenceDifference(model: folder.path("tiny.onnx"),
                                                                        noisy: folder.path("corpus/noisy/\(clip)"),
                                                                        enhanced: folder.path("streamed/tiny/\(clip)"))
            #expect(difference < 1e-5, "\(clip): streamed output \(difference) from the reference")
        }
    }

    @Test func badModelsAreNamedBeforeAnyClipAndLeaveNoRun() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = folder.path("catalog.sqlite")
        let corpus = try corpus(folder, catalog: catalog)
        try Data("not a model".utf8).write(to: folder.file("corrupt.onnx"))
        try TinyONNXModel.make(folder.path("bins.onnx"), bins: 256)
        try TinyONNXModel.make(folder.path("nfft.onnx"), metadata: ["n_fft": "1024"])
        try TinyONNXModel.make(folder.path("rate.onnx"), metadata: ["sample_rate": "48000"])
        // Issue 40 item 9: the mask cast to int32 (it gave all-zero outputs and exit 0).
        try TinyONNXModel.make(folder.path("float.onnx"))
        _ = try TinyONNXModel.run("""
            import sys, onnx
            from onnx import helper, TensorProto
            model = onnx.load(sys.argv[1]); graph = model.graph
            for node in graph.node:
                node.output[:] = ["mask_float" if o == "mask" else o for o in node.output]
            graph.node.append(helper.make_node("Cast", ["mask_float"], ["mask"], to=TensorProto.INT32))
            graph.output[0].type.tensor_type.elem_type = TensorProto.INT32
            onnx.save(model, sys.argv[2])
            """, [folder.path("float.onnx"), folder.path("int32.onnx")])
        // Issue 40 item 20: errors a user can act on, before any clip (they were KeyError('sample_rate'),
        // ZeroDivisionError and UnicodeDecodeError from the MAC count).
        try TinyONNXModel.make(folder.path("norate.onnx"), metadata: ["sample_rate": "(absent)"])
        try TinyONNXModel.make(folder.path("hop.onnx"), metadata: ["hop_length": "0"])
        var damaged = try Data(contentsOf: folder.file("float.onnx"))
        let key = try #require(damaged.range(of: Data("sekit_model_format".utf8)))
        damaged[key.lowerBound] = 0xFF   // the first byte of a metadata key: not UTF-8 any more
        try damaged.write(to: folder.file("flipped.onnx"))
        let cases = [("corrupt", "not a model ONNX Runtime can load"), ("bins", "noisy has shape [1, frames, 256]"),
                     ("nfft", "metadata bins: 257 disagrees with n_fft 1024"), ("rate", "the model is for 48000 Hz"),
                     ("int32", "mask is tensor(int32), the contract is float32"), ("norate", "metadata sample_rate: missing"),
                     ("hop", "metadata hop_length: 0 is not an integer of at least 1"),
                     ("flipped", "export it again|not a model ONNX Runtime can load")]
        for (name, message) in cases {
            let refused = try SEKitBinary.run(["enhance", "--model", folder.path("\(name).onnx"), "--corpus", corpus,
                                               "--out", folder.path("out"), "--catalog", catalog])
            #expect(refused.status == 1, "\(name): \(refused.status) \(refused.stderr)")
            let alternatives = message.split(separator: "|").map(String.init)
            #expect(refused.stderr.contains(folder.path("\(name).onnx")) && alternatives.contains { refused.stderr.contains($0) },
                    "\(name): \(refused.stderr)")
            #expect(!refused.stderr.contains("Error(") && !refused.stderr.contains("Traceback"), "\(name): \(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.path("out/\(name)")), "\(name) wrote its folder")
        }
        // Issue 40 item 1: a streaming model's state_shape is a list of small positive whole numbers
        // ([1e30] once killed the process; [1.7, 1, 4] was truncated to [1, 1, 4]).
        for (name, shape) in [("huge", "[1e30]"), ("fraction", "[1.7, 1, 16]"), ("negative", "[1, -1, 16]"), ("empty", "[]"),
                              ("text", "\"[1, 1, 16]\""), ("mismatched", "[1, 1, 8]")] {
            try TinyONNXModel.make(folder.path("\(name).onnx"), metadata: ["state_shape": shape])
            let refused = try SEKitBinary.run(["enhance", "--model", folder.path("\(name).onnx"), "--streaming", "--corpus", corpus,
                                               "--out", folder.path("out"), "--catalog", catalog])
            #expect(refused.status == 1, "\(name): \(refused.status) \(refused.stderr)")
            #expect(refused.stderr.contains("state_shape") && refused.stderr.contains(folder.path("\(name).stream.onnx")),
                    "\(name): \(refused.stderr)")
        }
        // Issue 40 item 9: normalisation statistics float32 cannot hold are refused before any clip.
        let huge = "[" + Array(repeating: "1e39", count: 257).joined(separator: ", ") + "]"
        try TinyONNXModel.make(folder.path("overflow.onnx"), metadata: ["stats_std": huge])
        let overflow = try SEKitBinary.run(["enhance", "--model", folder.path("overflow.onnx"), "--corpus", corpus,
                                            "--out", folder.path("out"), "--catalog", catalog])
        #expect(overflow.status == 1 && overflow.stderr.contains("stats_std") && overflow.stderr.contains("float32"),
                "\(overflow.stderr)")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM runs WHERE kind = 'enhance'") == "0")
        let missing = try SEKitBinary.run(["enhance", "--model", folder.path("tiny.onnx"), "--streaming", "--corpus", corpus,
                                           "--out", folder.path("out"), "--catalog", catalog])
        #expect(missing.status == 1 && missing.stderr.contains("no such file"), "\(missing.stderr)")
    }

    @Test func aNaNOnOneClipFailsThatClipAndWritesTheOthers() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = folder.path("catalog.sqlite")
        let input = folder.file("input")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        // 1 s (63 frames, NaN) and 2 s (126 frames) of a tone.
        for (name, seconds) in [("short.wav", 1.0), ("long.wav", 2.0)] {
            try TestWAV.writePCM16(TestWAV.sine(seconds: seconds, sampleRate: 16000), sampleRate: 16000,
                                   to: input.appendingPathComponent(name))
        }
        try TinyONNXModel.make(folder.path("nan.onnx"), nanBelowFrames: 100)
        let enhanced = try SEKitBinary.run(["enhance", "--model", folder.path("nan.onnx"), "--input", input.path,
                                            "--out", folder.path("out"), "--catalog", catalog])
        #expect(enhanced.status == 1)
        #expect(enhanced.stderr.contains("failed: short.wav") && enhanced.stderr.contains("nan at frame 0"), "\(enhanced.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("out/nan/long.wav")))
        #expect(!FileManager.default.fileExists(atPath: folder.path("out/nan/short.wav")))
        #expect(try param(folder, catalog, run: "nan", "clips_failed") == "1")
        #expect(try folder.sqlite(catalog, "SELECT status FROM runs WHERE kind = 'enhance'") == "finished")
    }

    @Test func anEnvironmentWithoutONNXRuntimeSaysHowToAddIt() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = folder.path("catalog.sqlite")
        let corpus = try corpus(folder, catalog: catalog)
        try TinyONNXModel.make(folder.path("tiny.onnx"))
        // A real environment with numpy (the worker's own import) but not onnxruntime: a venv of the
        // project interpreter's base Python, numpy linked in from the project's environment.
        try TinyONNXModel.run("""
            import os, site, sys, venv
            venv.create(sys.argv[1], with_pip=False)
            target = os.path.join(sys.argv[1], "lib", f"python{sys.version_info.major}.{sys.version_info.minor}", "site-packages")
            source = os.path.dirname(os.path.dirname(__import__("numpy").__file__))
            for name in ("numpy", "numpy.libs"):
                if os.path.exists(os.path.join(source, name)):
                    os.symlink(os.path.join(source, name), os.path.join(target, name))
            """, [folder.path("bare")])
        let python = folder.path("bare/bin/python")
        let refused = try SEKitBinary.run(["enhance", "--model", folder.path("tiny.onnx"), "--corpus", corpus, "--out", folder.path("out"),
                                           "--catalog", catalog], environment: ["SEKIT_PYTHON": python])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("onnxruntime") && refused.stderr.contains("\(python) -m pip install onnxruntime onnx"),
                "\(refused.stderr)")
        #expect(try folder.sqlite(catalog, "SELECT count(*) FROM runs WHERE kind = 'enhance'") == "0")
    }
}
