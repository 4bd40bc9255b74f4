import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// PLCMOS, personalised DNSMOS, ViSQOL and Distill-MOS in the worker against their packages
/// called directly, as their users call them, on the same clips (within 1e-4). Under CI a missing
/// package fails these tests.
@Suite(.serialized,
       .needsFixtures, .enabled(if: PythonReference.available, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct QualityPredictorsTests {
    /// Distill-MOS as its README calls it (the empty torchaudio stand-in where PyPI's CUDA build cannot load;
    /// its load message sent to stderr, so stdout carries the values).
    static let distillMOSSetup = """
    import contextlib, types, torch
    try:
        import torchaudio
    except (ImportError, OSError):
        sys.modules['torchaudio'] = types.ModuleType('torchaudio')
    import distillmos
    with contextlib.redirect_stdout(sys.stderr):
        model = distillmos.ConvTransformerSQAModel()
    model.eval()
    torch.set_grad_enabled(False)
    """

    let workspace = MetricWorkspace()

    func ours(_ name: String, _ comparison: MetricComparison) throws -> [Double] {
        let descriptor = try #require(MetricRegistry.descriptor(named: name))
        let values = try descriptor.compute(comparison, workspace: workspace)
        return descriptor.outputs.map { values[$0.metric]! }
    }

    func expectClose(_ ours: [Double], _ reference: [Double], _ what: String) {
        #expect(ours.count == reference.count, "\(what): \(ours) vs \(reference)")
        for (a, b) in zip(ours, reference) { #expect(abs(a - b) <= 1e-4, "\(what): \(ours) vs package \(reference)") }
    }

    /// A 3.1 s clip and a 14 s one (several DNSMOS windows, several Distill-MOS crops).
    func clips() throws -> [(String, [Float])] {
        [("noisy vctk_p287_002", try PythonMetricReference.fixture("noisy/vctk_p287_002.wav")),
         ("librispeech", try PythonMetricReference.fixture("speech/librispeech_198-209-0000.wav"))]
    }

    @Test func speechmosPredictorsEqualThePackage() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        for (name, samples) in try clips() {
            let comparison = MetricComparison(processed: samples, sampleRate: 16000)
            let plcmos = try ours("plcmos", comparison)
            let plcmosReference = try PythonMetricReference.values("[speechmos.plcmos.run(a, 16000)['plcmos']]", samples,
                                                                   imports: "import speechmos.plcmos; np.random.seed(0)", in: folder)
            print("PLCMOS \(name): \(plcmos) (speechmos \(plcmosReference))")
            #expect(plcmos == plcmosReference, "plcmos \(name): its encoder run once, the same value bit for bit")
            let personalized = try ours("dnsmos_personalized", comparison)
            let expression = "[speechmos.dnsmos.run(a, 16000, model_type='dnsmos_personalized')[k]"
                + " for k in ('sig_mos', 'bak_mos', 'ovrl_mos')]"
            let personalizedReference = try PythonMetricReference.values(expression, samples, imports: "import speechmos.dnsmos",
                                                                         in: folder)
            print("personalised DNSMOS \(name): \(personalized) (speechmos \(personalizedReference))")
            expectClose(personalized, personalizedReference, "dnsmos_personalized \(name)")
        }
        // The seed makes PLCMOS a function of the clip alone: the same value after other clips.
        let (_, first) = try clips()[0]
        let again = try ours("plcmos", MetricComparison(processed: first, sampleRate: 16000))
        #expect(again == (try ours("plcmos", MetricComparison(processed: first, sampleRate: 16000))))
    }

    /// PLCMOS scores a clip 15 times, with one rater embedding after another; its audio encoder does
    /// not read the embedding, so the worker runs it once per clip and the model's head 15 times.
    @Test func plcmosRunsItsEncoderOncePerClip() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let samples = try PythonMetricReference.fixture("noisy/vctk_p287_002.wav")
        try PythonReference.writeRaw(samples, to: folder.file("a.f32"))
        let worker = PythonEnvironment.projectRoot.appendingPathComponent("Sources/SEKit/Resources/sekit_metric_worker.py")
        let script = """
        import collections, importlib.util, sys, numpy as np
        spec = importlib.util.spec_from_file_location("worker", sys.argv[1])
        worker = importlib.util.module_from_spec(spec); spec.loader.exec_module(worker)
        model = worker._plcmos()
        session = model.session
        encoder, head, boundary = session.parts
        calls = collections.Counter()
        def counted(name, run):
            def call(*args):
                calls[name] += 1
                return run(*args)
            return call
        session.parts = (type("S", (), {"run": staticmethod(counted("encoder", encoder.run))})(),
                         type("S", (), {"run": staticmethod(counted("head", head.run))})(), boundary)
        a = np.fromfile(sys.argv[2], "<f4").astype(np.float64)
        for clip in (a, a[: len(a) // 2]):
            np.random.seed(0)
            model(clip)
        print(calls["encoder"], calls["head"], session.parts is not None and session.checked, len(boundary))
        """
        let out = try PythonReference.run(script, arguments: [worker.path, folder.file("a.f32").path])
        let fields = out.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        // Two clips: the encoder twice, the head 30 times, the cut checked against the whole model and kept.
        #expect(fields == ["2", "30", "True", "2"], "\(out)")
    }

    /// Speaker similarity as the Resemblyzer README computes it: each file preprocessed and embedded, the
    /// embeddings' cosine (the same speaker noisy, another speaker, the same clip); a silent output is a
    /// per-clip error.
    @Test func speakerSimilarityEqualsThePackage() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let clean = try PythonMetricReference.fixture("speech/vctk_p287_002.wav")
        let noisy = try PythonMetricReference.fixture("noisy/vctk_p287_002.wav")
        let other = try PythonMetricReference.fixture("speech/cmu_arctic_us_axb_a0004.wav")
        let n = min(clean.count, other.count)
        let setup = """
            import contextlib, torch, resemblyzer
            torch.set_num_threads(1)
            encoder = resemblyzer.VoiceEncoder(device='cpu', verbose=False)
            def embed(x):
                wav = resemblyzer.preprocess_wav(x.astype(np.float32), source_sr=16000)
                return encoder.embed_utterance(wav).astype(np.float64)
            def cosine(x, y): return float(np.dot(x, y) / (np.linalg.norm(x) * np.linalg.norm(y)))
            """
        var values: [String: Double] = [:]
        for (name, a, b) in [("noisy p287_002", clean, noisy), ("another speaker", Array(clean.prefix(n)), Array(other.prefix(n))),
                             ("the same clip", clean, clean)] {
            let pair = MetricComparison(reference: ReferenceSignal(samples: a, sampleRate: 16000), processed: b)
            let value = try ours("speaker_similarity", pair)
            let reference = try PythonMetricReference.values("[cosine(embed(a), embed(b))]", a, b, imports: setup, in: folder)
            print("speaker similarity \(name): \(value) (resemblyzer \(reference))")
            #expect(value.count == 1 && reference.count == 1 && abs(value[0] - reference[0]) <= 1e-5, "\(name): \(value) vs \(reference)")
            values[name] = value.first
        }
        #expect(values["the same clip"]! > 0.999 && values["noisy p287_002"]! > values["another speaker"]!, "\(values)")
        let silent = MetricComparison(reference: ReferenceSignal(samples: clean, sampleRate: 16000),
                                      processed: [Float](repeating: 0, count: clean.count))
        #expect { try ours("speaker_similarity", silent) } throws: { error in
            "\(error)".contains("the output is silent") && error is MetricError
        }
    }

    /// WER and CER against the clean reference's transcript, as pocketsphinx and jiwer give them called
    /// directly on the 16-bit files (read as int16, one utterance each).
    @Test func errorRatesAgainstTheCleanTranscriptEqualThePackages() throws {
        let script = """
            import sys, soundfile as sf, jiwer
            from pocketsphinx import Decoder
            decoder = Decoder(samprate=16000, loglevel='FATAL')
            def transcript(path):
                pcm, rate = sf.read(path, dtype='int16')
                decoder.reinit_feat(); decoder.start_utt(); decoder.process_raw(pcm.tobytes(), full_utt=True); decoder.end_utt()
                return decoder.hyp().hypstr
            truth = transcript(sys.argv[1])
            for path in sys.argv[2:]:
                hypothesis = transcript(path)
                print(float(jiwer.wer(truth, hypothesis)).hex(), float(jiwer.cer(truth, hypothesis)).hex())
            """
        let clean = Fixtures.url("speech/vctk_p287_002.wav"), noisy = Fixtures.url("noisy/vctk_p287_002.wav")
        let expected = try PythonReference.run(script, arguments: [clean.path, noisy.path, clean.path])
            .split(whereSeparator: \.isNewline).map { $0.split(separator: " ").map { Double(String($0))! } }
        let reference = ReferenceSignal(samples: try PythonMetricReference.fixture("speech/vctk_p287_002.wav"), sampleRate: 16000)
        for ((name, output), want) in zip([("noisy", "noisy/vctk_p287_002.wav"), ("clean", "speech/vctk_p287_002.wav")], expected) {
            let values = try ours("asr_vs_clean", MetricComparison(reference: reference,
                                                                   processed: try PythonMetricReference.fixture(output)))
            print("WER, CER vs the clean transcript, \(name): \(values) (pocketsphinx + jiwer \(want))")
            #expect(values == want, "\(name)")
        }
        #expect(expected[0][0] > 0 && expected[1] == [0, 0])
        // pocketsphinx's live normalisation would carry over from clip to clip: a clip's rates are the same
        // again after other clips.
        let other = ReferenceSignal(samples: try PythonMetricReference.fixture("speech/vctk_p287_003.wav"), sampleRate: 16000)
        let noisy002 = try PythonMetricReference.fixture("noisy/vctk_p287_002.wav")
        let first = try ours("asr_vs_clean", MetricComparison(reference: reference, processed: noisy002))
        let otherNoisy = try PythonMetricReference.fixture("noisy/vctk_p287_003.wav")
        _ = try ours("asr_vs_clean", MetricComparison(reference: other, processed: otherNoisy))
        _ = try ours("asr_vs_clean", MetricComparison(reference: other, processed: other.samples))
        #expect(try ours("asr_vs_clean", MetricComparison(reference: reference, processed: noisy002)) == first)
    }

    /// WER and CER against a given transcript (VCTK's text of p287_002, normalised), as pocketsphinx and
    /// jiwer give them called directly on the 16-bit file; without a transcript, a named per-clip error.
    @Test func errorRatesAgainstATranscriptEqualThePackages() throws {
        let text = "Ask her to bring these things with her from the store."
        let script = """
            import sys, soundfile as sf, jiwer
            from pocketsphinx import Decoder
            decoder = Decoder(samprate=16000, loglevel='FATAL')
            truth = sys.argv[1].lower().replace('.', '')
            for path in sys.argv[2:]:
                pcm, rate = sf.read(path, dtype='int16')
                decoder.reinit_feat(); decoder.start_utt(); decoder.process_raw(pcm.tobytes(), full_utt=True); decoder.end_utt()
                hypothesis = decoder.hyp().hypstr
                print(float(jiwer.wer(truth, hypothesis)).hex(), float(jiwer.cer(truth, hypothesis)).hex())
            """
        let files = ["speech/vctk_p287_002.wav", "noisy/vctk_p287_002.wav"]
        let expected = try PythonReference.run(script, arguments: [text] + files.map { Fixtures.url($0).path })
            .split(whereSeparator: \.isNewline).map { $0.split(separator: " ").map { Double(String($0))! } }
        for (file, want) in zip(files, expected) {
            let comparison = MetricComparison(processed: try PythonMetricReference.fixture(file), sampleRate: 16000)
            comparison.transcript = .text(text)
            let values = try ours("asr", comparison)
            print("WER, CER vs the transcript, \(file): \(values) (pocketsphinx + jiwer \(want))")
            #expect(values == want, "\(file)")
        }
        #expect(expected[0][0] < expected[1][0], "the clean speech is recognised better than the noisy: \(expected)")
        let without = MetricComparison(processed: try PythonMetricReference.fixture(files[0]), sampleRate: 16000)
        #expect { try ours("asr", without) } throws: { "\($0)".contains("no transcript file was given (--transcripts FILE.tsv)") }
        without.transcript = .unavailable(reason: "t.tsv has no line for x")
        #expect { try ours("asr", without) } throws: { "\($0)".hasSuffix("t.tsv has no line for x") }
    }

    @Test func visqolEqualsThePackageInBothModes() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        for (mode, rate) in [("speech", 16000), ("audio", 48000)] {
            let clean = try PythonMetricReference.fixture("speech/vctk_p287_002.wav", sampleRate: rate)
            let noisy = try PythonMetricReference.fixture("noisy/vctk_p287_002.wav", sampleRate: rate)
            let pair = MetricComparison(reference: ReferenceSignal(samples: clean, sampleRate: rate), processed: noisy)
            let value = try ours("visqol_\(mode)", pair)
            let reference = try PythonMetricReference.values("[api.measure_from_arrays(a, b, \(rate)).moslqo]", clean, noisy,
                                                             imports: "import visqol; api = visqol.VisqolApi(); api.create(mode='\(mode)')",
                                                             in: folder)
            print("ViSQOL \(mode): \(value) (visqol-python \(reference))")
            expectClose(value, reference, "visqol_\(mode)")
        }
        // At 16 kHz, audio mode converts to 48 kHz first (SEKit's resampler), as documented.
        let clean = try PythonMetricReference.fixture("speech/vctk_p287_002.wav")
        let noisy = try PythonMetricReference.fixture("noisy/vctk_p287_002.wav")
        let comparison = MetricComparison(reference: ReferenceSignal(samples: clean, sampleRate: 16000), processed: noisy)
        let converted = try ours("visqol_audio", comparison)
        #expect(converted.count == 1 && converted[0] >= 1 && converted[0] <= 5, "\(converted)")
    }

    @Test func aClipTooShortForViSQOLIsAPerClipError() throws {
        let clean = try PythonMetricReference.fixture("speech/vctk_p287_002.wav", seconds: 0.05)
        let comparison = MetricComparison(reference: ReferenceSignal(samples: clean, sampleRate: 16000), processed: clean)
        #expect { try ours("visqol_speech", comparison) } throws: { error in
            "\(error)".hasPrefix("visqol_speech: visqol refuses the clip: Too few samples") && error is MetricError
        }
        // The worker carries on with the next clip.
        let speech = try PythonMetricReference.fixture("speech/vctk_p287_002.wav")
        let identical = MetricComparison(reference: ReferenceSignal(samples: speech, sampleRate: 16000), processed: speech)
        let next = try ours("visqol_speech", identical)
        #expect(next[0] > 4, "\(next)")
    }

    @Test func distillMOSEqualsThePackage() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        for (name, samples) in try clips() {
            let value = try ours("distillmos", MetricComparison(processed: samples, sampleRate: 16000))
            let reference = try PythonMetricReference.values("[model(torch.from_numpy(a.astype(np.float32))[None, :]).item()]", samples,
                                                             imports: Self.distillMOSSetup, in: folder)
            print("Distill-MOS \(name): \(value) (distillmos \(reference))")
            expectClose(value, reference, "distillmos \(name)")
        }
    }

    @Test func theRunRecordsEachModelFilesHash() throws {
        let metrics: [Metric] = [.plcmos, .dnsmosPersonalizedOVRL, .visqolSpeech, .visqolAudio, .distillMOS, .speakerSimilarity]
        let python = MetricRegistry.pythonPackages(for: metrics)
        #expect(python.models == ["plcmos", "dnsmos_personalized", "visqol_speech", "visqol_audio", "distillmos", "speaker_similarity"])
        let params = try PythonWorkerPool().describe(packages: python.packages, models: python.models, for: python.metrics).runParams
        let files = [("plcmos", "speechmos/plcmos_models/plcmos_v2.onnx"),
                     ("dnsmos_personalized", "speechmos/pdnsmos_models/sig_bak_ovr.onnx"),
                     ("visqol_audio", "visqol/model/libsvm_nu_svr_model.txt"), ("distillmos", "distillmos/weights/distill_mos_v7.pt"),
                     ("speaker_similarity", "resemblyzer/pretrained.pt")]
        let sitePackages = try PythonReference.run("import numpy, os; print(os.path.dirname(os.path.dirname(numpy.__file__)))")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        for (metric, file) in files {
            let expected = try SHA256.hex(ofFileAt: URL(fileURLWithPath: sitePackages).appendingPathComponent(file))
            #expect(params["\(metric)_model_sha256"] == expected, "\(metric): \(params)")
        }
        #expect(params["visqol_speech_model_sha256"]?.count == 64)
        #expect(params["backend_visqol"] == "3.8.0" && params["backend_distillmos"] == "0.9.1" && params["backend_resemblyzer"] == "0.1.4",
                "\(params)")
    }
}
