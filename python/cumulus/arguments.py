"""Checks of what a caller passes, made before any call to the server.

Each error names the caller's own parameter and value (``Cluster(n_workers=-1)``), never a field
of the wire format, and is one ``ArgumentError`` (a ``ValueError``) with nothing chained to it.
"""

from __future__ import annotations

import numbers
import re
from typing import Any


from cumulus.http import ArgumentError, CumulusError


def _refuse(call: str, name: str, value: Any, requirement: str) -> ArgumentError:
    return ArgumentError(f"{call}({name}={value!r}): {name} must be {requirement}.")


def whole_number(call: str, name: str, value: Any, minimum: int = 0) -> int:
    whole = isinstance(value, numbers.Integral) or (isinstance(value, numbers.Real) and float(value).is_integer())
    if isinstance(value, bool) or not whole or value < minimum:
        raise _refuse(call, name, value, f"a whole number, {minimum} or more")
    return int(value)


def optional_text(call: str, name: str, value: Any) -> str | None:
    if value is not None and (not isinstance(value, str) or not value.strip()):
        raise _refuse(call, name, value, "a non-empty string, or None")
    return value


#: The server's rule for cluster names (what Dask and worker names build on).
CLUSTER_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")


def cluster_name(call: str, value: str) -> str:
    if not CLUSTER_NAME.match(value):
        raise _refuse(
            call, "name", value, 'letters, digits, ".", "_" and "-", starting with a letter or digit, at most 100 of them'
        )
    return value


def optional_mapping(call: str, name: str, value: Any) -> dict | None:
    if value is not None and not isinstance(value, dict):
        raise _refuse(call, name, value, "a dict, or None")
    return value


def flag(call: str, name: str, value: Any, optional: bool = False) -> bool | None:
    if not isinstance(value, bool) and not (optional and value is None):
        raise _refuse(call, name, value, "True or False" + (", or None" if optional else ""))
    return value


def one_of(call: str, name: str, value: Any, allowed: tuple) -> Any:
    if value not in allowed:
        raise _refuse(call, name, value, "one of " + ", ".join(repr(a) for a in allowed))
    return value


def optional_duration(call: str, name: str, value: Any) -> Any:
    """A duration as Dask writes them ("20 minutes", "1h", 90) or None."""
    if value is None:
        return value
    from dask.utils import parse_timedelta  # here: the CLI's commands start without Dask

    try:
        seconds = parse_timedelta(value)
    except (TypeError, ValueError, KeyError):
        seconds = None
    if isinstance(value, bool) or seconds is None or seconds < 0:
        raise _refuse(call, name, value, 'a duration such as "20 minutes", "1h" or a number of seconds')
    return value


def workers_to_wait_for(call: str, value: Any) -> Any:
    """``wait_for_workers``: a count, a fraction of n_workers between 0 and 1, a bool, or None."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, numbers.Integral) and value >= 0:
        return value
    if isinstance(value, numbers.Real) and 0 <= value <= 1:
        return value
    raise _refuse(
        call, "wait_for_workers", value, "a number of workers, a fraction of n_workers between 0 and 1, True, False or None"
    )


#: The create call's fields (contract 2.2) by the ``Cluster`` parameter they come from.
CLUSTER_FIELDS = {
    "workers": "n_workers",
    "name": "name",
    "tags": "tags",
    "environ": "environ",
    "worker_options": "worker_options",
    "scheduler_options.idle_timeout": "idle_timeout",
    "scheduler_options": "scheduler_options",
    "env_name": "software",
    "env_id": "package_sync",
    # Hardware (hardware.py): the first of these the caller gave is named.
    "worker_instance_types": ("worker_vm_types", "worker_cpu", "worker_memory", "arm", "worker_gpu"),
    "scheduler_instance_types": ("scheduler_vm_types", "scheduler_cpu", "scheduler_memory", "arm"),
    "worker_options.nthreads": ("worker_cpu", "worker_options"),
    "worker_options.memory_limit": ("worker_memory", "worker_options"),
    "scheduler_options.cpu": "scheduler_cpu",
    "scheduler_options.memory": "scheduler_memory",
    "cluster_timeout_seconds": "cluster_timeout",
    "options.region_name": "region",
    # Firewall (firewall.py): the first of these the caller gave is named.
    "options.firewall_spec": ("allow_ingress_from", "allow_ssh_from", "allow_ssh", "allow_spark", "open_extra_ports"),
    "scheduler_options.port": "scheduler_port",
    "options.worker_accelerator_type": "worker_gpu_type",
    "options": ("spot_policy", "region", "worker_gpu"),
}


def refused_by_server(err: CumulusError, given: dict) -> CumulusError:
    """A 400 on the create call, its fields renamed to the ``Cluster`` parameters they came from."""
    if err.status != 400 or not isinstance(err.body, dict):
        return err
    named = []
    for field, messages in err.body.items():
        param = CLUSTER_FIELDS.get(field) or CLUSTER_FIELDS.get(field.split(".", 1)[0])
        if param is None:
            continue
        if isinstance(param, tuple):
            param = next((p for p in param if given.get(p) is not None), param[0])
        text = " ".join(str(m) for m in messages) if isinstance(messages, list) else str(messages)
        shown = f"{param}={given[param]!r}" if param in given else param
        named.append(f"Cluster({shown}): {text}")
    if not named:
        return err
    return ArgumentError("The server refused " + "; ".join(named), err.status, err.body)


# ``Cluster(scheduler_cpu=99)`` or ``cumulus.run(cpu=99)``: a parameter as an error names it.
_NAMED = re.compile(r"\b(Cluster|cumulus\.run)\((\w+)=((?:[^()]|\([^()]*\))*)\)")


def reworded(err: ArgumentError, words: dict) -> ArgumentError:
    """``err`` with each parameter it names written as the caller wrote it: ``words`` maps a
    parameter (``scheduler_cpu``) to its words (``--cpu 99``, or ``cumulus.run(cpu=99)``)."""
    text = _NAMED.sub(lambda m: words.get(m.group(2), m.group(0)), str(err))
    return ArgumentError(text, err.status, err.body)
