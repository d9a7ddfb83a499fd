"""Terminal sign-in (contract 1.1): a pending token the user approves in the console.

The token is minted before anyone is signed in and authenticates nothing until a signed-in user
activates it, so the terminal never sees a password.
"""

from __future__ import annotations

import getpass
import os
import socket
import sys
import time
import webbrowser

from cumulus import config
from cumulus.account import choose_workspace, fetch_identity
from cumulus.http import IDENTITY, Api, CumulusError

POLL_SECONDS = 1.0
POLL_TRIES = 600  # the server keeps a pending token for 10 minutes


def login(
    server: str | None = None,
    workspace: str | None = None,
    token: str | None = None,
    open_browser: bool = True,
    out=print,
    retry: bool = False,
) -> config.Settings:
    """``retry`` (Coiled's ``--retry``): a ``token`` the server refuses is replaced by one approved in
    the browser, when someone is at a terminal to approve it; otherwise the refusal is the answer."""
    server = config.load(server=server).server
    if token is None:
        token = request_approval(server, open_browser, out)
    api = Api(server, token)
    try:
        identity = fetch_identity(api)
    except CumulusError as err:
        if not (retry and err.status in (401, 403) and sys.stdin.isatty()):
            raise
        out(f"The server refused that token ({err}). Approve a new one instead.")
        token = request_approval(server, open_browser, out)
        api = Api(server, token)
        identity = fetch_identity(api)
    chosen = choose_workspace(identity, workspace)
    usage = api.request("GET", f"/api/v2/user/account/{chosen}/usage", retry=IDENTITY)
    if not (isinstance(usage, dict) and usage.get("has_quota")):
        out(f"Warning: workspace {chosen} has reached its quota; clusters may not start.")
    path = config.save_login(identity.username, token, server, chosen if workspace else None)
    out(f"Signed in to {server} as {identity.username} (workspace {chosen}).")
    out(f"Saved to {path}")
    return config.load()


def request_approval(server: str, open_browser: bool, out) -> str:
    label = f"{getpass.getuser()}@{socket.gethostname()}"[:100]
    pending = Api(server).request("POST", "/api/v1/api-tokens-no-user/", form={"label": label}, auth=False)
    identifier, token = pending["identifier"], pending["token"]
    link = f"{server}/activate-token?id={identifier}"
    out("To sign in, open this page and approve the request:")
    out(f"\n    {link}\n")
    user_code = pending.get("user_code")
    if user_code:
        # Device flow: typing the code proves the browser that approves belongs to whoever is here.
        out(f"When the page asks, type this code: {user_code}")
    else:  # a server from before user codes
        out(f"The page should show the code {identifier}.")
    if open_browser:
        open_in_browser(link)
    out("Waiting for approval (Ctrl+C to cancel)...")
    sys.stdout.flush()

    api = Api(server, token)
    for _ in range(POLL_TRIES):
        try:
            api.request("GET", "/api/v2/user/me", retry=IDENTITY)
            return token
        except CumulusError as err:
            if err.status not in (401, 403):
                raise
        time.sleep(POLL_SECONDS)
    raise CumulusError("The sign-in request was not approved within 10 minutes; run `cumulus login` again.")


def open_in_browser(link: str) -> bool:
    """Opens ``link`` in a browser where one is at hand; answers whether it did."""
    return _has_browser() and webbrowser.open(link)


def _has_browser() -> bool:
    """Without a display, webbrowser falls back to text browsers that would take over the terminal."""
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or os.environ.get("BROWSER"))
    return True


def logout(out=print) -> None:
    """Revokes the saved token on its server (best effort) and forgets it locally."""
    saved = config.saved_login()
    token = saved.get("token")
    if token:
        server = config.normalize_server(saved.get("server") or config.DEFAULT_SERVER)
        try:
            identifier = token.split("-", 1)[0]
            Api(server, token).request("DELETE", f"/api/v1/api-tokens/{identifier}/revoke")
            out(f"Revoked the token on {server}.")
        except CumulusError as err:
            out(f"Could not revoke the token on {server} ({err}); forgetting it locally.")
    if config.forget_login():
        out(f"Signed out: removed the token from {config.config_file()}.")
    else:
        out("No saved login to remove.")
    if os.environ.get("CUMULUS_API_TOKEN"):
        out("CUMULUS_API_TOKEN is still set in this environment and will keep being used.")
