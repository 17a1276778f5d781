# operation: python -m venv in the project and run its interpreter
# requires: python3
# timeout: 90
# want: venv-ok
set -e
python3 -m venv --without-pip .venv && .venv/bin/python -c 'import sys; print("venv-ok", sys.prefix)'
