"""``cumulus setup gcp``: a service account key file stored in the workspace (the server checks it with
Google: a token exchange, then the permissions clusters need in its project), then the network, the
region and the zone set up for clusters. Each refusal is said at the option it is about."""

from __future__ import annotations

import json
import re

from cumulus.cli.common import add_workspace, by_option, read_local, workspace_api
from cumulus.http import SLOW, CumulusError

# The request fields of each call, by the option that sets them.
FLAGS = {"credentials": "--key-file", "project_id": "--project", "default_region": "--region", "region": "--region",
         "regions": "--region", "network": "--network", "target_tags": "--target-tag", "zone": "--zone"}
DEFAULT_REGION = "us-east1"


def add_command(ssub) -> None:
    gcp = ssub.add_parser("gcp", help="connect GCP with a service account key file",
                          description="Stores a service account key (the JSON file `gcloud iam service-accounts keys "
                                      "create` writes) in the workspace once Google takes it and it holds the "
                                      "permissions clusters need in its project, then sets up the network and the "
                                      "region (and the zone tried first) for clusters.")
    gcp.add_argument("--key-file", required=True, metavar="FILE", help="the service account key's JSON file")
    gcp.add_argument("--project", help="the project clusters run in: the key's own (refused when it is another)")
    gcp.add_argument("--region", help=f"GCP region for clusters (default: {DEFAULT_REGION})")
    gcp.add_argument("--zone", help="the zone of the region clusters are tried in first (default: spread over its "
                                    "zones)")
    gcp.add_argument("--network", help="the VPC network of the clusters (default: default)")
    gcp.add_argument("--subnet", help="the region's subnet of that network (default: the network's name)")
    gcp.add_argument("--target-tag", action="append", metavar="TAG",
                     help="a network tag every instance carries, for firewall rules (repeatable; default: "
                          "cumulus-cluster)")
    add_workspace(gcp)
    gcp.add_argument("--yes", "-y", action="store_true",
                     help="do not ask before storing the key (or stopping clusters that run with another)")
    gcp.set_defaults(run=_setup_gcp)


def read_key(path: str) -> dict:
    text = read_local(path, "--key-file")
    try:
        key = json.loads(text)
    except ValueError as err:
        raise CumulusError(f"--key-file {path}: not a JSON key file ({err.msg}, line {err.lineno}).") from None
    if not isinstance(key, dict):
        raise CumulusError(f"--key-file {path}: not a service account key (a JSON object).")
    return key


def _setup_gcp(args) -> int:
    from cumulus.cli.setup import _ask, _with_confirmation

    key = read_key(args.key_file)
    region = args.region or DEFAULT_REGION
    if args.zone and not re.fullmatch(rf"{re.escape(region)}-[a-z]", args.zone):
        raise CumulusError(f"--zone {args.zone}: not a zone of {region} (--region).")
    api, ws = workspace_api(args)
    project = args.project or key.get("project_id") or "?"
    print(f"Service account {key.get('client_email') or '?'} of project {project}.")
    if not _ask(f"Store its key in workspace {ws} and set up {region} for its clusters?", args.yes):
        raise CumulusError("Not confirmed: nothing was changed. Run with --yes to go ahead without asking.")

    def call(method: str, path: str, body: dict, confirm: bool = False) -> dict:
        try:
            if confirm:
                return _with_confirmation(api, method, path, body, args.yes)
            return api.request(method, path, json_body=body, retry=SLOW)
        except CumulusError as err:
            raise by_option(err, FLAGS) from None

    print("Checking the key with Google (a token, then the permissions clusters need) and storing it...", flush=True)
    body = {"credentials": key, "default_region": region}
    if args.project:
        body["project_id"] = args.project
    stored = call("POST", f"/api/v2/cloud-credentials/{ws}/gcp", body, confirm=True)
    summary = stored.get("summary") or {}
    print(f"Stored: project {summary.get('project_id')}, service account {summary.get('client_email')}, key "
          f"{summary.get('private_key_id')}.")
    setup = f"/api/v2/setup/account/{ws}/gcp"
    network = {"network": args.network} if args.network else {}
    if args.target_tag:
        network["target_tags"] = args.target_tag
    made = call("POST", f"{setup}/global", network)
    print(f"Network {made.get('network')}, instances tagged {', '.join(made.get('target_tags') or []) or '(none)'}.")
    wanted = {"region": region, "default": True, **({"subnet": args.subnet} if args.subnet else {})}
    regions = call("POST", f"{setup}/regions", {"regions": [wanted]})["regions"]
    mine = next((r for r in regions if r["region"] == region), {})
    print(f"Region {region}: subnet {mine.get('subnet') or '?'} of {mine.get('network') or '?'}.")
    if args.zone:
        call("PATCH", f"{setup}/settings", {"zone": args.zone})
        print(f"Zone {args.zone} is tried first.")
    print(f"Done: new clusters of workspace {ws} run in your GCP project {summary.get('project_id')}, in {region}.")
    return 0
