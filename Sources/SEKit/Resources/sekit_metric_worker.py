"""SEKit's worker for metrics whose reference implementation is a Python package.

``sekit score`` starts one of these per ``--jobs`` worker thread (with the project's Python
environment, see ``scripts/python-env.sh``), keeps it alive across clips and feeds it clip by
clip over stdin/stdout. It runs the reference implementations as they are published, never a
rewrite:

* PESQ (ITU-T P.862, P.862.1, P.862.2): the ``pesq`` package (ITU-T reference C code), called
  exactly as a user calls it, ``pesq.pesq(rate, ref, deg, mode)`` on float64 arrays, so the
  values equal a direct call bit for bit.
* DNSMOS (P.835 SIG/BAK/OVRL and P.808): the ONNX models and feature code of the ``speechmos``
  package, with single-threaded onnxruntime sessions (one worker per core instead).

Protocol (one request at a time, little-endian):
  request:  one JSON line ``{"op": ..., ...}``, then the float32 samples its ``lengths`` name
  response: one JSON line, ``{"ok": true, "values": ["<float.hex()>", ...], ...}`` or
            ``{"ok": false, "error": "<kind>", "message": "<reason>"}``
Operations: ``describe`` (``packages``: versions, model files and their SHA-256), ``pesq``
(``rate``, ``mode`` wb|nb, ``lengths`` [reference, degraded]), ``dnsmos`` (``rate`` 16000,
``lengths`` [signal]: SIG, BAK, OVRL, P.808), ``crash`` (exits at once: tests use it to check
that a dying worker is replaced).

Values travel as ``float.hex()`` strings so that they arrive bit for bit.
"""

import hashlib
import importlib
import importlib.metadata
import json
import os
import platform
import sys

import numpy as np

_dnsmos = None


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


def describe(request):
    """Versions of the packages a metric needs (importing each, so a broken install shows here)."""
    packages = {}
    models = {}
    for name in request.get("packages", []):
        importlib.import_module(name)
        packages[name] = importlib.metadata.version(name)
        if name == "speechmos":
            import onnxruntime
            import librosa
            packages["onnxruntime"] = onnxruntime.__version__
            packages["librosa"] = librosa.__version__
            for path in _dnsmos_model_paths():
                models[os.path.basename(path)] = _sha256(path)
    packages["numpy"] = np.__version__
    return {"python": platform.python_version(), "executable": sys.executable, "packages": packages, "models": models}


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
        import onnxruntime
        import speechmos.dnsmos
        primary, p808 = _dnsmos_model_paths()
        model = speechmos.dnsmos.DNSMOS(primary, p808)
        # One thread per session: sekit runs one worker per --jobs instead.
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        model.onnx_sess = onnxruntime.InferenceSession(primary, options, providers=["CPUExecutionProvider"])
        model.p808_onnx_sess = onnxruntime.InferenceSession(p808, options, providers=["CPUExecutionProvider"])
        _dnsmos = model
    if not ((signal >= -1).all() and (signal <= 1).all()):
        raise _MetricFailure("samples outside [-1, 1] (speechmos refuses them)")
    scores = _dnsmos(signal, 16000, False)
    return [float(scores["sig_mos"]), float(scores["bak_mos"]), float(scores["ovrl_mos"]), float(scores["p808_mos"])]


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
            signals = _signals(stdin, request) if "lengths" in request else []
            if op == "describe":
                response = {"ok": True, **describe(request)}
            elif op == "pesq":
                response = {"ok": True, "values": [v.hex() for v in run_pesq(request, signals)]}
            elif op == "dnsmos":
                response = {"ok": True, "values": [v.hex() for v in run_dnsmos(request, signals)]}
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
        stdout.write(json.dumps(response).encode() + b"\n")
        stdout.flush()


if __name__ == "__main__":
    main()
