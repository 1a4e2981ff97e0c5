"""What energy-cuda prints after a build: one table of the kernels' choices.

    python3 console.py [--no-table] REPORT.json...

The reports are the device compiles' -energy-report files of one build (one per
.cu file and architecture). The table has one row per kernel and architecture:
its board, the chosen configuration and the default, the predicted time and
energy of the choice, the change against the default, and why; a footer says
what was not searched and why (kernels left alone, shapes refused as not
correct, candidates pruned). Durations and energies scale their unit (ns, us,
ms, s; nJ, uJ, mJ, J); the reports keep SI numbers.

A kernel that --energy-force-config names and that no report's module defines
is an error (exit 1): each compile only warns, as another file may define it.

energy-cuda runs this file by its path (it is installed beside the plugin): it
imports nothing outside the standard library.
"""

import json
import math
import sys

DURATION_UNITS = [(1e-9, "ns"), (1e-6, "us"), (1e-3, "ms"), (1.0, "s")]
ENERGY_UNITS = [(1e-9, "nJ"), (1e-6, "uJ"), (1e-3, "mJ"), (1.0, "J")]


def unit_for(value, units):
    """(scale, name) of the largest unit in which |value| is at least 1 once
    rounded to 4 significant digits (999.96 us is 1 ms); the smallest unit
    below it."""
    size = abs(value)
    chosen = units[0]
    for scale, name in units:
        if size > 0 and float("%.4g" % (size / scale)) >= 1:
            chosen = (scale, name)
    return chosen


def format_quantity(value, units):
    """value (SI) in the unit unit_for picks, with 4 significant digits and
    no exponent: 2.135e-2 s is '21.35 ms'."""
    if value is None or not math.isfinite(value):
        return "n/a"
    if value == 0:
        return "0 " + units[-1][1]
    scale, name = unit_for(value, units)
    scaled = value / scale
    if abs(scaled) >= 1e4:  # beyond the largest unit: no exponent either
        return "%.0f %s" % (scaled, name)
    return "%s %s" % ("%.4g" % scaled, name)


def format_duration(seconds):
    return format_quantity(seconds, DURATION_UNITS)


def format_energy(joules):
    return format_quantity(joules, ENERGY_UNITS)


def config_label(candidate):
    """'16x16,TILE=16': the block without trailing 1s, then the tunables."""
    block = list(candidate["block"])
    while len(block) > 1 and block[-1] == 1:
        block.pop()
    tunables = "".join(",%s=%s" % kv for kv in candidate.get("tunables", {}).items())
    return "x".join(str(d) for d in block) + tunables


def action(kernel):
    if kernel.get("decided_by") == "forced" or kernel.get("objective") == "forced":
        return "forced" if kernel["applied"] else "forced advice"
    return "applied" if kernel["applied"] else "advice"


def why(kernel):
    """Why this configuration: what decided it, and for advice why it was not
    built. decided_by is the report's own word for it, so the text cannot
    claim the objective chose what min-gain kept."""
    decided = kernel.get("decided_by") or (
        "forced" if kernel.get("objective") == "forced" else "objective")
    if decided == "forced":
        text = "forced (--energy-force-config)"
    elif decided == "min-gain":
        text = "min-gain: no candidate beats the default by more than %g%%" % (
            kernel.get("min_gain", 0) * 100)
    else:
        text = "best for " + kernel["objective"]
    if not kernel["applied"]:
        text += ("; launch bounds in the source" if kernel.get("user_bounded")
                 else "; not opted in (ENERGY_KERNEL)")
    return text


def percent_change(vs):
    """'-7.4% E, -5.6% t' from savings_percent (savings are the negated change)."""
    if not vs:
        return "-"
    if abs(vs["energy"]) < 0.05 and abs(vs["time"]) < 0.05:
        return "same"
    return "%+.1f%% E, %+.1f%% t" % (-vs["energy"], -vs["time"])


def board(kernel):
    return "%s (%s)" % (kernel["gpu"], kernel["arch"])


def kernel_row(kernel):
    choice = kernel["choice"]
    default = kernel["baselines"]["default"]
    return [kernel["kernel"], board(kernel), config_label(choice), config_label(default),
            format_duration(choice.get("time_s")), format_energy(choice.get("energy_j")),
            percent_change(kernel.get("savings_percent", {}).get("vs_default")),
            action(kernel), why(kernel)]


HEADER = ["kernel", "board", "chosen", "default", "time", "energy", "vs default",
          "action", "why"]


def align(rows):
    """Columns padded to their widest cell; the last column is not padded."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    return ["  ".join([c.ljust(w) for c, w in zip(r, widths)] + [r[-1]]).rstrip()
            for r in rows]


def reason_group(reason):
    """A skipped kernel's reason without its name and details, to group by:
    "kernel 'steps': no advice: no other block shape is known to be correct
    for it (the kernel reads ...)" -> "no advice: no other block shape is
    known to be correct for it"."""
    text = reason
    if text.startswith("kernel '"):
        end = text.find("': ")
        if end > 0:
            text = text[end + 3:]
    return text.split(" (")[0]


def names(kernels, most=3):
    shown = ", ".join(kernels[:most])
    return shown + (", +%d more" % (len(kernels) - most) if len(kernels) > most else "")


def not_searched(kernels, skipped):
    """Footer lines: kernels left alone, grouped by reason, and per kernel the
    shapes refused as not correct and the candidates pruned."""
    lines = []
    if skipped:
        groups = {}
        for s in skipped:
            groups.setdefault(reason_group(s["reason"]), []).append(s["kernel"])
        parts = ["%d %s (%s)" % (len(ks), g, names(sorted(ks))) for g, ks in groups.items()]
        lines.append("left alone: %d kernel%s: %s" % (
            len(skipped), "" if len(skipped) == 1 else "s", "; ".join(parts)))
    for k in kernels:
        parts = []
        refused = k.get("shapes_not_correct", 0)
        if refused:
            rules = [r for r in k.get("restrictions", []) if "proven correct" not in r["rule"]]
            first = (": %s, %s" % (rules[0]["rule"], rules[0]["reason"])) if rules else ""
            more = " (+%d more rules)" % (len(rules) - 1) if len(rules) > 1 else ""
            parts.append("%d shapes not correct%s%s" % (refused, first, more))
        pruned = k.get("pruned", {})
        if pruned.get("resources"):
            parts.append("%d candidates pruned: over the SM's resources" % pruned["resources"])
        if pruned.get("occupancy_cliff"):
            parts.append("%d candidates pruned: past an occupancy cliff"
                         % pruned["occupancy_cliff"])
        if parts:
            lines.append("%s (%s): %s" % (k["kernel"], k["arch"], "; ".join(parts)))
    return lines


def notes(kernels):
    """Build-wide notes: boards that are an architecture's default (the user
    named none), and choices made with nvcc's registers."""
    lines = []
    defaulted = sorted({(k["arch"], k["gpu"]) for k in kernels
                        if k.get("gpu_from", "").startswith("default board")})
    for arch, gpu in defaulted:
        lines.append("%s is modelled as its default board %s: --energy-gpu=BOARD names "
                     "yours (energy-cuda --help lists them)" % (arch, gpu))
    nvcc = [k["kernel"] for k in kernels if k.get("registers_from") == "nvcc"]
    if nvcc:
        lines.append("registers from nvcc's build: " + names(nvcc, most=6))
    return lines


def table(reports):
    """The console text for the reports of one build."""
    kernels = sorted((k for r in reports for k in r.get("kernels", [])),
                     key=lambda k: (k["kernel"], k["arch"]))
    # A kernel left alone for several architectures is one kernel.
    skipped = list({(s["kernel"], s["reason"]): s
                    for r in reports for s in r.get("skipped", [])}.values())
    if not kernels and not skipped:
        return []
    count = len({k["kernel"] for k in kernels} | {s["kernel"] for s in skipped})
    lines = ["energy-cuda: %d kernel%s (predicted per launch):"
             % (count, "" if count == 1 else "s")]
    if kernels:
        lines += ["  " + l for l in align([HEADER] + [kernel_row(k) for k in kernels])]
    lines += ["  not searched: " + l for l in not_searched(kernels, skipped)]
    lines += ["  note: " + l for l in notes(kernels)]
    return lines


def unmatched_forces(reports):
    """Kernels a force names that no report's module defines, in order."""
    if not reports:
        return []
    everywhere = [n for n in reports[0].get("unmatched_forces", [])
                  if all(n in r.get("unmatched_forces", []) for r in reports[1:])]
    return list(dict.fromkeys(everywhere))


def main(argv=None):
    args = list(sys.argv[1:] if argv is None else argv)
    show = "--no-table" not in args
    paths = [a for a in args if a != "--no-table"]
    reports = []
    for p in paths:
        try:
            with open(p, encoding="utf-8") as f:
                reports.append(json.load(f))
        except (OSError, ValueError) as e:
            print("energy-cuda: error: cannot read report %s: %s" % (p, e), file=sys.stderr)
            return 1
    if show:
        for line in table(reports):
            print(line, file=sys.stderr)
    missing = unmatched_forces(reports)
    for name in missing:
        print("energy-cuda: error: --energy-force-config names kernel '%s', which no "
              "compiled file defines (see the warnings above for similar names)" % name,
              file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
