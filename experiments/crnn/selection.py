"""Which epoch is the best so far, and when to stop: the recipe's checkpoint selection and early stopping.

    selection = Selection(key="valid_loss", mode="min", patience=3, min_delta=0.0)
    for epoch in ...:
        improved = selection.update(epoch, metrics)   # True: keep this epoch as the best
        if selection.should_stop: break
"""

import math

MODES = ("min", "max")


class Selection:
    """Tracks the best value of one logged metric and the epochs since it last improved.

    Args:
        key: the metric that decides (``valid_loss``, ``valid_stoi``, ``valid_pesq``, ...).
        mode: ``min`` (lower is better) or ``max``.
        patience: stop after this many epochs in a row without improvement; 0 or None never stops early.
        min_delta: an improvement must beat the best by more than this.
    """

    def __init__(self, key, mode="min", patience=None, min_delta=0.0):
        if mode not in MODES:
            raise ValueError(f"selection mode {mode!r}: use one of {', '.join(MODES)}")
        if patience is not None and int(patience) < 0:
            raise ValueError(f"patience {patience!r}: a whole number, 0 or more")
        self.key, self.mode, self.patience, self.min_delta = key, mode, int(patience or 0), float(min_delta)
        self.best_epoch, self.best_value, self.epochs_without_improvement = None, None, 0

    def update(self, epoch, metrics):
        """Records `epoch`'s metrics; True when it is the new best."""
        if self.key not in metrics:
            raise KeyError(f"selection key {self.key!r} is not among the logged metrics ({', '.join(sorted(metrics))})")
        value = float(metrics[self.key])
        if math.isnan(value):
            improved = False
        elif self.best_value is None:
            improved = True
        elif self.mode == "min":
            improved = value < self.best_value - self.min_delta
        else:
            improved = value > self.best_value + self.min_delta
        if improved:
            self.best_epoch, self.best_value, self.epochs_without_improvement = epoch, value, 0
        else:
            self.epochs_without_improvement += 1
        return improved

    @property
    def should_stop(self):
        return self.patience > 0 and self.epochs_without_improvement >= self.patience
