# From Coiled's "API Tokens" page (https://docs.coiled.io/user_guide/setup/tokens.html): `coiled login
# --token <your-token>` saves the token in your home; then the `coiled config set account foo` of
# Coiled's CLI reference (`coiled config set --help`) names the default workspace, and `coiled env list`
# and `coiled diagnostics` run with what was saved. `coiled` is `cumulus` here.
set -e
coiled() { "${PYTHON:-python3}" -m cumulus "$@"; }
token="$CUMULUS_API_TOKEN"
unset CUMULUS_API_TOKEN
export HOME="$(mktemp -d)"   # a home of its own: nothing saved yet
coiled login --token "$token"
grep -q "token: $token" "$HOME/.config/dask/cumulus.yaml"
coiled config set account "$DOCS_WORKSPACE"
coiled env list
coiled diagnostics | grep "\"workspace\": \"$DOCS_WORKSPACE\""
echo ok
