"""Hardware choice: the established client's arguments, turned into the create call's fields.

``worker_vm_types``/``scheduler_vm_types`` name instance types; ``worker_cpu``/``worker_memory``
(and the scheduler's) ask for a size (a number or a ``[min, max]`` range; memory as ``"16 GiB"``);
``worker_gpu`` (with ``worker_gpu_type``: T4s unless another GPU is named), ``arm``, ``spot_policy`` and
``region`` as the established client means them
(client-contract.md 2.1 and 2.2). Where the workspace's clusters run decides what they become:

- a cloud backend (``vm_aws``...): instance types, the cheapest of the catalogue that match
  (``GET /api/v1/vm-types/`` answers them cheapest first), and backend ``options``;
- the local backend (``in_process``): a worker's threads (``nthreads``) and memory limit; the
  server refuses what this machine does not have, and every instance type but ``local``;
- backends on the workspace's own machines (``ssh`` hosts, ``slurm``): threads and memory limit as
  locally, GPUs by count alone (``options.worker_accelerator_count``: placed on a host's devices, or
  Slurm's ``gpu`` GRES), and ``worker_vm_types`` as given (SSH host labels).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, fields
from urllib.parse import quote


from cumulus.http import IDEMPOTENT, Api, ArgumentError

PARAMS = ("worker_vm_types", "scheduler_vm_types", "worker_cpu", "worker_memory", "scheduler_cpu",
          "scheduler_memory", "worker_gpu", "worker_gpu_type", "arm", "spot_policy", "region")
# The GPU a cloud worker gets when only a count is asked (Coiled's default too).
DEFAULT_GPU_TYPE = "nvidia-tesla-t4"
SPOT_POLICIES = {
    "on-demand": {"spot": False},
    "spot": {"spot": True, "spot_on_demand_fallback": False},
    "spot_with_fallback": {"spot": True, "spot_on_demand_fallback": True},
}
# The established client's defaults where no type or size is asked.
DEFAULT_TYPES = {
    ("vm_aws", False, False): ["m6i.xlarge", "m5.xlarge"],
    ("vm_aws", True, False): ["m7g.xlarge", "m6g.xlarge"],
    ("vm_aws", False, True): ["g4dn.xlarge"],
    ("vm_gcp", False, False): ["e2-standard-4"],
    ("vm_gcp", True, False): ["t2a-standard-4"],
    ("vm_gcp", False, True): ["n1-standard-4"],
    ("vm_azure", False, False): ["Standard_D4_v5"],
}
LOCAL_BACKEND = "in_process"
# Backends that size each instance by its threads and memory and place GPUs by count, on machines
# of the workspace's own (no catalogue of instance types).
SIZED_BACKENDS = (LOCAL_BACKEND, "ssh", "slurm")


@dataclass
class Hardware:
    worker_vm_types: list | None = None
    scheduler_vm_types: list | None = None
    worker_cpu: tuple | None = None
    worker_memory: tuple | None = None
    scheduler_cpu: tuple | None = None
    scheduler_memory: tuple | None = None
    worker_gpu: int | None = None
    worker_gpu_type: str | None = None
    arm: bool | None = None
    spot_policy: str | None = None
    region: str | None = None

    def asked(self) -> bool:
        return any(getattr(self, f.name) is not None for f in fields(self))


def _refuse(call: str, name: str, value, requirement: str) -> ArgumentError:
    return ArgumentError(f"{call}({name}={value!r}): {name} must be {requirement}.")


def _types(call: str, name: str, value) -> list | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not value or not all(isinstance(t, str) and t.strip() for t in value):
        raise _refuse(call, name, value, "an instance type name or a list of them")
    return [t.strip() for t in value]


def _range(call: str, name: str, value, one) -> tuple | None:
    """A value or a ``[min, max]`` range (either end may be None) as ``(min, max)``."""
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        if len(value) != 2 or all(v is None for v in value):
            raise _refuse(call, name, value, "a value or a [min, max] range")
        low, high = (None if v is None else one(v) for v in value)
        if low is not None and high is not None and low > high:
            raise _refuse(call, name, value, "a range whose minimum is not above its maximum")
        return low, high
    v = one(value)
    return v, v


def _cpu(call: str, name: str):
    def one(v):
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 1:
            raise _refuse(call, name, v, "a whole number of cores, 1 or more (or a [min, max] range)")
        return int(v)

    return one


def _memory(call: str, name: str):
    def one(v):
        from dask.utils import parse_bytes  # here: the CLI's commands start without Dask

        try:
            n = parse_bytes(v) if isinstance(v, str) else None
        except (ValueError, TypeError):
            n = None
        if not n or n <= 0:
            raise _refuse(call, name, v, 'a size such as "16 GiB" (or a [min, max] range of them)')
        return int(n)

    return one


def check(call: str, given: dict) -> Hardware:
    """The hardware arguments of ``call`` checked (ArgumentError naming the parameter), as a Hardware."""
    hw = Hardware(
        worker_vm_types=_types(call, "worker_vm_types", given.get("worker_vm_types")),
        scheduler_vm_types=_types(call, "scheduler_vm_types", given.get("scheduler_vm_types")),
        worker_cpu=_range(call, "worker_cpu", given.get("worker_cpu"), _cpu(call, "worker_cpu")),
        worker_memory=_range(call, "worker_memory", given.get("worker_memory"), _memory(call, "worker_memory")),
        scheduler_cpu=_range(call, "scheduler_cpu", given.get("scheduler_cpu"), _cpu(call, "scheduler_cpu")),
        scheduler_memory=_range(call, "scheduler_memory", given.get("scheduler_memory"),
                                _memory(call, "scheduler_memory")),
    )
    gpu = given.get("worker_gpu")
    if gpu is not None:
        if isinstance(gpu, bool):
            gpu = int(gpu)
        if not isinstance(gpu, numbers.Integral) or gpu < 0:
            raise _refuse(call, "worker_gpu", given.get("worker_gpu"), "a number of GPUs (0 or more), True or False")
        hw.worker_gpu = int(gpu) or None
    kind = given.get("worker_gpu_type")
    if kind is not None:
        if not isinstance(kind, str) or not kind.strip():
            raise _refuse(call, "worker_gpu_type", kind, 'a GPU type such as "nvidia-tesla-t4" (list_gpu_types())')
        if not hw.worker_gpu:
            raise ArgumentError(f"{call}(worker_gpu_type={kind!r}): give worker_gpu too (how many GPUs each "
                                "worker has).")
        hw.worker_gpu_type = kind.strip()
    arm = given.get("arm")
    if arm is not None and not isinstance(arm, bool):
        raise _refuse(call, "arm", arm, "True or False")
    hw.arm = arm or None
    policy = given.get("spot_policy")
    if policy is not None and policy not in SPOT_POLICIES:
        raise _refuse(call, "spot_policy", policy, '"on-demand", "spot" or "spot_with_fallback"')
    hw.spot_policy = policy
    region = given.get("region")
    if region is not None and (not isinstance(region, str) or not region.strip()):
        raise _refuse(call, "region", region, "a region name")
    hw.region = region
    for role in ("worker", "scheduler"):
        types = getattr(hw, f"{role}_vm_types")
        sized = [p for p in (f"{role}_cpu", f"{role}_memory") if getattr(hw, p) is not None]
        if types and sized:
            raise ArgumentError(f"{call}(): give {role}_vm_types or {' and '.join(sized)}, not both: "
                                f"the types already fix the {role}'s cores and memory.")
    return hw


def backend_of(api: Api, ws: str) -> str:
    answer = api.request("GET", f"/api/v1/{quote(ws, safe='')}/backend_options/", retry=IDEMPOTENT)
    return str(answer.get("backend") or "")


def cheapest_types(api: Api, backend: str, cpu: tuple | None, memory: tuple | None, gpus: int | None,
                   arm: bool | None) -> list:
    """The catalogue's types of ``backend`` that fit, cheapest first (the server sorts them)."""
    query: dict = {"backend_type": backend, "arch": "arm64" if arm else "x86_64"}
    if cpu:
        query["cores__gte"], query["cores__lte"] = cpu
    if memory:
        low, high = memory
        if low == high:  # one size: at least that much
            high = None
        query["memory__gte"] = None if low is None else -(-low // 2**20)
        query["memory__lte"] = None if high is None else high // 2**20
    if gpus:
        query["gpus__gte"] = gpus
    else:
        query["gpus"] = 0
    names: list = []
    page = 1
    while page:
        answer = api.request("GET", "/api/v1/vm-types/", query={**query, "page": page}, retry=IDEMPOTENT)
        names += [t["name"] for t in answer.get("results") or []]
        page = page + 1 if answer.get("next") else 0
    return names


def _describe(cpu, memory) -> str:
    parts = []
    if cpu:
        parts.append(f"{cpu[0] or 1}–{cpu[1] or '∞'} cores" if cpu[0] != cpu[1] else f"{cpu[0]} cores")
    if memory:
        gib = [None if m is None else round(m / 2**30, 1) for m in memory]
        parts.append(f"{gib[0]} GiB memory" if gib[0] == gib[1] else f"{gib[0] or 0}–{gib[1] or '∞'} GiB memory")
    return " and ".join(parts)


def fields_for(api: Api, ws: str, hw: Hardware, call: str = "Cluster", backend: str | None = None) -> dict:
    """The create call's fields for ``hw`` on the workspace's backend: instance types, the additions
    to ``worker_options`` and ``scheduler_options``, and backend ``options`` (only what was asked)."""
    out: dict = {"worker_options": {}, "scheduler_options": {}, "options": {}}
    if not hw.asked():
        return out
    backend = backend or backend_of(api, ws)
    if hw.spot_policy:
        out["options"].update(SPOT_POLICIES[hw.spot_policy])
    if hw.region:
        out["options"]["region_name"] = hw.region
    if backend in SIZED_BACKENDS:
        if hw.worker_gpu and backend == LOCAL_BACKEND:
            raise ArgumentError(f"{call}(worker_gpu={hw.worker_gpu!r}): the local backend has no GPUs.")
        if hw.worker_gpu:
            # A count, no type: the server refuses a count no host (or Slurm node) has, naming theirs,
            # and a type (these backends place GPUs by count).
            out["options"]["worker_accelerator_count"] = hw.worker_gpu
            if hw.worker_gpu_type:
                out["options"]["worker_accelerator_type"] = hw.worker_gpu_type
        for role in ("worker", "scheduler"):
            types = getattr(hw, f"{role}_vm_types")
            if types:
                out[f"{role}_instance_types"] = types  # locally the server refuses all but `local`
        if hw.worker_cpu:
            out["worker_options"]["nthreads"] = hw.worker_cpu[0] or hw.worker_cpu[1]
        if hw.worker_memory:
            out["worker_options"]["memory_limit"] = hw.worker_memory[0] or hw.worker_memory[1]
        if hw.scheduler_cpu or hw.scheduler_memory:
            # The scheduler is one process (on this machine, locally); `cumulus run` pins its command to these cores.
            if hw.scheduler_cpu:
                out["scheduler_options"]["cpu"] = hw.scheduler_cpu[0] or hw.scheduler_cpu[1]
            if hw.scheduler_memory:
                out["scheduler_options"]["memory"] = hw.scheduler_memory[0] or hw.scheduler_memory[1]
        return out
    if hw.worker_gpu:
        out["options"]["worker_accelerator_count"] = hw.worker_gpu
        out["options"]["worker_accelerator_type"] = hw.worker_gpu_type or DEFAULT_GPU_TYPE
    for role in ("worker", "scheduler"):
        types = getattr(hw, f"{role}_vm_types")
        cpu, memory = getattr(hw, f"{role}_cpu"), getattr(hw, f"{role}_memory")
        gpus = hw.worker_gpu if role == "worker" else None
        if not types and (cpu or memory or (gpus and role == "worker") or hw.arm):
            if cpu or memory:
                types = cheapest_types(api, backend, cpu, memory, gpus, hw.arm)
                if not types:
                    raise ArgumentError(f"{call}(): no {backend} instance type has {_describe(cpu, memory)}"
                                        f"{' on ARM' if hw.arm else ''}{f' with {gpus} GPU(s)' if gpus else ''}.")
            elif gpus and hw.worker_gpu_type:
                # A GPU type asked: the server chooses the cheapest type with it (a G2 for nvidia-l4).
                types = None
            else:
                types = DEFAULT_TYPES.get((backend, bool(hw.arm), bool(gpus)))
                if not types:
                    raise ArgumentError(f"{call}(): {backend} has no default {'ARM ' if hw.arm else ''}"
                                        f"{'GPU ' if gpus else ''}instance type; name one with {role}_vm_types.")
        if types:
            out[f"{role}_instance_types"] = types
    return out


def add_cli_options(parser, what: str) -> None:
    """``--vm-type``, ``--cpu``, ``--memory``, ``--gpu``, ``--arm``, ``--spot-policy``, ``--region``:
    the size of ``what`` (the instance the command or notebook runs on, or each worker)."""
    group = parser.add_argument_group("hardware")
    group.add_argument("--vm-type", action="append", metavar="TYPE",
                       help=f"instance type of {what}, in order of preference (repeatable)")
    group.add_argument("--cpu", metavar="N", help=f"cores of {what} (a number, or MIN-MAX)")
    group.add_argument("--memory", metavar="SIZE", help=f'memory of {what}, e.g. "16 GiB" (or MIN-MAX)')
    # Coiled's --gpu is a switch (one GPU); --gpus N asks for more.
    group.add_argument("--gpu", action="store_const", const=1, help="a GPU on each worker")
    group.add_argument("--gpus", dest="gpu", type=int, metavar="N", help="GPUs of each worker")
    group.add_argument("--arm", action="store_true", default=None, help="ARM instances")
    group.add_argument("--spot-policy", choices=sorted(SPOT_POLICIES), help="spot or on-demand workers")
    group.add_argument("--region", help="the cloud region to run in")


def _cli_range(text: str | None, number: bool):
    if text is None:
        return None
    low, sep, high = text.partition("-")
    convert = (lambda v: int(v) if v.strip().isdigit() else v) if number else (lambda v: v.strip())
    if not sep:
        return convert(text)
    return [convert(low) if low.strip() else None, convert(high) if high.strip() else None]


def cli_words(args, role: str) -> dict:
    """How each hardware argument was typed on the command line (``--cpu 99``), by the names an
    error may give it (``scheduler_cpu``, and the short ``cpu`` of ``cumulus.run``)."""
    flags = {"vm_types": ("--vm-type", args.vm_type), "cpu": ("--cpu", args.cpu), "memory": ("--memory", args.memory)}
    words = {}
    for short, (flag, value) in flags.items():
        if value is not None:
            typed = " ".join(f"{flag} {v}" for v in value) if isinstance(value, list) else f"{flag} {value}"
            words[short] = words[f"{role}_{short}"] = typed
    for param, flag in (("worker_gpu", "--gpu"), ("spot_policy", "--spot-policy"), ("region", "--region")):
        if getattr(args, flag[2:].replace("-", "_"), None) is not None:
            words[param] = f"{flag} {getattr(args, flag[2:].replace('-', '_'))}"
    if args.arm:
        words["arm"] = "--arm"
    return words


def from_cli(args, role: str) -> dict:
    """The hardware arguments (``cumulus.Cluster``'s names) of the CLI options, for ``role``."""
    out = {
        f"{role}_vm_types": args.vm_type,
        f"{role}_cpu": _cli_range(args.cpu, number=True),
        f"{role}_memory": _cli_range(args.memory, number=False),
        "worker_gpu": args.gpu,
        "arm": args.arm,
        "spot_policy": args.spot_policy,
        "region": args.region,
    }
    return {k: v for k, v in out.items() if v is not None}
