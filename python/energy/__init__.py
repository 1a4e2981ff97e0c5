"""Training and evaluation of the XGBoost time and energy cost models of energy.so.

- energy.dataset:  load measured rows (JSON Lines or CSV) into a pandas DataFrame.
- energy.train:    fit the time and energy boosters and write the model file the plugin
                   embeds (`python3 -m energy.train DATA... -o models/sm_90.json`).
- energy.evaluate: leave-one-kernel-out evaluation against measurements and the analytic
                   model (`python3 -m energy.evaluate DATA... --json out.json --plots DIR`).
- energy.crossval: its --split mode: the time-model variants (regression, rank, hybrid)
                   leaving one kernel or one board out, per (kernel, gpu) pair.
- energy.ranking:  Spearman and top-1 regret of a pair's predictions (also for kt_eval).
- energy.pareto:   Pareto front of (time, energy), both minimized.

The formats are described in docs/dataset-format.md.
"""

__version__ = "0.1.0"

import sys as _sys

# The Debian packages of the third-party modules the tools import (the Python
# package index is not where these come from).
DEBIAN_PACKAGES = {
    "numpy": "python3-numpy",
    "scipy": "python3-scipy",
    "pandas": "python3-pandas",
    "matplotlib": "python3-matplotlib",
    "xgboost": "python3-xgboost",
}


def _missing_module_hook(kind, value, traceback, _default=_sys.excepthook):
    """A tool that dies for want of a module says so in one line."""
    name = (getattr(value, "name", None) or "").partition(".")[0]
    package = DEBIAN_PACKAGES.get(name)
    if issubclass(kind, ModuleNotFoundError) and package:
        print(f"error: this needs the Python module '{name}' "
              f"(apt-get install {package})", file=_sys.stderr)
        _sys.exit(1)
    _default(kind, value, traceback)


_sys.excepthook = _missing_module_hook
