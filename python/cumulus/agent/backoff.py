"""Waits between attempts to reach the control plane: doubling, bounded, jittered."""

from __future__ import annotations

import random


class Backoff:
    """Waits that double from ``first`` up to ``cap`` seconds, each drawn between half and all of
    that: the agents of a restarted control plane come back spread out, not all at once."""

    def __init__(self, first: float = 0.5, cap: float = 10.0) -> None:
        self.first = first
        self.cap = cap
        self.attempts = 0

    def next(self) -> float:
        bound = min(self.cap, self.first * 2 ** min(self.attempts, 30))
        self.attempts += 1
        return bound * random.uniform(0.5, 1.0)

    def reset(self) -> None:
        self.attempts = 0
