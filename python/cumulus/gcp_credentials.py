"""``credentials="local"`` on Compute Engine: the user's own Google credentials, as a short-lived
OAuth2 access token, on the cluster.

The token comes from google-auth's application default credentials where that package is installed
(a key in ``GOOGLE_APPLICATION_CREDENTIALS``, ``gcloud auth application-default login``, a metadata
server), else from the Google Cloud SDK (``gcloud config config-helper``, which honours the
``CLOUDSDK_*`` settings and says when the token expires). It reaches the cluster as Coiled's client
sends it, ``coiled_update_env_vars(env={"CLOUDSDK_AUTH_ACCESS_TOKEN": token})``, so gcloud and
``cumulus.credentials.google.CumulusShippedCredentials`` (gcsfs's ``token=``) on the workers use it.
The user's key or refresh token never leaves this machine.
"""

from __future__ import annotations

import datetime
import json
import logging
import shutil
import subprocess

# Backends whose clusters are sent Google's token rather than AWS's credentials (cluster_credentials,
# run_reuse).
GOOGLE_BACKENDS = ("vm_gcp",)

logger = logging.getLogger("cumulus")

SCOPES = ["https://www.googleapis.com/auth/cloud-platform"]
# The variable the token is set in on the cluster (what gcloud reads), and when it expires.
TOKEN_VARIABLE = "CLOUDSDK_AUTH_ACCESS_TOKEN"
EXPIRY_VARIABLE = "GOOGLE_ACCESS_TOKEN_EXPIRY"
# A token of unknown expiry (one given to gcloud in CLOUDSDK_AUTH_ACCESS_TOKEN) is read again this often.
REREAD_SECONDS = 300.0
# The shortest wait before a refresh, however soon the token expires.
MIN_REFRESH_SECONDS = 30.0
# gcloud is asked for a token that lasts at least this long (it refreshes one that would not).
MIN_LIFE_SECONDS = 1200
GCLOUD_TIMEOUT = 60
# What gcloud says when no account is signed in (nothing to forward, not a failure).
NO_ACCOUNT = "You do not currently have an active account selected"


class CredentialsError(Exception):
    """Google's credentials were found but no token could be had; the message says why."""


def _from_google_auth() -> dict | None:
    try:
        import google.auth
        import google.auth.exceptions
        from google.auth.transport.requests import Request
    except ImportError:
        return None
    try:
        credentials, _ = google.auth.default(scopes=SCOPES)
    except google.auth.exceptions.DefaultCredentialsError:
        return None
    try:
        credentials.refresh(Request())
    except Exception as err:
        raise CredentialsError(f"google-auth could not refresh your application default credentials: {err}") from None
    expiry = credentials.expiry.replace(tzinfo=datetime.timezone.utc) if credentials.expiry else None
    return {"token": credentials.token, "expiry": expiry, "source": "google-auth"}


def _from_gcloud() -> dict | None:
    gcloud = shutil.which("gcloud")
    if gcloud is None:
        return None
    try:
        done = subprocess.run(
            [gcloud, "config", "config-helper", "--format=json", f"--min-expiry={MIN_LIFE_SECONDS}s"],
            capture_output=True, text=True, timeout=GCLOUD_TIMEOUT, stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired) as err:
        raise CredentialsError(f"gcloud config config-helper failed: {err}") from None
    if done.returncode != 0:
        if NO_ACCOUNT in done.stderr:
            # No account signed in to gcloud: nothing to forward (said at debug level only).
            logger.debug("gcloud has no credentials")
            return None
        # Signed in, but no token could be had (Google refused or is away): its first line says why.
        why = next((line for line in done.stderr.splitlines() if line.strip()), "no reason given")
        raise CredentialsError(f"gcloud could not give an access token: {why.strip()[:300]}")
    try:
        credential = json.loads(done.stdout).get("credential") or {}
    except ValueError:
        raise CredentialsError("gcloud config config-helper answered something other than JSON") from None
    if not credential.get("access_token"):
        return None
    expiry = credential.get("token_expiry")
    return {
        "token": credential["access_token"],
        "expiry": datetime.datetime.strptime(expiry, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)
        if expiry else None,
        "source": "gcloud",
    }


def token_to_forward() -> dict | None:
    """``{token, expiry, source}`` of this machine's Google credentials, or None when it has none."""
    return _from_google_auth() or _from_gcloud()


def environ_of(found: dict) -> dict[str, str | None]:
    """What ``coiled_update_env_vars`` is sent: the token, and its expiry (epoch seconds) when known."""
    expiry = found.get("expiry")
    return {TOKEN_VARIABLE: found["token"], EXPIRY_VARIABLE: str(int(expiry.timestamp())) if expiry else None}


def refresh_delay(found: dict, now: datetime.datetime | None = None) -> float:
    """Seconds until the token should be replaced: at 3/4 of what is left of its life."""
    expiry = found.get("expiry")
    if expiry is None:
        return REREAD_SECONDS
    now = now or datetime.datetime.now(datetime.timezone.utc)
    return max(MIN_REFRESH_SECONDS, (expiry - now).total_seconds() * 0.75)
