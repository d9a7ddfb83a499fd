"""Reading better-logs events (contract 2.7) as lines a person can follow."""

from __future__ import annotations

import datetime


def instance_names(details: dict) -> dict:
    """Instance id -> the name of the process it runs, from a cluster's details."""
    names = {}
    processes = [details.get("scheduler")] + list(details.get("workers") or [])
    for process in processes:
        instance = (process or {}).get("instance") or {}
        if instance.get("id") is not None:
            names[instance["id"]] = process.get("name") or instance.get("name") or f"instance {instance['id']}"
    return names


def source(event: dict, names: dict) -> str:
    instance = event.get("instance")
    if isinstance(instance, dict) and instance.get("name"):
        return instance["name"]
    if isinstance(instance, str) and instance:
        return instance
    return names.get(event.get("instance_id"), f"instance {event.get('instance_id')}")


def format_event(event: dict, names: dict) -> str:
    when = datetime.datetime.fromtimestamp(event["timestamp"] / 1000).strftime("%Y-%m-%d %H:%M:%S")
    return f"{when} {source(event, names)} {event.get('message', '').rstrip()}"
