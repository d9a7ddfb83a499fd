"""An instance's numbers, every few seconds: CPU, memory, network and disk from /proc, GPU
utilisation and memory from ``nvidia-smi`` when it is on PATH. Samples go to the control plane in
batches (``POST /api/v2/analytics/metrics`` with ``host``); while it cannot be reached they wait
(the newest ``MAX_PENDING``). Standard library only.

Where instances share a machine (the local backend sets ``CUMULUS_METRICS_SCOPE=processes``),
CPU, memory and disk are those of this agent's process tree (the instance's own), so that the
instances of a cluster do not all report the host's; network and GPU stay the machine's
(``scope`` of a sample says which CPU, memory and disk are)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .control import ControlPlane

MAX_PENDING = 720
# Whole disks and partitions alike appear in /proc/diskstats: count only devices, not partitions
# or virtual devices, so bytes are not counted twice.
VIRTUAL_DISKS = ("loop", "ram", "zram", "dm-", "md", "sr", "fd")


def read(path: str) -> str:
    with open(path) as f:
        return f.read()


def cpu_times(text: str) -> tuple:
    """(busy, total) jiffies of all cores, from /proc/stat."""
    fields = [int(v) for v in text.splitlines()[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    total = sum(fields[:8])
    return total - idle, total


def memory(text: str) -> tuple:
    """(used, total) bytes from /proc/meminfo: used is what is not available."""
    info = {}
    for line in text.splitlines():
        name, _, rest = line.partition(":")
        parts = rest.split()
        if parts:
            info[name] = int(parts[0]) * 1024
    total = info.get("MemTotal", 0)
    return total - info.get("MemAvailable", info.get("MemFree", 0)), total


def network(text: str) -> tuple:
    """(received, sent) bytes over all interfaces but loopback, from /proc/net/dev."""
    rx = tx = 0
    for line in text.splitlines()[2:]:
        name, _, rest = line.partition(":")
        if name.strip() == "lo":
            continue
        fields = rest.split()
        if len(fields) >= 9:
            rx += int(fields[0])
            tx += int(fields[8])
    return rx, tx


def disks(text: str, sysblock: str = "/sys/block") -> tuple:
    """(read, written) bytes of the machine's disks (sectors of 512 bytes), from /proc/diskstats."""
    try:
        devices = set(os.listdir(sysblock))
    except OSError:
        devices = None
    read_bytes = written = 0
    for line in text.splitlines():
        fields = line.split()
        if len(fields) < 10:
            continue
        name = fields[2]
        if name.startswith(VIRTUAL_DISKS) or (devices is not None and name not in devices):
            continue
        read_bytes += int(fields[5]) * 512
        written += int(fields[9]) * 512
    return read_bytes, written


def gpus(timeout: int = 10) -> tuple | None:
    """(utilisation percent averaged over GPUs, memory used, memory total in bytes), or None."""
    exe = shutil.which("nvidia-smi")
    if exe is None:
        return None
    try:
        out = subprocess.run(
            [exe, "--query-gpu=utilization.gpu,memory.used,memory.total", "--format=csv,noheader,nounits"],
            capture_output=True, text=True, timeout=timeout, check=True,
        ).stdout
        rows = [[float(v) for v in line.split(",")] for line in out.splitlines() if line.strip()]
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    if not rows:
        return None
    mib = 1024 * 1024
    return (
        sum(r[0] for r in rows) / len(rows),
        int(sum(r[1] for r in rows) * mib),
        int(sum(r[2] for r in rows) * mib),
    )


def process_tree(root: int, proc: str = "/proc") -> list[int]:
    """The pids of ``root`` and all its descendants, from each process's parent in /proc."""
    children = {}
    for name in os.listdir(proc):
        if not name.isdigit():
            continue
        try:
            ppid = int(stat_fields(read(f"{proc}/{name}/stat"))[1])
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile
        children.setdefault(ppid, []).append(int(name))
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, []))
    return tree


def stat_fields(text: str) -> list[str]:
    """/proc/<pid>/stat after the command name (which may hold spaces): state, ppid, ..."""
    return text[text.rindex(")") + 2:].split()


def tree_counters(root: int, proc: str = "/proc") -> tuple:
    """(CPU jiffies, resident bytes, bytes read, bytes written) of ``root``'s process tree.

    CPU counts the children each process has waited for and I/O counts its reaped children too,
    so a task process that ends leaves its share in its parent's figures: the sums only grow."""
    jiffies = rss = read_bytes = written = 0
    page = os.sysconf("SC_PAGE_SIZE")
    for pid in process_tree(root, proc):
        try:
            fields = stat_fields(read(f"{proc}/{pid}/stat"))
        except (OSError, ValueError):
            continue
        jiffies += sum(int(v) for v in fields[11:15])  # utime, stime, cutime, cstime
        rss += int(fields[21]) * page
        try:
            io = dict(line.split(": ") for line in read(f"{proc}/{pid}/io").splitlines() if ": " in line)
            read_bytes += int(io.get("read_bytes", 0))
            written += int(io.get("write_bytes", 0))
        except (OSError, ValueError):
            pass  # not ours to read, or gone
    return jiffies, rss, read_bytes, written


def processes_scope() -> bool:
    return os.environ.get("CUMULUS_METRICS_SCOPE") == "processes"


class Counters:
    """What /proc says now; a sample is the difference between two readings."""

    def __init__(self, root: int | None = None) -> None:
        self.at = time.monotonic()
        self.cpu = cpu_times(read("/proc/stat"))
        # This instance's own processes (None: the machine's numbers are the instance's).
        self.tree = tree_counters(root) if root is not None else None
        self.net = network(read("/proc/net/dev"))
        try:
            self.disk = disks(read("/proc/diskstats"))
        except OSError:
            self.disk = (0, 0)


def sample(before: Counters, now: Counters) -> dict:
    seconds = max(1e-3, now.at - before.at)
    busy, total = (now.cpu[0] - before.cpu[0]), (now.cpu[1] - before.cpu[1])
    used, size = memory(read("/proc/meminfo"))
    rate = lambda a, b: max(0.0, (a - b) / seconds)  # noqa: E731
    out = {
        "time": time.time(),
        "cpu": round(min(100.0, max(0.0, 100.0 * busy / total)) if total > 0 else 0.0, 2),
        "memory_used": max(0, used), "memory_total": size,
        "net_rx": rate(now.net[0], before.net[0]), "net_tx": rate(now.net[1], before.net[1]),
        "disk_read": rate(now.disk[0], before.disk[0]), "disk_write": rate(now.disk[1], before.disk[1]),
        "scope": "host",
    }
    if now.tree is not None and before.tree is not None:
        # Percent of all the machine's cores, as the host's figure is.
        cores = seconds * os.sysconf("SC_CLK_TCK") * (os.cpu_count() or 1)
        out.update(
            scope="processes",
            cpu=round(min(100.0, max(0.0, 100.0 * (now.tree[0] - before.tree[0]) / cores)), 2),
            memory_used=now.tree[1],
            disk_read=rate(now.tree[2], before.tree[2]), disk_write=rate(now.tree[3], before.tree[3]),
        )
    gpu = gpus()
    if gpu is not None:
        out["gpu"], out["gpu_memory_used"], out["gpu_memory_total"] = round(min(100.0, gpu[0]), 2), gpu[1], gpu[2]
    return out


class HostMetrics:
    """Samples every ``interval`` seconds in a thread, and sends what it has each time."""

    def __init__(self, control: ControlPlane, interval: float | None = None) -> None:
        self.control = control
        self.interval = float(interval or os.environ.get("CUMULUS_HOST_METRICS_INTERVAL_SECONDS") or 5)
        self.root = os.getpid() if processes_scope() else None
        self.pending = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.run, name="host-metrics", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.done.set()

    def run(self) -> None:
        try:
            before = Counters(self.root)
        except (OSError, ValueError, IndexError) as e:
            print(f"cumulus agent: no host metrics here ({e})", file=sys.stderr, flush=True)
            return
        while not self.done.wait(self.interval):
            try:
                now = Counters(self.root)
                self.pending.append(sample(before, now))
                before = now
            except (OSError, ValueError, IndexError) as e:
                print(f"cumulus agent: host sample failed ({e})", file=sys.stderr, flush=True)
                continue
            del self.pending[:-MAX_PENDING]
            self.send()

    def send(self) -> None:
        batch = self.pending[:MAX_PENDING]
        try:
            self.control.host_metrics(batch)
        except Exception as e:  # best effort: they wait for the next attempt
            if getattr(e, "status", None) is not None:
                del self.pending[:len(batch)]  # refused: these will never be taken
            print(f"cumulus agent: host metrics not sent ({e})", file=sys.stderr, flush=True)
            return
        del self.pending[:len(batch)]
