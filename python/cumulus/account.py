"""Who the token belongs to and which workspace a call acts in (contract 1.2)."""

from __future__ import annotations

from dataclasses import dataclass, field

from cumulus.http import IDENTITY, Api, PermissionsError


@dataclass
class Identity:
    username: str
    default_slug: str | None
    memberships: list = field(default_factory=list)

    @property
    def slugs(self) -> list:
        return [m["account"]["slug"] for m in self.memberships]


def fetch_identity(api: Api) -> Identity:
    me = api.request("GET", "/api/v2/user/me", retry=IDENTITY)
    if not isinstance(me, dict) or not me.get("username"):
        raise PermissionsError("The server did not say who this token belongs to.")
    memberships = api.request("GET", "/api/v2/user/me/memberships", retry=IDENTITY)
    if not isinstance(memberships, list):
        memberships = []
    memberships = [m for m in memberships if isinstance(m, dict) and isinstance(m.get("account"), dict)]
    default = me.get("default_account") or {}
    return Identity(me["username"], default.get("slug"), memberships)


def choose_workspace(identity: Identity, wanted: str | None) -> str:
    """The named workspace (by slug or name), else the user's default one."""
    ms = identity.memberships
    if wanted:
        for m in ms:
            if wanted in (m["account"].get("slug"), m["account"].get("name")):
                return m["account"]["slug"]
        known = ", ".join(identity.slugs) or "none"
        raise PermissionsError(f"You are not a member of workspace {wanted!r} (your workspaces: {known}).")
    for choose in (
        lambda m: m.get("is_default_account"),
        lambda m: len(ms) == 1,
        lambda m: m["account"].get("slug") == identity.username,
        lambda m: m["account"].get("slug") == identity.default_slug,
    ):
        for m in ms:
            if choose(m):
                return m["account"]["slug"]
    raise PermissionsError(f"{identity.username} is not a member of any workspace.")
