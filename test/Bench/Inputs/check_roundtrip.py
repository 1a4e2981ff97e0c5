"""Checks that `energy-bench --dry-run` lists every kernel and config of a manifest
with the manifest's block, grid and shared memory.

    check_roundtrip.py MANIFEST DRY_RUN_OUTPUT
"""
import json
import sys


def main(manifest_path, summary_path):
    with open(manifest_path, encoding="utf-8") as f:
        manifest = json.load(f)
    with open(summary_path, encoding="utf-8") as f:
        lines = set(f.read().splitlines())
    configs = 0
    for kernel in manifest["kernels"]:
        reference = [c["id"] for c in kernel["configs"] if c.get("reference")]
        assert len(reference) == 1, (kernel["name"], reference)
        assert any(line.startswith(f"kernel {kernel['name']}: ") and
                   line.endswith(f"drift reference {reference[0]}") for line in lines), kernel["name"]
        for c in kernel["configs"]:
            flags = (" repeat" if c["repeat"] else "") + (" reference" if c.get("reference") else "")
            line = (f"  {c['id']} block {'x'.join(map(str, c['block']))} "
                    f"grid {'x'.join(map(str, c['grid']))} smem {c['dynamic_smem']}{flags}")
            assert line in lines, f"missing from the summary: {line!r}"
            configs += 1
    total = [line for line in lines if line.startswith("total: ")]
    repeats = sum(c["repeat"] for k in manifest["kernels"] for c in k["configs"])
    assert total == [f"total: {len(manifest['kernels'])} kernels, {configs} configs, "
                     f"{configs + repeats} measurements ({repeats} repeats)"], total
    print(f"round trip: {len(manifest['kernels'])} kernels, {configs} configs, all listed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
