"""Checks energy-bench's output and prints it compactly for FileCheck.

    check_rows.py OUT.jsonl [--baselines | --method | --order]

Every line must be a JSON object; ok rows must satisfy energy_j = avg_power_w *
run_s / launches and time_s = median(time_batches_s), use no energy-counter update
from before energy_settle_s, and the file must load with energy.dataset (the
training code's reader). Prints one sorted line per row and counts; --method prints
each row's measurement-method record instead, --order the rows in file order.
"""
import json
import math
import statistics
import sys

from energy import dataset


def main(path, baselines=False, method=False, order=False):
    rows = []
    with open(path, encoding="utf-8") as f:
        text = f.read()
    assert text == "" or text.endswith("\n"), "the last line is incomplete"
    for number, line in enumerate(text.splitlines(), 1):
        row = json.loads(line)
        assert isinstance(row, dict), f"line {number} is not an object"
        rows.append(row)
    if baselines:
        for row in sorted(rows, key=lambda r: r["kernel"]):
            print(f"BASELINE {row['kernel']} {row['method']} threads={row.get('block_threads')} "
                  f"config={row.get('config')} default={row.get('default_config')}")
        return 0
    for row in rows:
        if row["status"] != "ok":
            assert row["error"] and row["failure"], row
            continue
        expect = row["avg_power_w"] * row["run_s"] / row["launches"]
        assert math.isclose(row["energy_j"], expect, rel_tol=1e-9), row
        assert math.isclose(row["time_s"], statistics.median(row["time_batches_s"]),
                            rel_tol=1e-9), row
        for key in ("sm_clock_mhz", "mem_clock_mhz", "temp_start_c", "temp_end_c",
                    "idle_power_w", "driver", "cuda", "registers", "spills_bytes", "seed",
                    "timestamp", "power_samples_w", "features", "counter_updates",
                    "counter_update_gap_s", "energy_spread", "time_spread_windows",
                    "remeasured", "throttle_reasons", "power_limit_w"):
            assert key in row, (key, row)
        if row["method"] == "nvml-energy-counter":
            assert row["counter_updates"] >= 2, row
            assert row["energy_window_start_s"] >= row["energy_settle_s"], row
    if method:
        for row in rows:
            if row["status"] == "ok":
                first = (f" first_energy_spread>3%={row['first_energy_spread'] > 0.03}"
                         if row["remeasured"] else "")
                print(f"METHOD {row['config']} {row['method']} "
                      f"updates={'>=2' if row['counter_updates'] >= 2 else row['counter_updates']} "
                      f"gap={row['counter_update_gap_s'] is not None} "
                      f"remeasured={str(row['remeasured']).lower()}{first} "
                      f"throttle={row['throttle_reasons']}:{row['throttle_reason_names']} "
                      f"limit={row['power_limit_w']}")
        return 0
    if order:
        print("ORDER " + " ".join(f"{r['config']}#{r['repeat_index']}" for r in rows))
        return 0
    for row in sorted(rows, key=lambda r: (r["kernel"], r["config"], r["repeat_index"])):
        extra = f" failure={row['failure']}" if row["status"] != "ok" else \
            f" method={row['method']}"
        print(f"ROW {row['kernel']}/{row['config']} {row['status']} "
              f"repeat_index={row['repeat_index']} drift={str(row['drift']).lower()}{extra}")
    ok = sum(r["status"] == "ok" for r in rows)
    print(f"rows {len(rows)} ok {ok} failed {len(rows) - ok}")
    if ok:
        data = dataset.load([path])
        print(f"dataset: {len(data.frame)} rows, {len(data.feature_names)} features")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], "--baselines" in sys.argv[2:], "--method" in sys.argv[2:],
                  "--order" in sys.argv[2:]))
