"""STAND-IN for a user's program built with -DENERGY_TIME_LAUNCHES, for the tests of
energy.tune --program: it launches nothing, but writes the launch timer's file as
energy.cuh's timer would (include/energy/energy.cuh, energy::detail::launch_timer), with
made-up times for the configuration standin_build.py recorded in FOLDER/app.config.

    standin_program.py FOLDER

Made-up time per launch: a minimum at block 128, ITEMS=4 (the stand-in report predicts
256 and ITEMS=1); the first launch is 5x slower (what warm-up drops). Environment
(';'-separated forced values): STANDIN_CRASH exits 3; STANDIN_SKIP launches no 'scale';
STANDIN_LAUNCH_ERROR writes a launch error; STANDIN_NOISY makes the first run's last
quarter 50% slower; STANDIN_NO_TIMER writes no timing at all (a build without the timer).
STANDIN_LAUNCHES (default 9) launches; STANDIN_NVML the timer's NVML line (default
"unavailable: libnvidia-ml.so.1 not found"); STANDIN_JOULES, when set, each launch's
energy. Each run is logged in FOLDER/log.
"""

import os
import sys


def listed(name, config):
    return config in os.environ.get(name, "").split(";")


def main():
    folder = sys.argv[1]
    with open(os.path.join(folder, "app.config")) as f:
        config = f.read().strip()
    # Also the options themselves (a build command that echoes {force_config} there).
    config = config.split("--energy-force-config=")[-1].split()[0]
    path = os.environ["ENERGY_TIME_FILE"]
    log_path = os.path.join(folder, "log")
    first_run = not os.path.exists(log_path) or not any(
        line == f"run {config}\n" for line in open(log_path))
    with open(os.path.join(folder, "log"), "a") as log:
        log.write(f"run {config}\n")
    if listed("STANDIN_CRASH", config):
        print("Segmentation fault (stand-in)", file=sys.stderr)
        return 3
    if listed("STANDIN_NO_TIMER", config):
        return 0
    block = int(config.split(":")[1].split("x")[0])
    items = int(config.split("ITEMS=")[1]) if "ITEMS=" in config else 4
    seconds = 1e-3 * (1 + abs(block.bit_length() - 8) * 0.3) * (1 + 0.2 * abs(
        items.bit_length() - 3))
    launches = int(os.environ.get("STANDIN_LAUNCHES", "9"))
    nvml = os.environ.get("STANDIN_NVML", "unavailable: libnvidia-ml.so.1 not found")
    joules = os.environ.get("STANDIN_JOULES", "-")
    with open(path, "a") as f:
        f.write(f"# energy-time-v1\tnvml\t{nvml}\n")
        if listed("STANDIN_SKIP", config):
            return 0
        if listed("STANDIN_LAUNCH_ERROR", config):
            f.write("scale\terror\tcudaErrorInvalidConfiguration\n")
            return 0
        for launch in range(launches):
            t = seconds * (5 if launch == 0 else 1)
            if first_run and listed("STANDIN_NOISY", config) and launch >= launches * 3 // 4:
                t *= 1.5
            f.write(f"scale\t{t:.9g}\t{joules}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
