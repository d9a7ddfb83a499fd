# From Coiled's "Batch Jobs" page (https://docs.coiled.io/user_guide/batch.html): a script with
# `# COILED` comments run with `coiled batch run`, then `coiled batch wait` and `coiled batch logs`
# with the job's cluster. `coiled` is `cumulus` here.
set -e
coiled() { "${PYTHON:-python3}" -m cumulus "$@"; }
cd "$(mktemp -d)"
cat > my_script.py <<'PY'
# COILED n-tasks     3

import os

print(f"Hello from {os.environ['COILED_BATCH_TASK_ID']}")
PY
coiled batch run --name docs-batch my_script.py
coiled batch wait docs-batch
coiled batch logs docs-batch | grep "Hello from 2"
echo ok
