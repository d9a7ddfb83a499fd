"""Google credentials for code on the cluster: the access token the client forwarded
(``credentials="local"`` on Compute Engine), as google-auth credentials, for libraries that take
them (``gcsfs.GCSFileSystem(token=CumulusShippedCredentials())``, google-cloud-storage's
``Client(credentials=...)``). Each refresh reads the newest token the client forwarded. Needs
google-auth, which the cluster's software environment has where the user's code uses Google's
libraries. ``CoiledShippedCredentials`` is the same, by Coiled's name.
"""

from __future__ import annotations

import datetime
import os

from cumulus.gcp_credentials import EXPIRY_VARIABLE, TOKEN_VARIABLE

try:
    from google.oauth2.credentials import Credentials
except ImportError:  # the module imports without it; the credentials are refused when made

    class Credentials:  # type: ignore[no-redef]
        def __init__(self, *args: object, **kwargs: object) -> None:
            raise ImportError("CumulusShippedCredentials needs google-auth (pip install google-auth).")


def shipped_token() -> tuple[str, datetime.datetime | None]:
    """The token forwarded to this process, and its expiry (naive UTC, as google-auth keeps it)."""
    token = os.environ.get(TOKEN_VARIABLE)
    if not token:
        from google.auth.exceptions import RefreshError

        raise RefreshError(
            f"No Google access token on this machine ({TOKEN_VARIABLE} is not set): create the cluster with "
            'credentials="local" from a machine signed in to Google Cloud (gcloud auth login, or '
            "application default credentials)."
        )
    expiry = os.environ.get(EXPIRY_VARIABLE)
    when = (datetime.datetime.fromtimestamp(int(expiry), datetime.timezone.utc).replace(tzinfo=None)
            if expiry and expiry.isdigit() else None)
    return token, when


class CumulusShippedCredentials(Credentials):
    """google-auth credentials of the token the client forwarded; refreshed from the newest one."""

    def __init__(self, token: str | None = None, **_ignored: object) -> None:
        shipped, expiry = shipped_token()
        if token and token != shipped:
            raise ValueError(f"The token given is not the one forwarded to this machine in {TOKEN_VARIABLE}; "
                             "leave it out to use the forwarded one.")
        super().__init__(token=shipped, expiry=expiry, refresh_handler=self._refresh_handler)

    @staticmethod
    def _refresh_handler(request: object, scopes: object) -> tuple[str, datetime.datetime]:
        token, expiry = shipped_token()
        # google-auth needs an expiry from a refresh handler: a token of unknown life is read again in 5 minutes.
        return token, expiry or datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None) + datetime.timedelta(minutes=5)


CoiledShippedCredentials = CumulusShippedCredentials
