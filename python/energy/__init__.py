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
