#!/bin/sh
# Stands in for clang++: says what it was asked on both streams, then fails
# with exit code 3 (test/Tools/compat-flags-agree.test, cuda-compile-error.test).
echo "fake-clang: $*"
echo "fake-clang: no compile here" >&2
exit 3
