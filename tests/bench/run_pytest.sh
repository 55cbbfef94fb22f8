#!/bin/sh
# bench.stats: the benchmark's pure parts under pytest; 77 (skipped) without pytest.
python=${1:?usage: run_pytest.sh PYTHON}
"$python" -c 'import pytest' 2>/dev/null || { echo "no pytest for $python: skipped"; exit 77; }
exec "$python" -m pytest -q -p no:cacheprovider "$(dirname "$0")"
