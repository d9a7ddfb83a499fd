"""A cluster's own firewall: the established client's arguments, turned into ``firewall_spec``.

``allow_ingress_from`` (``"me"``, the default: this machine's address as the server sees it;
``"everyone"``; or a CIDR) is where the scheduler's port opens from; ``allow_ssh`` adds port 22 (to
``allow_ssh_from`` when given, else to the same source), ``allow_spark`` 15003, ``open_extra_ports``
any others; ``scheduler_port`` moves the scheduler. The create call carries them as
``options.firewall_spec = {"ingress": [{"ports": [...], "cidr": "a.b.c.d/n"}, ...]}``
(client-contract.md 2.2).

Where the contract's ports differ from what Cumulus's machines serve: the scheduler listens on the
backend's port (8786 on vm_aws, ``backend_options`` ``scheduler_port``), not 443; the dashboard is
reached through the control plane's authenticated proxy (from the workspace's network), so neither
8787 nor 443 is opened to users.

A backend without firewalls of its own (the local one) gets no default firewall: only one asked
for explicitly is sent, and the server refuses it saying why.
"""

from __future__ import annotations

import ipaddress
import numbers
from dataclasses import dataclass, field
from urllib.parse import quote

from cumulus.http import IDEMPOTENT, Api, ArgumentError, CumulusError

PARAMS = ("allow_ingress_from", "allow_ssh", "allow_ssh_from", "allow_spark", "scheduler_port", "open_extra_ports")
SSH_PORT = 22
SPARK_PORT = 15003
# The vm_aws scheduler's port, for a server that does not say its own.
DEFAULT_SCHEDULER_PORT = 8786
EVERYONE = "0.0.0.0/0"


@dataclass
class Firewall:
    allow_ingress_from: str = "me"
    allow_ssh: bool = False
    allow_ssh_from: str | None = None
    allow_spark: bool = False
    scheduler_port: int | None = None
    open_extra_ports: list = field(default_factory=list)
    # Whether the caller asked for a firewall (else the defaults stand, and only where firewalls exist).
    asked: bool = False

    def sources(self) -> set:
        return {self.allow_ingress_from, *([self.allow_ssh_from] if self.allow_ssh_from else [])}


def _port(call: str, name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not 1 <= value <= 65535:
        raise ArgumentError(f"{call}({name}={value!r}): {name} must be a port number from 1 to 65535.")
    return int(value)


def _source(call: str, name: str, value) -> str:
    """``me``, ``everyone`` or an IPv4 CIDR (a bare address is its /32), normalised."""
    if not isinstance(value, str) or not value.strip():
        raise ArgumentError(f'{call}({name}={value!r}): {name} must be "me", "everyone" or a CIDR like 203.0.113.0/24.')
    value = value.strip()
    if value in ("me", "everyone"):
        return value
    try:
        network = ipaddress.ip_network(value, strict=False)
    except ValueError:
        network = None
    if network is None or network.version != 4:
        raise ArgumentError(
            f'{call}({name}={value!r}): {name} must be "me", "everyone" or an IPv4 CIDR like 203.0.113.0/24.'
        )
    return str(network)


def check(call: str, given: dict) -> Firewall:
    """The firewall arguments of ``call`` checked (ArgumentError naming the parameter)."""
    fw = Firewall(asked=any(given.get(p) is not None for p in PARAMS if p != "scheduler_port"))
    if given.get("allow_ingress_from") is not None:
        fw.allow_ingress_from = _source(call, "allow_ingress_from", given["allow_ingress_from"])
    for flag in ("allow_ssh", "allow_spark"):
        value = given.get(flag)
        if value is not None and not isinstance(value, bool):
            raise ArgumentError(f"{call}({flag}={value!r}): {flag} must be True or False.")
        setattr(fw, flag, bool(value))
    if fw.allow_spark:
        # Port 15003 would open onto nothing: no Spark Connect server runs on a Cumulus cluster.
        raise ArgumentError(
            f"{call}(allow_spark=True): Cumulus clusters run Dask only, with no Spark Connect server behind port "
            f"{SPARK_PORT}; allow_spark is not supported (open_extra_ports opens a port for a server of your own)."
        )
    if given.get("allow_ssh_from") is not None:
        fw.allow_ssh_from = _source(call, "allow_ssh_from", given["allow_ssh_from"])
        if given.get("allow_ssh") is False:
            raise ArgumentError(f"{call}(): allow_ssh=False and allow_ssh_from both given; SSH is either open or not.")
        fw.allow_ssh = True
    if given.get("scheduler_port") is not None:
        fw.scheduler_port = _port(call, "scheduler_port", given["scheduler_port"])
    extra = given.get("open_extra_ports")
    if extra is not None:
        if isinstance(extra, (str, bytes)) or not hasattr(extra, "__iter__"):
            extra = [extra]
        fw.open_extra_ports = [_port(call, "open_extra_ports", p) for p in extra]
    return fw


def backend_ports(api: Api, ws: str) -> tuple:
    """(whether the workspace's clusters have firewalls of their own, the scheduler's port there)."""
    answer = api.request("GET", f"/api/v1/{quote(ws, safe='')}/backend_options/", retry=IDEMPOTENT)
    capabilities = answer.get("capabilities") or {}
    port = (answer.get("options") or {}).get("scheduler_port")
    return bool(capabilities.get("firewall")), int(port) if isinstance(port, int) else DEFAULT_SCHEDULER_PORT


def my_address(api: Api) -> str:
    """This machine's address as the server sees it (``GET /api/v2/user/source-ip``), as a /32."""
    ip = str(api.request("GET", "/api/v2/user/source-ip", retry=IDEMPOTENT).get("ip") or "")
    ip = ip[len("::ffff:"):] if ip.startswith("::ffff:") else ip
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        address = None
    if address is None or address.version != 4:
        raise CumulusError(
            f'allow_ingress_from="me": the server sees this machine at {ip or "no address"}, not an IPv4 '
            'address; give allow_ingress_from a CIDR (or "everyone").'
        )
    return f"{address}/32"


def spec_for(fw: Firewall, scheduler_port: int, me: str | None) -> dict:
    """``firewall_spec`` for ``fw``: one rule per source, each with the ports open to it."""
    cidr = {"me": me, "everyone": EVERYONE}

    def resolve(source: str) -> str:
        return cidr.get(source) or source

    ports = [fw.scheduler_port or scheduler_port]
    if fw.allow_ssh and not fw.allow_ssh_from:
        ports.append(SSH_PORT)
    if fw.allow_spark:
        ports.append(SPARK_PORT)
    ports += fw.open_extra_ports
    rules = [{"ports": sorted(set(ports)), "cidr": resolve(fw.allow_ingress_from)}]
    if fw.allow_ssh_from:
        ssh_from = resolve(fw.allow_ssh_from)
        same = next((r for r in rules if r["cidr"] == ssh_from), None)
        if same:
            same["ports"] = sorted({*same["ports"], SSH_PORT})
        else:
            rules.append({"ports": [SSH_PORT], "cidr": ssh_from})
    return {"ingress": rules}


def fields_for(api: Api, ws: str, fw: Firewall) -> dict:
    """The create call's additions for ``fw``: backend ``options.firewall_spec`` (where firewalls
    exist, or where one was asked: the server then says why not) and ``scheduler_options.port``."""
    out: dict = {"options": {}, "scheduler_options": {}}
    if fw.scheduler_port:
        out["scheduler_options"]["port"] = fw.scheduler_port
    has_firewalls, scheduler_port = backend_ports(api, ws)
    if not has_firewalls and not fw.asked:
        return out
    me = my_address(api) if "me" in fw.sources() else None
    out["options"]["firewall_spec"] = spec_for(fw, scheduler_port, me)
    return out
