"""energy-cuda's table of choices (energy.console) and the report plots' layout
(energy.report.plot_layout), on hand-written reports."""

import json
import unittest

from energy import console, report

from tests import util


def candidate(block, time_s, energy_j, **tunables):
    return {"block": list(block) + [1] * (3 - len(block)), "tunables": tunables,
            "time_s": time_s, "energy_j": energy_j, "occupancy": 1.0}


def kernel(name, choice, default, decided_by="objective", applied=True, **extra):
    k = {"kernel": name, "arch": "sm_89", "gpu": "rtx-4090", "gpu_from": "-energy-gpu",
         "objective": "energy within 10% of the fastest", "opted_in": applied,
         "user_bounded": False, "applied": applied, "registers_from": "clang",
         "shapes_not_correct": 0, "pruned": {"resources": 0, "occupancy_cliff": 0},
         "restrictions": [], "choice": choice, "decided_by": decided_by,
         "baselines": {"default": default, "occupancy_heuristic": default},
         "candidates": [choice, default], "pareto_front": [0]}
    k["savings_percent"] = {"vs_default": {
            "energy": -100 * (choice["energy_j"] / default["energy_j"] - 1),
            "time": -100 * (choice["time_s"] / default["time_s"] - 1)}}
    k.update(extra)
    return k


class UnitsTest(unittest.TestCase):
    """The same boundaries as the C++ formatter's (test/unit/UnitsTest.cpp)."""

    def test_durations(self):
        cases = {850e-9: "850 ns", 1e-6: "1 us", 73.3609e-6: "73.36 us",
                 2.135e-2: "21.35 ms", 1.5: "1.5 s", 999.96e-6: "1 ms",
                 999.94e-6: "999.9 us", 0.5e-9: "0.5 ns", 12345.0: "12345 s",
                 0: "0 s", float("nan"): "n/a", None: "n/a"}
        for seconds, text in cases.items():
            self.assertEqual(console.format_duration(seconds), text, seconds)

    def test_energies(self):
        cases = {12e-6: "12 uJ", 0.0303678: "30.37 mJ", 7.750309: "7.75 J",
                 999.96e-3: "1 J", 3e-10: "0.3 nJ", -2e-3: "-2 mJ"}
        for joules, text in cases.items():
            self.assertEqual(console.format_energy(joules), text, joules)


class TableTest(unittest.TestCase):
    def setUp(self):
        d = candidate([256], 73.36e-6, 30.37e-3, ITEMS=1)
        faster = candidate([512], 60e-6, 27e-3, ITEMS=4)
        tile = candidate([16, 16], 2.273e-2, 7.75, TILE=16)
        self.reports = [
            {"kernels": [kernel("scale", faster, d),
                         kernel("sgemm", tile, tile, decided_by="min-gain", min_gain=0.1),
                         kernel("copy", d, d, decided_by="forced"),
                         kernel("advise", faster, d, applied=False)],
             "skipped": [{"kernel": "steps", "reason": "kernel 'steps': no advice: no other "
                          "block shape is known to be correct for it (reads threadIdx.x)"},
                         {"kernel": "fixed", "reason": "kernel 'fixed': no advice: no other "
                          "block shape is known to be correct for it (another detail)"}],
             "unmatched_forces": []}]

    def rows(self):
        return {line.split()[0]: line for line in console.table(self.reports)[2:]}

    def test_one_row_per_kernel_with_board_chosen_default_and_why(self):
        lines = console.table(self.reports)
        self.assertEqual(lines[0], "energy-cuda: 6 kernels (predicted per launch):")
        self.assertEqual(lines[1].split(), ["kernel", "board", "chosen", "default", "time",
                                            "energy", "vs", "default", "action", "why"])
        rows = self.rows()
        self.assertEqual(
            rows["scale"].split(None, 8),
            ["scale", "rtx-4090", "(sm_89)", "512,ITEMS=4", "256,ITEMS=1", "60", "us", "27",
             "mJ     -11.1% E, -18.2% t  applied  best for energy within 10% of the fastest"])
        # min-gain kept the default: the objective did not choose it.
        self.assertTrue(" ".join(rows["sgemm"].split()).endswith(
            "22.73 ms 7.75 J same applied min-gain: no candidate beats the default by more "
            "than 10%"), rows["sgemm"])
        self.assertIn("forced (--energy-force-config)", rows["copy"])
        self.assertIn("advice   best for energy within 10% of the fastest; not opted in",
                      rows["advise"])

    def test_columns_are_aligned(self):
        lines = console.table(self.reports)[1:6]
        start = lines[0].index("time")
        for line in lines[1:]:
            self.assertEqual(line[start - 2:start], "  ", line)
            self.assertNotEqual(line[start], " ", line)

    def test_left_alone_is_one_line_grouped_by_reason(self):
        footer = [l for l in console.table(self.reports) if "left alone" in l]
        self.assertEqual(footer, [
            "  not searched: left alone: 2 kernels: 2 no advice: no other "
            "block shape is known to be correct for it (fixed, steps)"])

    def test_refused_and_pruned_candidates(self):
        k = self.reports[0]["kernels"][0]
        k["shapes_not_correct"] = 12
        k["restrictions"] = [{"rule": "any shape (proven correct)", "reason": "x"},
                             {"rule": "block multiple of 32", "reason": "warp shuffles"},
                             {"rule": "block <= 256", "reason": "shared array size"}]
        k["pruned"] = {"resources": 3, "occupancy_cliff": 0}
        self.assertIn("  not searched: scale (sm_89): 12 shapes not correct: "
                      "block multiple of 32, warp shuffles (+1 more rules); 3 candidates "
                      "pruned: over the SM's resources", console.table(self.reports))

    def test_default_board_note(self):
        for k in self.reports[0]["kernels"]:
            k["gpu_from"] = "default board of sm_89"
        self.assertIn("  note: sm_89 is modelled as its default board rtx-4090: "
                      "--energy-gpu=BOARD names yours (energy-cuda --help lists them)",
                      console.table(self.reports))

    def test_nothing_planned_prints_nothing(self):
        self.assertEqual(console.table([{"kernels": [], "skipped": []}]), [])


class ForceTest(util.TempDirTest):
    def test_a_force_no_file_defines_is_an_error(self):
        a = self.write("a.json", json.dumps({"kernels": [], "skipped": [],
                                             "unmatched_forces": ["scael", "copy"]}))
        b = self.write("b.json", json.dumps({"kernels": [], "skipped": [],
                                             "unmatched_forces": ["scael"]}))
        code, out, err = util.run_main(console.main, ["--no-table", a, b])
        self.assertEqual(code, 1)
        self.assertEqual(out, "")
        # copy is in b's module: no error for it.
        self.assertEqual(err.splitlines(), [
            "energy-cuda: error: --energy-force-config names kernel 'scael', which no "
            "compiled file defines (see the warnings above for similar names)"])

    def test_forces_found_somewhere_pass(self):
        a = self.write("a.json", json.dumps({"kernels": [], "skipped": [],
                                             "unmatched_forces": ["copy"]}))
        b = self.write("b.json", json.dumps({"kernels": [], "skipped": [],
                                             "unmatched_forces": []}))
        self.assertEqual(util.run_main(console.main, [a, b]), (0, "", ""))

    def test_unreadable_report(self):
        code, _, err = util.run_main(console.main, [self.tmp + "/none.json"])
        self.assertEqual(code, 1)
        self.assertTrue(err.startswith("energy-cuda: error: cannot read report"), err)


class PlotLayoutTest(unittest.TestCase):
    def kernel(self):
        d = candidate([256], 80e-6, 31e-3, ITEMS=1)
        chosen = candidate([512], 70e-6, 29e-3, ITEMS=2)
        fast = candidate([1024], 65e-6, 33e-3, ITEMS=4)
        near = candidate([128], 90e-6, 34e-3, ITEMS=1)
        far = candidate([32], 900e-6, 300e-3, ITEMS=1)  # far off: not on the axes
        k = kernel("saxpy", chosen, d, model="analytic")
        k["candidates"] = [d, chosen, fast, near, far]
        k["pareto_front"] = [1, 2]
        return k, far

    def test_labels_name_the_configurations(self):
        layout = report.plot_layout(self.kernel()[0])
        self.assertEqual(layout["units"], ("us", "mJ"))
        self.assertEqual(sorted(text for _, text in layout["labels"]),
                         ["1024,ITEMS=4", "256,ITEMS=1 (default)", "512,ITEMS=2 (chosen)"])
        self.assertEqual(dict((t, p) for p, t in layout["labels"])["512,ITEMS=2 (chosen)"],
                         (70.0, 29.0))

    def test_far_candidate_is_clipped_with_a_note(self):
        k, far = self.kernel()
        layout = report.plot_layout(k)
        x_lo, x_hi = layout["xlim"]
        y_lo, y_hi = layout["ylim"]
        # The front, the choice, the default and the near candidate fit ...
        for x, y in [(65, 33), (70, 29), (80, 31), (90, 34)]:
            self.assertTrue(x_lo < x < x_hi and y_lo < y < y_hi, (x, y))
        # ... the far one does not squash them: it is noted instead.
        self.assertLess(x_hi, 200)
        self.assertEqual(layout["outside"], [(900.0, 300.0)])
        self.assertEqual(layout["note"],
                         "1 candidate off the axes (e.g. 32,ITEMS=1: 900 us, 300 mJ)")

    def test_no_outlier_no_note(self):
        k, far = self.kernel()
        k["candidates"].remove(far)
        layout = report.plot_layout(k)
        self.assertIsNone(layout["note"])
        self.assertEqual(layout["outside"], [])


if __name__ == "__main__":
    unittest.main()
