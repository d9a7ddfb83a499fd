"""How `cumulus batch` words a job's progress (no server needed)."""

from __future__ import annotations

import unittest

from cumulus.batch import progress


def job(state: str, done: int, failed: int, task_states: list[str]) -> dict:
    return {"id": 7, "job_state": state, "n_tasks_succeeded": done, "n_tasks_failed": failed,
            "n_tasks": len(task_states), "tasks": [{"state": s} for s in task_states]}


class ProgressWordingTest(unittest.TestCase):
    def test_a_job_with_running_tasks_is_running(self):
        # The server may not yet have seen its first task start: the counts say what is true.
        line = progress(job("pending", 1, 0, ["done", "running", "running"]))
        self.assertEqual(line, "job 7: running — 1 done, 0 failed, 2 running of 3")

    def test_a_job_with_nothing_started_is_pending(self):
        self.assertEqual(progress(job("pending", 0, 0, ["pending", "pending"])),
                         "job 7: pending — 0 done, 0 failed, 0 running of 2")

    def test_a_finished_job_keeps_its_state(self):
        self.assertEqual(progress(job("failed", 2, 1, ["done", "done", "error"])),
                         "job 7: failed — 2 done, 1 failed, 0 running of 3")


if __name__ == "__main__":
    unittest.main()
