"""Prints the PTX of the first gpu.object in an MLIR file that
gpu-module-to-binary{format=isa} wrote (the string after `assembly = `,
with MLIR's \\HH escapes decoded), for FileCheck; with --ptxas ARCH it also
assembles that PTX with ptxas (from PATH, else $CUDA_PATH or /usr/local/cuda)
and fails when ptxas does.

    mlir-opt ... | ptx_of.py [--ptxas sm_90]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

text = sys.stdin.read()
match = re.search(r'assembly = "((?:[^"\\]|\\.)*)"', text)
if not match:
    sys.exit("ptx_of.py: no gpu.object with an assembly string in the input")
ptx = re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)),
             match.group(1)).rstrip("\0")
sys.stdout.write(ptx)

if len(sys.argv) == 3 and sys.argv[1] == "--ptxas":
    ptxas = shutil.which("ptxas") or os.path.join(
        os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin", "ptxas")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "kernels.ptx")
        with open(path, "w") as f:
            f.write(ptx)
        result = subprocess.run([ptxas, "-arch=" + sys.argv[2], path,
                                 "-o", os.path.join(tmp, "kernels.cubin")],
                                capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("ptxas failed:\n" + result.stderr)
