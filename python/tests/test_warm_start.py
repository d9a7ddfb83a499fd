"""Warm processes (CUMULUS_WARM_PROCESSES, compute/local-warm.ts and cumulus/agent/warm.py): a local
cluster's instances take agents started beforehand, Dask already imported, and run Dask in their
fork; each becomes its cluster's uid, none is given back, the pool refills, and a server killed
while a cluster starts on them adopts what ran."""

from __future__ import annotations

import os
import threading
import unittest

from distributed import Client

import cumulus
from cumulus.startup import ClusterCreationError
from tests.harness import CumulusServer, instance_processes, wait_until

START = 120


def setUpModule():
    global server, token, workspace
    server = CumulusServer({"CUMULUS_WARM_PROCESSES": "3"}).start()
    user = server.register()
    token = server.api_token(user)
    workspace = user.workspace


def tearDownModule():
    server.close()


def waiting_warm() -> dict[int, int]:
    """Warm processes ready to be taken (in the pool's directory, named so once ready): pid -> uid."""
    found = {}
    pool = os.path.realpath(os.path.join(server.data_dir, "warm"))
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.readlink(f"/proc/{entry}/cwd") != pool:
                continue
            with open(f"/proc/{entry}/comm") as f:
                if f.read().strip() != "cumulus-warm":
                    continue
            with open(f"/proc/{entry}/status") as f:
                uid = next(int(line.split()[1]) for line in f if line.startswith("Uid:"))
            with open(f"/proc/{entry}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    continue
        except (OSError, StopIteration):
            continue
        found[int(entry)] = uid
    return found


def uid_of(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("Uid:"))


def agent_logs() -> str:
    """Each instance's agent.log (what its agent said before it could ship logs): why a start hung."""
    root = os.path.join(server.data_dir, "instances")
    said = []
    for name in sorted(os.listdir(root)):
        try:
            with open(os.path.join(root, name, "agent.log"), errors="replace") as f:
                said.append(f"--- {name}\n" + "".join(f.readlines()[-30:]))
        except OSError:
            pass
    return "\n".join(said)


def cluster(**kwargs) -> cumulus.Cluster:
    os.environ.update(CUMULUS_SERVER=server.url, CUMULUS_API_TOKEN=token)
    try:
        return cumulus.Cluster(n_workers=2, quiet=True, timeout=START, wait_for_workers=True, **kwargs)
    except ClusterCreationError as err:
        raise AssertionError(f"{err}\n{agent_logs()}") from None


class WarmStartTest(unittest.TestCase):
    def test_instances_take_warm_processes_as_their_cluster_and_the_pool_refills(self):
        wait_until(lambda: len(waiting_warm()) == 3, START, "3 warm processes waiting")
        pool_uids = set(waiting_warm().values())
        self.assertEqual(pool_uids, {os.getuid()}, "a waiting process carries no cluster's uid")
        before = set(waiting_warm())

        with cluster() as c, Client(c) as client:
            self.assertEqual(client.submit(sum, [1, 2, 3]).result(), 6)
            live = instance_processes(server.data_dir)
            self.assertEqual(len(live), 3, live)
            # Every instance is one of the processes that waited (the agent) and its fork (Dask).
            taken = {pid for pids in live.values() for pid in pids} & before
            self.assertEqual(len(taken), 3, (live, before))
            for pids in live.values():
                # The agent and Dask (the scheduler's agent may be checking for a dashboard too).
                self.assertGreaterEqual(len(pids), 2, live)
            def task_facts() -> dict:  # defined here: sent by value, the workers have no tests package
                import dask

                return {"uid": os.getuid(), "tls": dask.config.get("distributed.comm.require-encryption"),
                        "cwd": os.getcwd()}

            facts = client.run(task_facts)
            # Agents ship their lines each second: a start this quick can be read before they arrive.
            said_warm = lambda: "\n".join(str(text) for text in c.get_logs().values())  # noqa: E731
            wait_until(lambda: said_warm().count("a warm process: Python and Dask were loaded") >= 3, 30,
                       "each agent to say it was warm")
            said = said_warm()
        self.assertEqual(len(facts), 2)
        for worker, fact in facts.items():
            # The cluster's Dask config reached the fork (mutual TLS required), in its own directory.
            self.assertTrue(fact["tls"], fact)
            self.assertIn(os.path.join(os.path.realpath(server.data_dir), "instances"),
                          os.path.realpath(fact["cwd"]), fact)
        uids = {fact["uid"] for fact in facts.values()}
        if os.getuid() == 0:
            # Run as the cluster's own uid (the server runs as root: users of their own).
            self.assertEqual(len(uids), 1, facts)
            self.assertNotIn(0, uids, facts)
        self.assertEqual(said.count("a warm process: Python and Dask were loaded"), 3, said[-3000:])

        # Replacements start a moment after the takes, as the server's own user.
        wait_until(lambda: len(waiting_warm()) == 3, START, "the pool refilled")
        self.assertEqual(set(waiting_warm().values()), {os.getuid()})
        self.assertFalse(set(waiting_warm()) & before, "a taken process is never given back")

    def test_a_server_killed_while_a_cluster_starts_in_warm_processes_adopts_them(self):
        wait_until(lambda: len(waiting_warm()) == 3, START, "3 warm processes waiting")
        result: dict = {}

        def start():
            try:
                result["cluster"] = cluster()
            except BaseException as err:  # noqa: BLE001 - reported by the test thread
                result["error"] = err

        thread = threading.Thread(target=start)
        thread.start()
        wait_until(lambda: instance_processes(server.data_dir), START, "instances to be launched", 0.05)
        server.kill()
        # The processes still waiting hear the server go (their stdin ends) and exit.
        wait_until(lambda: not waiting_warm(), 30, "the dead server's waiting processes to exit")
        before = instance_processes(server.data_dir)
        server.start()
        thread.join(START)
        self.assertFalse(thread.is_alive(), "the Cluster constructor did not return")
        if "error" in result:
            raise result["error"]
        c = result["cluster"]
        self.addCleanup(c.close)
        with Client(c) as client:
            self.assertEqual(client.submit(lambda: 7).result(), 7)
            self.assertEqual(len(client.scheduler_info()["workers"]), 2)
        live = instance_processes(server.data_dir)
        self.assertEqual(len(live), 3, (before, live))
        for instance, pids in before.items():
            self.assertTrue(set(pids) & set(live[instance]), (before, live))
        cluster_id = c.cluster_id
        c.close()
        wait_until(lambda: not instance_processes(server.data_dir), START, f"cluster {cluster_id}'s processes gone")


if __name__ == "__main__":
    unittest.main()
