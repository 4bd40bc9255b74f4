"""SEKit's worker for metrics whose reference implementation is a Python package.

``sekit score`` starts one of these per ``--jobs`` worker thread (with the project's Python
environment, see ``scripts/python-env.sh``), keeps it alive across clips and feeds it clip by
clip over stdin/stdout. It runs the reference implementations as they are published, never a
rewrite:

* PESQ (ITU-T P.862, P.862.1, P.862.2): the ``pesq`` package (ITU-T reference C code), called
  exactly as a user calls it, ``pesq.pesq(rate, ref, deg, mode)`` on float64 arrays, so the
  values equal a direct call bit for bit.
* DNSMOS (P.835 SIG/BAK/OVRL and P.808), personalised DNSMOS and PLCMOS v2: the ONNX models and
  feature code of the ``speechmos`` package, with single-threaded onnxruntime sessions (one worker
  per core instead). Personalised DNSMOS skips the P.808 part its result drops. PLCMOS averages 15
  random rater embeddings drawn from numpy's global generator: it is seeded with ``PLCMOS_SEED``
  before each clip, so a clip's value does not depend on the clips before it; its audio encoder,
  which does not read the embedding, runs once per clip (``_EncoderOnce``: the same value bit for bit).
* ViSQOL v3 (speech mode at 16 kHz with the lattice model, audio mode at 48 kHz with the SVR model):
  ``visqol.VisqolApi`` of the ``visqol-python`` package, ``measure_from_arrays``.
* Speaker similarity: the cosine of ``resemblyzer.VoiceEncoder`` embeddings (its ``pretrained.pt``, one PyTorch
  thread) of the reference and the output, each ``preprocess_wav``-ed (volume normalised, long silences trimmed
  by WebRTC VAD) and ``embed_utterance``-d as the package's README does, on float32 samples at 16 kHz.
* Word and character error rates against the clean reference's transcript: ``pocketsphinx.Decoder`` (5.1.1,
  its US-English models from the wheel) transcribes the reference and the output, each as 16-bit PCM
  (the float32 samples times 32768, rounded and clipped: a 16-bit file's own integers), one utterance from
  the decoder's initial feature state (``reinit_feat``: what a fresh decoder gives, whatever came before);
  ``jiwer.wer`` and ``jiwer.cer`` score the output's transcript against the reference's, both normalised
  (``_normalised_text``). The reference's transcript is kept for the next request on the same samples.
* Distill-MOS: ``distillmos.ConvTransformerSQAModel`` (PyTorch, one thread, inference mode), on float32 samples,
  its convolutions and transformer exported once to ONNX (cached) and run in ONNX Runtime, checked against the
  package's network on export (``_distillmos_model``).

Protocol (one request at a time, little-endian):
  request:  one JSON line ``{"op": ..., ...}``, then the float32 samples its ``lengths`` name
  response: one JSON line, ``{"ok": true, "values": ["<float.hex()>", ...], ...}`` or
            ``{"ok": false, "error": "<kind>", "message": "<reason>"}``; a response with
            ``payload_bytes`` is followed by that many raw bytes
Operations: ``describe`` (``packages``: versions, model files and their SHA-256; ``metrics``: the
SHA-256 of the model file each named metric runs, as ``metric_models``), ``pesq``
(``rate``, ``mode`` wb|nb, ``lengths`` [reference, degraded]), ``dnsmos`` (``rate`` 16000,
``lengths`` [signal]: SIG, BAK, OVRL, P.808), ``dnsmos_personalized`` (the same: SIG, BAK, OVRL),
``plcmos`` (``rate`` 16000, ``lengths`` [signal]), ``visqol`` (``mode`` speech|audio, ``rate``,
``lengths`` [reference, degraded]), ``distillmos`` (``rate`` 16000, ``lengths`` [signal]), ``speaker_similarity``
(``rate`` 16000, ``lengths`` [reference, degraded]), ``asr_vs_clean`` (the same: WER, CER), ``asr`` (``rate`` 16000,
``text`` the clip's transcript, ``lengths`` [degraded]: WER, CER), ``onnx_describe`` (``path``: an ONNX model's
metadata, inputs, outputs, SHA-256, parameter and MAC counts), ``onnx_run`` (``path``, ``frames``,
``bins``, ``lengths`` [features]: the model's ``mask`` output, ``payload_bytes`` of little-endian
float32 that follow the response line), ``onnx_stream`` (the same through the streaming model, one frame at a time from a zero
state; also ``frame_seconds``, the time of each frame's ``run`` call), ``crash`` (exits at once: tests use it to check
that a dying worker is replaced).

Values travel as ``float.hex()`` strings so that they arrive bit for bit.
"""

import contextlib
import hashlib
import importlib
import importlib.metadata
import json
import os
import platform
import sys
import time

import numpy as np

_dnsmos = None
_models = {}

# PLCMOS draws its rater embeddings from numpy's global generator; seeded with this before each clip.
PLCMOS_SEED = 0
# Import names whose distribution is named otherwise.
_DISTRIBUTIONS = {"visqol": "visqol-python"}


def _read_exactly(stream, count):
    chunks = []
    while count > 0:
        chunk = stream.read(count)
        if not chunk:
            raise EOFError("stdin closed in the middle of a request")
        chunks.append(chunk)
        count -= len(chunk)
    return b"".join(chunks)


def _signals(stream, request):
    return [np.frombuffer(_read_exactly(stream, 4 * n), dtype="<f4").astype(np.float64) for n in request["lengths"]]


def _sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _dnsmos_model_paths():
    import speechmos.dnsmos
    folder = os.path.join(os.path.dirname(os.path.abspath(speechmos.dnsmos.__file__)), "dnsmos_models")
    return os.path.join(folder, "sig_bak_ovr.onnx"), os.path.join(folder, "model_v8.onnx")


def _package_file(module, *parts):
    """A file shipped inside an installed package (never downloaded)."""
    return os.path.join(os.path.dirname(os.path.abspath(module.__file__)), *parts)


# The model files of speechmos' other predictors, inside the installed package: (folder, file).
_SPEECHMOS_MODELS = {"plcmos": ("plcmos_models", "plcmos_v2.onnx"), "dnsmos_personalized": ("pdnsmos_models", "sig_bak_ovr.onnx")}


def _metric_model_path(metric):
    """The model file `metric` runs, as its package ships it (never downloaded)."""
    if metric in _SPEECHMOS_MODELS:
        import speechmos.dnsmos
        return _package_file(speechmos.dnsmos, *_SPEECHMOS_MODELS[metric])
    if metric == "visqol_audio":
        import visqol.api
        return visqol.api._DEFAULT_SVR_MODEL
    if metric == "visqol_speech":
        import visqol.visqol_manager
        return visqol.visqol_manager._DEFAULT_LATTICE_MODEL
    if metric == "distillmos":
        _import_distillmos()
        import distillmos.sqa
        return distillmos.sqa.DEFAULT_WEIGHTS_CHKPT
    if metric == "speaker_similarity":
        import resemblyzer
        return _package_file(resemblyzer, "pretrained.pt")
    raise _MetricFailure(f"no model file is known for {metric!r}")


def _import_distillmos():
    """distillmos imports torchaudio at module level for its command-line file loading only; the model
    does not use it. PyPI's torchaudio wheels are CUDA builds that cannot load beside a CPU-only torch,
    so where torchaudio cannot be imported an empty module stands in for it (nothing is downloaded)."""
    if "distillmos" in sys.modules:
        return
    try:
        import torchaudio  # noqa: F401
    except (ImportError, OSError):
        import types
        sys.modules["torchaudio"] = types.ModuleType("torchaudio")
    import distillmos  # noqa: F401


def describe(request):
    """Versions of the packages a metric needs (importing each, so a broken install shows here)."""
    packages = {}
    models = {}
    for name in request.get("packages", []):
        if name == "distillmos":
            _import_distillmos()
        importlib.import_module(name)
        packages[name] = importlib.metadata.version(_DISTRIBUTIONS.get(name, name))
        if name == "visqol":
            import ai_edge_litert  # noqa: F401  (speech mode's lattice model runs in it)
            packages["ai_edge_litert"] = importlib.metadata.version("ai-edge-litert")
        if name == "pocketsphinx":
            packages["jiwer"] = importlib.metadata.version("jiwer")
        if name == "resemblyzer":
            import torch
            import librosa
            import webrtcvad  # noqa: F401
            packages["torch"] = torch.__version__
            packages["librosa"] = librosa.__version__
            packages["webrtcvad-wheels"] = importlib.metadata.version("webrtcvad-wheels")
        if name == "distillmos":
            import torch
            import onnxruntime
            packages["torch"] = torch.__version__
            packages["onnxruntime"] = onnxruntime.__version__
        if name == "speechmos":
            import onnxruntime
            import librosa
            packages["onnxruntime"] = onnxruntime.__version__
            packages["librosa"] = librosa.__version__
            for path in _dnsmos_model_paths():
                models[os.path.basename(path)] = _sha256(path)
    packages["numpy"] = np.__version__
    metric_models = {metric: _cached_sha256(_metric_model_path(metric)) for metric in request.get("metrics", [])}
    return {"python": platform.python_version(), "executable": sys.executable, "packages": packages, "models": models,
            "metric_models": metric_models}


def run_pesq(request, signals):
    import pesq
    reference, degraded = signals
    try:
        value = pesq.pesq(request["rate"], reference, degraded, request["mode"])
    except pesq.NoUtterancesError:
        raise _MetricFailure("no utterances detected")
    except pesq.BufferTooShortError:
        raise _MetricFailure("the signal is too short")
    except pesq.PesqError as error:
        raise _MetricFailure(f"{type(error).__name__}: {error}")
    return [float(value)]


def run_dnsmos(request, signals):
    global _dnsmos
    (signal,) = signals
    if request["rate"] != 16000:
        raise _MetricFailure(f"DNSMOS needs 16000 Hz, got {request['rate']} Hz")
    if _dnsmos is None:
        import speechmos.dnsmos
        primary, p808 = _dnsmos_model_paths()
        model = speechmos.dnsmos.DNSMOS(primary, p808)
        model.onnx_sess = _single_threaded(primary)
        model.p808_onnx_sess = _single_threaded(p808)
        _dnsmos = model
    _in_unit_range(signal, "speechmos")
    scores = _dnsmos(signal, 16000, False)
    return [float(scores["sig_mos"]), float(scores["bak_mos"]), float(scores["ovrl_mos"]), float(scores["p808_mos"])]


def _single_threaded(path):
    """An ONNX Runtime session of one thread (of a model file, or a serialized model): sekit runs one worker per --jobs instead."""
    import onnxruntime
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return onnxruntime.InferenceSession(path, options, providers=["CPUExecutionProvider"])


def _in_unit_range(signal, package):
    if not ((signal >= -1).all() and (signal <= 1).all()):
        raise _MetricFailure(f"samples outside [-1, 1] ({package} refuses them)")


def _personalized_dnsmos():
    """speechmos' DNSMOS class for the personalised model, as ``speechmos.dnsmos.run(...,
    model_type="dnsmos_personalized")`` makes it, but with one single-threaded session of the
    personalised model only: the package computes the P.808 model's mel spectrogram and score in
    every window and the personalised result drops them, so here they are not computed (SIG, BAK,
    OVRL are the package's own code on the same model: the same values, bit for bit)."""
    import speechmos.dnsmos

    class _NoP808:
        def run(self, outputs, feeds):
            return [[[float("nan")]]]

    class PersonalizedDNSMOS(speechmos.dnsmos.DNSMOS):
        def __init__(self, primary_model_path):  # noqa: the base class would load both models with all threads
            self.primary_model_path = primary_model_path
            self.onnx_sess = _single_threaded(primary_model_path)
            self.p808_onnx_sess = _NoP808()

        def audio_melspec(self, audio, **_):
            return np.zeros((1, 1), dtype=np.float32)

    return PersonalizedDNSMOS(_metric_model_path("dnsmos_personalized"))


def run_dnsmos_personalized(request, signals):
    (signal,) = signals
    if request["rate"] != 16000:
        raise _MetricFailure(f"personalised DNSMOS needs 16000 Hz, got {request['rate']} Hz")
    if "dnsmos_personalized" not in _models:
        _models["dnsmos_personalized"] = _personalized_dnsmos()
    _in_unit_range(signal, "speechmos")
    scores = _models["dnsmos_personalized"](signal, 16000, True)
    return [float(scores["sig_mos"]), float(scores["bak_mos"]), float(scores["ovrl_mos"])]


def _split_at_input(path, varying):
    """The model at ``path`` cut in two where input ``varying`` joins it: (``encoder``, ``head``,
    ``boundary``), the serialized models of the nodes that do not depend on ``varying`` (outputs: the
    ``boundary`` tensors the others read) and of those that do (inputs: ``boundary`` and ``varying``;
    the model's outputs), with the constants and initializers each reads. None when the model cannot
    be cut so (``onnx`` cannot read it, a boundary tensor's type is not known, nothing depends on
    ``varying``, or the model has subgraphs)."""
    try:
        import onnx
        from onnx import helper, shape_inference
        model = onnx.load(path)
        inferred = shape_inference.infer_shapes(model)
    except Exception:  # onnx's own exception types: the caller runs the whole model instead
        return None
    graph = model.graph
    if any(a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS) for n in graph.node for a in n.attribute):
        return None
    depends = {varying}
    reading = set()  # indices of the nodes that read ``varying``, directly or not
    for index, node in enumerate(graph.node):
        if any(name in depends for name in node.input):
            depends.update(node.output)
            reading.add(index)
    if not reading:
        return None
    producer = {output: index for index, node in enumerate(graph.node) for output in node.output}
    read = {name for index in reading for name in graph.node[index].input if name and name not in depends}
    constants = {producer[name] for name in read if name in producer and graph.node[producer[name]].op_type == "Constant"}
    head = reading | constants  # a Constant node the encoder reads too is in both
    initializers = {i.name: i for i in graph.initializer}
    graph_inputs = {i.name: i for i in graph.input}
    boundary = sorted(name for name in read if name not in initializers and producer.get(name) not in constants)
    types = {v.name: v for v in list(inferred.graph.value_info) + list(graph.input)}
    if any(name not in types or not types[name].type.tensor_type.elem_type for name in boundary):
        return None
    encoder, needed = set(), set(boundary)
    for index in reversed(range(len(graph.node))):  # only what the boundary needs
        if index not in reading and any(output in needed for output in graph.node[index].output):
            encoder.add(index)
            needed.update(graph.node[index].input)

    def serialized(nodes, inputs, outputs):
        names = {name for node in nodes for name in node.input}
        sub = helper.make_graph(nodes, graph.name, inputs, outputs, [initializers[n] for n in sorted(names) if n in initializers])
        made = helper.make_model(sub, opset_imports=model.opset_import, ir_version=model.ir_version)
        return made.SerializeToString()

    def nodes(indices):  # in the model's (topological) order
        return [node for index, node in enumerate(graph.node) if index in indices]

    boundary_info = [types[name] for name in boundary]
    encoder_inputs = [graph_inputs[name] for name in graph_inputs if name in needed and name != varying]
    return (serialized(nodes(encoder), encoder_inputs, boundary_info),
            serialized(nodes(head), boundary_info + [graph_inputs[varying]], list(graph.output)), boundary)


class _EncoderOnce:
    """An ONNX Runtime session (``run`` as ``InferenceSession.run``) for a model called again and again
    with the same inputs but one: PLCMOS scores a clip 15 times with the same features and another rater
    embedding, and its audio encoder (convolutions, two GRUs) does not read the embedding. The encoder
    (``_split_at_input``) runs once per new set of the other inputs, the head on each call. The first
    call is checked against the whole model, bit for bit; a difference (or a model that cannot be cut)
    makes every call run the whole model, as the package does."""

    def __init__(self, path, varying):
        self.whole = _single_threaded(path)
        self.varying = varying
        parts = _split_at_input(path, varying)
        try:
            self.parts = None if parts is None else (_single_threaded(parts[0]), _single_threaded(parts[1]), parts[2])
        except Exception:  # onnxruntime's own types: a cut it cannot load; the whole model then
            self.parts = None
        self.checked = False
        self.key = None
        self.boundary = None

    def run(self, output_names, feeds):
        if self.parts is None:
            return self.whole.run(output_names, feeds)
        encoder, head, names = self.parts
        others = {name: np.asarray(value) for name, value in feeds.items() if name != self.varying}
        if self.key is None or self.key.keys() != others.keys() or not all(
                self.key[n].dtype == v.dtype and np.array_equal(self.key[n], v) for n, v in others.items()):
            self.key = {name: np.array(value, copy=True) for name, value in others.items()}
            self.boundary = dict(zip(names, encoder.run(names, others)))
        outputs = head.run(output_names, {**self.boundary, self.varying: feeds[self.varying]})
        if not self.checked:
            whole = self.whole.run(output_names, feeds)
            if not all(np.array_equal(a, b) for a, b in zip(outputs, whole)):
                self.parts = None
                return whole
            self.checked = True
        return outputs


def _plcmos():
    """speechmos' PLCMOS, made by the package, with an ``_EncoderOnce`` of one thread for its session
    (the package's own constructor would load the model with a thread per core first)."""
    import types
    import speechmos.plcmos
    package_ort = speechmos.plcmos.ort
    speechmos.plcmos.ort = types.SimpleNamespace(InferenceSession=lambda path, *_, **__: _EncoderOnce(path, "rater_embed"))
    try:
        return speechmos.plcmos.PLCMOS()
    finally:
        speechmos.plcmos.ort = package_ort


def run_plcmos(request, signals):
    (signal,) = signals
    if request["rate"] != 16000:
        raise _MetricFailure(f"PLCMOS needs 16000 Hz, got {request['rate']} Hz")
    if "plcmos" not in _models:
        _models["plcmos"] = _plcmos()
    _in_unit_range(signal, "speechmos")
    np.random.seed(PLCMOS_SEED)
    try:
        return [float(_models["plcmos"](signal)["plcmos"])]
    except Exception as error:  # onnxruntime's own types: a clip shorter than the model's receptive field
        raise _MetricFailure(f"the model cannot take this clip of {len(signal)} samples: {error}")


def run_visqol(request, signals):
    reference, degraded = signals
    mode = request["mode"]
    key = "visqol_" + mode
    if key not in _models:
        import visqol
        api = visqol.VisqolApi()
        # Speech mode: the lattice model, ViSQOL v3's default (an error when ai-edge-litert is
        # missing, never the polynomial fallback).
        api.create(mode=mode, use_lattice_model=True if mode == "speech" else None)
        _models[key] = api
    try:
        result = _models[key].measure_from_arrays(reference, degraded, request["rate"])
    except (ValueError, IndexError) as error:
        raise _MetricFailure(f"visqol refuses the clip: {error}")
    return [float(result.moslqo)]


def run_distillmos(request, signals):
    (signal,) = signals
    if request["rate"] != 16000:
        raise _MetricFailure(f"Distill-MOS needs 16000 Hz, got {request['rate']} Hz")
    import torch
    if "distillmos" not in _models:
        _models["distillmos"] = _distillmos_model()
    # Inference mode: no autograd bookkeeping at all (no_grad still tracks tensor versions); the
    # same kernels, so the same value. The float32 samples as they came (the float64 copy is exact).
    with torch.inference_mode():
        value = _models["distillmos"](torch.from_numpy(signal.astype(np.float32))[None, :])
    return [float(value.item())]


def run_speaker_similarity(request, signals):
    """Cosine similarity of the Resemblyzer embeddings of the reference and the output."""
    reference, degraded = signals
    if request["rate"] != 16000:
        raise _MetricFailure(f"Resemblyzer needs 16000 Hz, got {request['rate']} Hz")
    if "resemblyzer" not in _models:
        import torch
        import resemblyzer
        torch.set_num_threads(1)
        _models["resemblyzer"] = resemblyzer.VoiceEncoder(device="cpu", verbose=False)
    import resemblyzer
    encoder = _models["resemblyzer"]
    embeddings = []
    for name, signal in (("reference", reference), ("output", degraded)):
        if not np.any(signal):
            raise _MetricFailure(f"the {name} is silent (all zeros): nothing to embed")
        # float32, as librosa.load gives the package a file (the float64 copy is exact).
        wav = resemblyzer.preprocess_wav(signal.astype(np.float32), source_sr=16000)
        if len(wav) == 0:
            raise _MetricFailure(f"the {name} has no voiced 30-ms window (WebRTC VAD): nothing to embed")
        embeddings.append(encoder.embed_utterance(wav).astype(np.float64))
    a, b = embeddings
    similarity = float(np.dot(a, b) / (np.linalg.norm(a) * np.linalg.norm(b)))
    if not np.isfinite(similarity):
        raise _MetricFailure("an embedding is all zeros (no speech the encoder responds to)")
    return [similarity]


def _normalised_text(text):
    """Lower case; every character that is not a letter, a digit or an apostrophe inside a word becomes
    a space; runs of spaces become one; no space at either end (pocketsphinx's transcripts are already so)."""
    import re
    text = re.sub(r"[^\w']+|_", " ", text.lower())
    text = re.sub(r"(^|\s)'+|'+(\s|$)", " ", text)
    return " ".join(text.split())


def _transcript(signal):
    """pocketsphinx's transcript of ``signal`` (float32 samples at 16 kHz), normalised."""
    if "pocketsphinx" not in _models:
        import pocketsphinx
        _models["pocketsphinx"] = pocketsphinx.Decoder(samprate=16000, loglevel="FATAL")
    decoder = _models["pocketsphinx"]
    # Its live cepstral mean normalisation carries over from one utterance to the next: from its initial
    # state again, so a clip's transcript is what a fresh decoder gives (whatever came before: --jobs,
    # shards and order do not change it).
    decoder.reinit_feat()
    pcm = np.clip(np.round(signal.astype(np.float64) * 32768.0), -32768, 32767).astype("<i2")
    decoder.start_utt()
    decoder.process_raw(pcm.tobytes(), full_utt=True)
    decoder.end_utt()
    hypothesis = decoder.hyp()
    return _normalised_text(hypothesis.hypstr if hypothesis is not None else "")


# The last reference transcribed (its samples' SHA-1 and its transcript): the noisy input and the
# output of one clip are scored against the same reference one after the other.
_last_reference = (None, None)


def run_asr_vs_clean(request, signals):
    """WER and CER of the output's transcript against the clean reference's (pocketsphinx, jiwer)."""
    global _last_reference
    reference, degraded = signals
    _check_asr_rate(request)
    key = hashlib.sha1(reference.tobytes()).hexdigest()
    truth = _last_reference[1] if _last_reference[0] == key else _transcript(reference)
    _last_reference = (key, truth)
    if not truth:
        raise _MetricFailure("pocketsphinx recognised no word in the clean reference: nothing to score against")
    return _error_rates(truth, degraded)


def _check_asr_rate(request):
    if request["rate"] != 16000:
        raise _MetricFailure(f"pocketsphinx's model needs 16000 Hz, got {request['rate']} Hz")


def _error_rates(truth, degraded):
    """jiwer's WER and CER of the output's transcript against ``truth`` (normalised, not empty)."""
    import jiwer
    hypothesis = _transcript(degraded)
    return [float(jiwer.wer(truth, hypothesis)), float(jiwer.cer(truth, hypothesis))]


def run_asr(request, signals):
    """WER and CER of the output's transcript against the clip's transcript (``text``), both normalised."""
    (degraded,) = signals
    _check_asr_rate(request)
    truth = _normalised_text(request["text"])
    if not truth:
        raise _MetricFailure("the clip's transcript has no word: nothing to score against")
    return _error_rates(truth, degraded)


# Distill-MOS's network exported to ONNX: the package's convolutions and transformer with its own
# weights, cached as ``distillmos/distill_mos-<weights' SHA-256>-r<revision>-torch<version>.onnx`` in
# the cache folder; a new revision (a change to the export) or torch version makes a new file.
DISTILLMOS_EXPORT_REVISION = 1
# The largest difference the exported network may make to the package's value on the check signal.
DISTILLMOS_EXPORT_TOLERANCE = 1e-5


def _distillmos_model():
    """The package's ``ConvTransformerSQAModel`` (one PyTorch thread, eval mode), its forward pass the
    package's own (cropping, normalisation, spectrum, the mean over crops), with the convolutions and the
    transformer run by a single-threaded ONNX Runtime session of their export (about a fifth faster than
    PyTorch on one core); the package's PyTorch network where the export cannot be made or checked."""
    import torch
    _import_distillmos()
    import distillmos
    torch.set_num_threads(1)
    with _stdout_to_stderr():  # it prints where its weights come from
        model = distillmos.ConvTransformerSQAModel()
    model.eval()
    try:
        session = _distillmos_session(model)
    except Exception as error:  # the exporter's and onnxruntime's own types
        reason = str(error).strip().splitlines()[-1] if str(error).strip() else ""
        print(f"sekit: Distill-MOS runs in PyTorch: no ONNX export ({type(error).__name__}: {reason})", file=sys.stderr)
        return model
    spectrum, network = _distillmos_parts(model)
    model.cnn = spectrum
    model.transformer_pool_attn = _onnx_network(session)
    return model


def _distillmos_parts(model):
    """The model split where the package's forward permutes the features: the spectrum (the package's
    ``_complex_compressed``, in PyTorch) and the network after it (what is exported)."""
    import torch
    import distillmos.sqa

    class Spectrum(torch.nn.Module):
        def __init__(self, cnn):
            super().__init__()
            self.hop_length, self.win_length = cnn.hop_length, cnn.win_length

        def forward(self, x):  # (N, samples) -> (N, 2 * bins, frames); the package permutes it to (N, frames, 2 * bins)
            compressed = distillmos.sqa._complex_compressed(x, self.hop_length, self.win_length).permute(0, 3, 1, 2)
            return compressed.flatten(1, 2)

    class Network(torch.nn.Module):
        def __init__(self, model):
            super().__init__()
            self.cnn, self.head = model.cnn.cnn, model.transformer_pool_attn

        def forward(self, features):  # (N, frames, 2 * bins) -> (N,), as the package's cnn and transformer_pool_attn
            frames, channels = features.shape[1], features.shape[2]
            x = features.permute(0, 2, 1).reshape(-1, 2, channels // 2, frames)
            return self.head(torch.flatten(self.cnn(x), 1, -2).permute(0, 2, 1))

    return Spectrum(model.cnn).eval(), Network(model).eval()


def _onnx_network(session):
    """Distill-MOS's exported network in a single-threaded ONNX Runtime session, as the module it replaces."""
    import torch

    class OnnxNetwork(torch.nn.Module):
        def forward(self, features):
            (quality,) = session.run(["quality"], {"features": np.ascontiguousarray(features.numpy())})
            return torch.from_numpy(quality)

    return OnnxNetwork()


def _distillmos_session(model):
    """The exported network's session: exported on first use (under a lock, so that parallel workers
    export once), checked against the package's network, then kept in the cache folder; exported again
    when the cached file cannot be loaded."""
    import fcntl
    import distillmos.sqa
    import torch
    folder = _cache_folder("distillmos")
    digest = _cached_sha256(distillmos.sqa.DEFAULT_WEIGHTS_CHKPT)
    path = os.path.join(folder, f"distill_mos-{digest}-r{DISTILLMOS_EXPORT_REVISION}-torch{torch.__version__}.onnx")
    with open(path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(path):
            try:
                return _single_threaded(path)
            except Exception as error:  # onnxruntime's own types: a damaged file is made again
                print(f"sekit: {path} cannot be loaded ({type(error).__name__}); exporting it again", file=sys.stderr)
        _export_distillmos(model, path)
        return _single_threaded(path)


def _export_distillmos(model, path):
    import torch
    import warnings
    import distillmos.sqa
    spectrum, network = _distillmos_parts(model)
    # The check signal: two crops of seeded noise (a batch of two, as a long clip gives).
    samples = torch.from_numpy(np.random.default_rng(0).uniform(-0.5, 0.5, (2, distillmos.sqa.SEQ_LEN)).astype(np.float32))
    with torch.no_grad():
        features = spectrum(samples).permute(0, 2, 1).contiguous()
        expected = network(features).numpy()
    partial = f"{path}.{os.getpid()}.partial"
    try:
        # With autograd on (not inference mode, not no_grad): PyTorch's fused inference path for the
        # transformer layers, which ONNX cannot express, is then not taken.
        with warnings.catch_warnings(), _stdout_to_stderr():
            warnings.simplefilter("ignore")
            torch.onnx.export(network, (features,), partial, input_names=["features"], output_names=["quality"],
                              dynamic_axes={"features": {0: "crops"}, "quality": {0: "crops"}}, opset_version=17, dynamo=False)
        (got,) = _single_threaded(partial).run(["quality"], {"features": np.ascontiguousarray(features.numpy())})
        difference = float(np.abs(got - expected).max())
        if not difference <= DISTILLMOS_EXPORT_TOLERANCE:
            raise ValueError(f"the export differs from the package's network by {difference:.3g}")
        os.replace(partial, path)
    finally:
        if os.path.exists(partial):
            os.remove(partial)


class _stdout_to_stderr:
    """Sends what a package prints (Python or C) to stderr: stdout carries the protocol."""

    def __enter__(self):
        sys.stdout.flush()
        self.saved = os.dup(1)
        os.dup2(2, 1)
        self.redirect = contextlib.redirect_stdout(sys.stderr)
        self.redirect.__enter__()

    def __exit__(self, *exc):
        self.redirect.__exit__(*exc)
        sys.stdout.flush()
        os.dup2(self.saved, 1)
        os.close(self.saved)


def _cache_folder(name):
    """``name`` in SEKit's cache folder (``$XDG_CACHE_HOME/sekit``, else ``~/.cache/sekit``, else
    ``sekit-UID`` in the temporary folder), made if missing."""
    if os.environ.get("XDG_CACHE_HOME", "").startswith("/"):
        root = os.path.join(os.environ["XDG_CACHE_HOME"], "sekit")
    elif os.environ.get("HOME", "").startswith("/"):
        root = os.path.join(os.environ["HOME"], ".cache", "sekit")
    else:
        import tempfile
        root = os.path.join(tempfile.gettempdir(), f"sekit-{os.getuid()}")
    folder = os.path.join(root, name)
    os.makedirs(folder, exist_ok=True)
    return folder


def _cached(folder, name, make, use):
    """``use(data)`` of the bytes kept as ``name`` in ``folder``; where they are missing, or ``use``
    refuses them (a damaged file), ``make()`` makes them again and they are kept (under a temporary
    name, then renamed). Made every time where ``folder`` is None or cannot be written."""
    if folder is not None:
        try:
            with open(os.path.join(folder, name), "rb") as f:
                kept = f.read()
            return use(kept)
        except Exception:  # missing, unreadable or damaged: made again
            pass
    data = make()
    if folder is not None:
        partial = os.path.join(folder, f"{name}.{os.getpid()}.partial")
        try:
            with open(partial, "wb") as f:
                f.write(data)
            os.replace(partial, os.path.join(folder, name))
        except OSError:
            pass
    return use(data)


def _cached_sha256(path):
    """A file's SHA-256, read from ``sha256/`` in the cache folder when the file is the one it was
    computed for (a model file is hashed once per machine, not per run); computed and kept there
    otherwise. Computed every time where the cache folder cannot be written.

    The file is known by its path, device, inode, size, modification time and status-change time:
    a file replaced by another of the same size and modification time (``tar x``, ``cp -p``, a file
    system with coarse timestamps) has another inode or a new ctime, which no program can set back,
    so it is hashed again rather than given the previous file's hash."""
    stat = os.stat(path)
    identity = (os.path.realpath(path), stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)
    key = hashlib.sha256("\0".join(map(str, identity)).encode()).hexdigest()
    try:
        folder = _cache_folder("sha256")
    except OSError:
        folder = None

    def digest(data):
        value = data.decode().strip()
        if len(value) != 64:
            raise ValueError("not a SHA-256")
        return value
    return _cached(folder, key, lambda: (_sha256(path) + "\n").encode(), digest)


_RUNS = {"dnsmos_personalized": run_dnsmos_personalized, "plcmos": run_plcmos, "visqol": run_visqol,
         "distillmos": run_distillmos, "speaker_similarity": run_speaker_similarity, "asr_vs_clean": run_asr_vs_clean,
         "asr": run_asr}

_sessions = {}


# What the worker derives from a model file (its rewritten graph, its parameter and MAC counts) is kept
# in ``onnx/<the file's SHA-256>-r<revision>/`` in the cache folder, so a model run again does not need
# ``onnx`` (or its parse and shape inference) again; a new revision (a change to what is derived) makes
# a new folder.
ONNX_CACHE_REVISION = 1


def _model_cache(path):
    """The cache folder of the model file at ``path``; None where it cannot be made."""
    try:
        return _cache_folder(os.path.join("onnx", f"{_cached_sha256(path)}-r{ONNX_CACHE_REVISION}"))
    except OSError:
        return None


def _session(path):
    """One single-threaded ONNX Runtime session per model file (one worker per core instead), of the
    model as ``_elu_as_exp`` writes it when it has Elu nodes (kept in the model's cache folder)."""
    if path not in _sessions:
        import onnxruntime  # noqa: F401  (outside the try: a missing package is an environment error)
        try:
            _sessions[path] = _cached(_model_cache(path), "elu-as-exp.onnx", lambda: _elu_as_exp(path) or b"",
                                      lambda rewritten: _single_threaded(rewritten or path))
        except Exception as error:  # onnxruntime's own exception types: a corrupt or non-ONNX file
            raise _MetricFailure(f"not a model ONNX Runtime can load: {error}")
    return _sessions[path]


def _elu_as_exp(path):
    """The serialized model with each Elu node of its main graph written as
    ``Max(x, alpha * (Exp(Min(x, 0)) - 1))`` when 0 < alpha <= 1 (``Mul`` left out when alpha is 1),
    else ``Relu(x) + alpha * (Exp(Min(x, 0)) - 1)``: ONNX's definition of Elu (x for x > 0, exactly;
    for x <= 0, alpha * (e^x - 1) >= e^x - 1 >= x, so the maximum is the definition's value), which
    ONNX Runtime's CPU kernels compute faster than its Elu kernel (the CRNN recipe's model, whose five
    Elu nodes take a fifth of its time: about 15 % less time per clip, outputs within 1e-6 of the
    peak). None when the model has no Elu node, its input is not float32, or ``onnx`` cannot read it
    (ONNX Runtime then loads the file as it is, and names the problem)."""
    try:
        import onnx
        from onnx import helper
        model = onnx.load(path)
    except Exception:  # onnx's own exception types; the session reports an unreadable file
        return None
    float32 = onnx.TensorProto.FLOAT
    if (not any(node.op_type == "Elu" for node in model.graph.node)
            or any(i.type.tensor_type.elem_type != float32 for i in model.graph.input)):
        return None
    nodes = []
    for index, node in enumerate(model.graph.node):
        if node.op_type != "Elu":
            nodes.append(node)
            continue
        alpha = next((a.f for a in node.attribute if a.name == "alpha"), 1.0)
        x, y, name = node.input[0], node.output[0], f"sekit_elu{index}"
        for constant, value in (("zero", 0.0), ("one", 1.0)) + ((("alpha", alpha),) if alpha != 1.0 else ()):
            model.graph.initializer.append(helper.make_tensor(f"{name}_{constant}", float32, [], [value]))
        nodes += [helper.make_node("Min", [x, f"{name}_zero"], [f"{name}_negative"]),
                  helper.make_node("Exp", [f"{name}_negative"], [f"{name}_exp"]),
                  helper.make_node("Sub", [f"{name}_exp", f"{name}_one"], [f"{name}_expm1"])]
        scaled = f"{name}_expm1"
        if alpha != 1.0:
            scaled = f"{name}_scaled"
            nodes.append(helper.make_node("Mul", [f"{name}_expm1", f"{name}_alpha"], [scaled]))
        if 0.0 < alpha <= 1.0:
            nodes.append(helper.make_node("Max", [x, scaled], [y]))
        else:
            nodes += [helper.make_node("Relu", [x], [f"{name}_positive"]),
                      helper.make_node("Add", [f"{name}_positive", scaled], [y])]
    del model.graph.node[:]
    model.graph.node.extend(nodes)
    return model.SerializeToString()


def _shape(dims):
    return [d if isinstance(d, int) else str(d) for d in dims]


def _model_counts(path, metadata):
    """Parameters (initializer elements) and multiply-accumulates per second of audio: the graph's
    shapes inferred for one second of frames, MACs counted for MatMul, Gemm, Conv, GRU and LSTM nodes."""
    import onnx
    from onnx import numpy_helper, shape_inference
    model = onnx.load(path)
    initializers = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    parameters = int(sum(a.size for a in initializers.values()))
    rate, hop, n_fft = int(metadata["sample_rate"]), int(metadata["hop_length"]), int(metadata["n_fft"])
    frames = 1 + rate // hop if metadata.get("center", "1") == "1" else 1 + (rate - n_fft) // hop
    for value in model.graph.input:
        dims = value.type.tensor_type.shape.dim
        if len(dims) == 3 and not dims[1].HasField("dim_value"):
            dims[1].ClearField("dim_param")
            dims[1].dim_value = frames
    inferred = shape_inference.infer_shapes(model, data_prop=True)  # Shape -> Reshape chains too
    shapes = {}
    for value in list(inferred.graph.value_info) + list(inferred.graph.input) + list(inferred.graph.output):
        dims = value.type.tensor_type.shape.dim
        shapes[value.name] = [d.dim_value if d.HasField("dim_value") else None for d in dims]
    for name, array in initializers.items():
        shapes[name] = list(array.shape)

    def size(name):
        dims = shapes.get(name)
        if dims is None or any(d is None for d in dims):
            raise _MetricFailure(f"cannot count MACs: the shape of {name!r} is not known for one second of frames")
        return int(np.prod(dims)) if dims else 1

    macs = 0
    for node in inferred.graph.node:
        if node.op_type == "MatMul":
            macs += size(node.output[0]) * shapes[node.input[0]][-1]
        elif node.op_type == "Gemm":
            trans_a = next((a.i for a in node.attribute if a.name == "transA"), 0)
            k = shapes[node.input[0]][0 if trans_a else 1]
            macs += size(node.output[0]) * k
        elif node.op_type == "Conv":
            weight = shapes[node.input[1]]
            macs += size(node.output[0]) * int(np.prod(weight[1:]))
        elif node.op_type in ("GRU", "LSTM"):
            steps = shapes[node.input[0]][0]
            macs += steps * (size(node.input[1]) + size(node.input[2]))
    return parameters, macs


def onnx_describe(request):
    """The model's metadata, inputs and outputs (names, shapes, types), SHA-256 and, unless
    ``count`` is false, its parameter and MAC counts; a model whose counts cannot be made gets
    ``count_error`` instead, which SEKit reports after it has checked the metadata the counts need."""
    path = request["path"]
    session = _session(path)
    try:
        metadata = dict(session.get_modelmeta().custom_metadata_map)
    except Exception as error:  # e.g. metadata that is not UTF-8 in a damaged file
        raise _MetricFailure(f"its metadata cannot be read ({type(error).__name__}); the file is damaged: export it again")
    result = {"metadata": metadata, "sha256": _cached_sha256(path),
              "inputs": [{"name": i.name, "shape": _shape(i.shape), "type": i.type} for i in session.get_inputs()],
              "outputs": [{"name": o.name, "shape": _shape(o.shape), "type": o.type} for o in session.get_outputs()]}
    if request.get("count", True):
        def count():
            try:
                parameters, macs = _model_counts(path, metadata)
            except _MetricFailure:
                raise
            except Exception as error:  # metadata SEKit refuses first (a missing key, a zero hop), onnx's own errors
                raise _MetricFailure(f"cannot count the model's MACs ({type(error).__name__}: {error})")
            return json.dumps({"parameters": parameters, "macs_per_second": macs}).encode()

        def read(data):
            counts = json.loads(data)
            return int(counts["parameters"]), int(counts["macs_per_second"])
        try:
            result["parameters"], result["macs_per_second"] = _cached(_model_cache(path), "counts.json", count, read)
        except _MetricFailure as error:
            result["count_error"] = str(error)
    return result


def _payload(array):
    return np.ascontiguousarray(array, dtype="<f4").tobytes()


def onnx_run(request, stdin):
    frames, bins = request["frames"], request["bins"]
    features = np.frombuffer(_read_exactly(stdin, 4 * frames * bins), dtype="<f4").reshape(1, frames, bins)
    (mask,) = _session(request["path"]).run(["mask"], {"noisy": features})
    if mask.shape != (1, frames, bins):
        raise _MetricFailure(f"output mask has shape {list(mask.shape)}, expected {[1, frames, bins]}")
    return {"_payload": _payload(mask)}


def onnx_stream(request, stdin):
    frames, bins = request["frames"], request["bins"]
    features = np.frombuffer(_read_exactly(stdin, 4 * frames * bins), dtype="<f4").reshape(1, frames, bins)
    session = _session(request["path"])
    state = np.zeros(request["state_shape"], dtype=np.float32)
    mask = np.empty((1, frames, bins), dtype=np.float32)
    seconds = []
    clock = time.perf_counter
    for t in range(frames):
        start = clock()
        frame_mask, state = session.run(["mask", "state_out"], {"noisy": features[:, t:t + 1, :], "state_in": state})
        seconds.append(clock() - start)
        mask[0, t] = frame_mask[0, 0]
    return {"_payload": _payload(mask), "frame_seconds": seconds}


class _MetricFailure(Exception):
    """A per-clip failure with a reason for the user."""


def main():
    stdin = sys.stdin.buffer
    stdout = sys.stdout.buffer
    while True:
        line = stdin.readline()
        if not line:
            return
        request = json.loads(line)
        op = request.get("op")
        try:
            signals = _signals(stdin, request) if "lengths" in request and not op.startswith("onnx_") else []
            if op == "describe":
                response = {"ok": True, **describe(request)}
            elif op == "pesq":
                response = {"ok": True, "values": [v.hex() for v in run_pesq(request, signals)]}
            elif op == "dnsmos":
                response = {"ok": True, "values": [v.hex() for v in run_dnsmos(request, signals)]}
            elif op in _RUNS:
                response = {"ok": True, "values": [v.hex() for v in _RUNS[op](request, signals)]}
            elif op == "onnx_describe":
                response = {"ok": True, **onnx_describe(request)}
            elif op == "onnx_run":
                response = {"ok": True, **onnx_run(request, stdin)}
            elif op == "onnx_stream":
                response = {"ok": True, **onnx_stream(request, stdin)}
            elif op == "crash":
                os._exit(3)
            else:
                response = {"ok": False, "error": "protocol", "message": f"unknown operation {op!r}"}
        except _MetricFailure as failure:
            response = {"ok": False, "error": "metric", "message": str(failure)}
        except EOFError:
            return
        except Exception as error:  # a broken install or an unexpected package error: report it, keep serving
            response = {"ok": False, "error": type(error).__name__, "message": str(error)}
        payload = response.pop("_payload", None)
        if payload is not None:
            response["payload_bytes"] = len(payload)
        stdout.write(json.dumps(response).encode() + b"\n")
        if payload is not None:
            stdout.write(payload)
        stdout.flush()


if __name__ == "__main__":
    main()
