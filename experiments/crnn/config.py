"""The recipe's settings: experiments/crnn/config.json holds every key with its default; a --config FILE
overrides any of them (keys it does not name keep the default). Unknown keys are refused."""

import json
import os

from model import MODEL_DEFAULTS

DEFAULT_CONFIG = os.path.join(os.path.dirname(os.path.abspath(__file__)), "config.json")
# framing "dns": the DNS Challenge's 20 ms window and 10 ms hop at 16 kHz.
FRAMINGS = {"any": None, "dns": {"sample_rate": 16000, "win_length": 320, "hop_length": 160}}


def load_config(path=None):
    """The defaults updated with `path`'s keys (the "model" object key by key)."""
    with open(DEFAULT_CONFIG, encoding="utf-8") as f:
        config = json.load(f)
    if path is None:
        return config
    try:
        with open(path, encoding="utf-8") as f:
            given = json.load(f)
    except (OSError, json.JSONDecodeError) as error:
        raise SystemExit(f"{path}: cannot read the config: {error}")
    if not isinstance(given, dict):
        raise SystemExit(f"{path}: the config is a JSON object of settings")
    unknown = sorted(set(given) - set(config)) + sorted(
        f"model.{key}" for key in set(given.get("model", {})) - set(MODEL_DEFAULTS))
    if unknown:
        raise SystemExit(f"{path}: unknown config key(s) {', '.join(unknown)} (known: {', '.join(sorted(config))})")
    model = dict(config["model"], **given.get("model", {}))
    config.update(given)
    config["model"] = model
    if config["framing"] not in FRAMINGS:
        raise SystemExit(f"{path}: framing {config['framing']!r}: use one of {', '.join(FRAMINGS)}")
    return config


def check_framing(config, attrs, features_path):
    """Refuses a feature file whose STFT differs from the config's framing preset."""
    wanted = FRAMINGS[config["framing"]]
    if wanted is None:
        return
    wrong = {key: attrs.get(key) for key, value in wanted.items() if int(attrs.get(key, -1)) != value}
    if wrong:
        found = ", ".join(f"{key} {value}" for key, value in wrong.items())
        raise SystemExit(f"{features_path}: framing '{config['framing']}' needs a 20 ms window and 10 ms hop at 16 kHz "
                         f"(sekit features --n-fft 320 --win-length 320 --hop-length 160); the file has {found}")


def flat_params(config):
    """The config as the run's params: model keys prefixed "model."."""
    params = {key: value for key, value in config.items() if key != "model"}
    params.update({f"model.{key}": value for key, value in config["model"].items()})
    return {key: json.dumps(value) if isinstance(value, (list, dict)) else value for key, value in params.items()}
