"""energy.tune_eval on the committed H100 rows (real measurements) and, where the shared
measurements are here, one public pair."""

import os
import unittest

from energy import tune_eval
from energy.tuning_cache import REPO_ROOT

SHARED = os.path.join(os.path.dirname(REPO_ROOT), "shared", "data", "public-measurements")


def quiet(_):
    pass


class TuneEvalTest(unittest.TestCase):
    def check(self, results):
        for r in results:
            for strategy, m in r["strategies"].items():
                # Regrets never rise with more measurements and are >= 1.
                curve = [m["regret_at"][str(k)] for k in tune_eval.CHECKPOINTS]
                self.assertEqual(curve, sorted(curve, reverse=True), (r["pair"], strategy))
                self.assertGreaterEqual(curve[-1], 1.0)
                self.assertLessEqual(m["measurements_to_target"], r["candidates"])
                if r["candidates"] <= 20:      # every candidate measured by then
                    self.assertEqual(curve[-1], 1.0)

    def test_h100_rows(self):
        pairs = tune_eval.h100_pairs(tune_eval.H100_ROWS)
        self.assertGreaterEqual(len(pairs), 15)
        results = tune_eval.evaluate(pairs[:4], 2, 0.02, quiet)
        self.check(results)
        summary = tune_eval.summarize(results)
        self.assertEqual(set(summary), {"guided", "random", "annealing"})
        self.assertIn("stop_rule", summary["guided"])
        self.assertEqual(results[0]["strategies"]["random"]["seeds"], 2)

    def test_public_pair(self):
        if not os.path.isdir(SHARED):
            self.skipTest("the shared measurements are not here")
        pairs = tune_eval.public_pairs(tune_eval.KT_ROWS, quiet, ["coulomb-sum"])
        self.assertEqual([p[0] for p in pairs], ["coulomb-sum / rtx-2080-ti",
                                                 "coulomb-sum / gtx-1070"])
        self.assertEqual(len(pairs[0][1]), 60)
        self.check(tune_eval.evaluate(pairs[:1], 2, 0.02, quiet))


if __name__ == "__main__":
    unittest.main()
