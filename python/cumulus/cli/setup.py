"""``cumulus setup aws`` (Coiled's ``coiled setup aws``): this machine's AWS credentials stored in the
workspace, then the account set up for clusters: instance profile, security group, region; ``cumulus setup
gcp``: a service account key file (or the server's own account), then the network, region and zone (below). Azure is connected in the
console for now."""

from __future__ import annotations

import json
import re
import sys
import time

from cumulus import aws_credentials, config
from cumulus.cli.common import add_workspace, by_option, group, read_local, refuse, workspace_api
from cumulus.http import SLOW, Api, CumulusError

# Coiled's `setup aws` options that cannot apply here, and why.
REFUSED = {
    "--iam-user": "Cumulus makes no IAM user: it keeps the keys this machine has (or a role, in the console).",
    "--cloudshell-link": "there is no CloudShell script here: run `cumulus setup aws` where your AWS credentials are.",
    "--no-cloudshell-link": "there is no CloudShell script here to leave out.",
    "--quotas": "Cumulus does not read or change service quotas: see them in the AWS console's Service Quotas page.",
    "--manual-final-setup": "there is no separate final step: the command finishes the setup itself.",
    "--update-policies": "Cumulus keeps no IAM policies of its own to update: the keys' own permissions are used.",
    "--update-instance-policy": "the instance role's S3 access is set in the workspace's AWS settings (console).",
    "--setup-policy": "Cumulus makes no setup IAM policy to name: the keys' own permissions are used.",
    "--ongoing-policy": "Cumulus makes no ongoing IAM policy to name: the keys' own permissions are used.",
    "--keep-existing-access": "Cumulus makes no role for role assumption whose trust it could keep: the keys are stored.",
    "--accept-delete": "the setup deletes nothing in your AWS account, so there is nothing to accept.",
    "--custom-s3-bucket-prefix": "the instance role's S3 access is set in the workspace's AWS settings (console).",
}
SWITCHES = ("--cloudshell-link", "--no-cloudshell-link", "--quotas", "--manual-final-setup", "--update-policies",
            "--update-instance-policy", "--keep-existing-access", "--accept-delete")
RETRY_SECONDS = 3.0


def add_commands(sub) -> None:
    _setup, ssub = group(sub, "setup", "connect a cloud account to the workspace")
    aws = ssub.add_parser("aws", help="connect AWS with this machine's AWS credentials",
                          description="Stores this machine's AWS credentials (the AWS_* variables, else ~/.aws) in the "
                                      "workspace and sets the account up for clusters: an instance profile, a security "
                                      "group with Dask's ports open to your address, and the region.")
    aws.add_argument("--region", help="AWS region for clusters (default: your AWS profile's region, else us-east-1)")
    aws.add_argument("--profile", help="AWS profile to read from ~/.aws (default: the AWS_* variables, else [default])")
    add_workspace(aws)
    aws.add_argument("--yes", "-y", action="store_true",
                     help="do not ask before storing the credentials (or stopping clusters that run with others)")
    # Coiled's --use-access-key chooses an IAM user's access key over role delegation: what this command
    # always does (this machine's keys are stored), so it is accepted and changes nothing.
    aws.add_argument("--use-access-key", action="store_true",
                     help="access with this machine's access key (what `cumulus setup aws` always does)")
    refuse(aws, REFUSED, SWITCHES)
    aws.set_defaults(run=_setup_aws)
    _add_gcp(ssub)
    for cloud, label in (("azure", "Azure"),):
        p = ssub.add_parser(cloud, help=f"connect {label} (in the console)")
        p.set_defaults(run=_setup_in_console, cloud=cloud)


def _setup_in_console(args) -> int:
    server = config.load().server
    raise CumulusError(
        f"`cumulus setup {args.cloud}` cannot run from the command line yet: an admin of the workspace "
        f"connects the account on the console's Setup page, {server}/settings/setup "
        "(credentials, then regions); clusters use it from then on."
    )


def local_keys(profile: str | None) -> dict:
    """This machine's AWS credentials as the AWS tools find them: through botocore where it is
    installed (SSO, assumed roles and the rest of its chain), else the variables and ~/.aws files."""
    try:
        import botocore.exceptions
        import botocore.session
    except ImportError:
        found = aws_credentials.local_credentials(profile)
    else:
        try:
            session = botocore.session.Session(profile=profile)
            keys = session.get_credentials()
            frozen = keys.get_frozen_credentials() if keys else None
        except botocore.exceptions.BotoCoreError as err:
            raise CumulusError(f"Reading your AWS credentials failed: {err}") from None
        found = frozen and {
            "access_key": frozen.access_key, "secret_key": frozen.secret_key, "session_token": frozen.token,
            "region": session.get_config_variable("region") or "us-east-1",
            "source": f"botocore ({keys.method})",
        }
    if not found:
        where = f"profile {profile} in ~/.aws" if profile else "AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or ~/.aws"
        raise CumulusError(f"No AWS credentials found ({where}): run `aws configure`, or set AWS_ACCESS_KEY_ID and "
                           "AWS_SECRET_ACCESS_KEY, then run `cumulus setup aws` again.")
    return found


def masked(key_id: str) -> str:
    return f"{key_id[:4]}…{key_id[-4:]}" if len(key_id) > 8 else "…"


def _ask(question: str, yes: bool) -> bool:
    if yes:
        return True
    print(f"{question} [y/N] ", end="", flush=True)
    answer = sys.stdin.readline()
    if not answer:
        print()
    return answer.strip().lower() in ("y", "yes")


def _with_confirmation(api: Api, method: str, path: str, body: dict, yes: bool) -> dict:
    """A call of the 409 protocol: ``confirm`` asks (or --yes), then sends again with ``confirm=1``;
    ``retry`` waits and sends again."""
    query = None
    while True:
        try:
            return api.request(method, path, json_body=body, query=query, retry=SLOW)
        except CumulusError as err:
            action = err.body.get("action_required") if err.status == 409 and isinstance(err.body, dict) else None
            if action == "confirm" and query is None:
                print(str(err))
                if not _ask("Go ahead?", yes):
                    raise CumulusError("Not confirmed: nothing was changed.") from None
                query = {"confirm": 1}
            elif action == "retry":
                print(f"Waiting: {err}", flush=True)
                time.sleep(RETRY_SECONDS)
            else:
                raise


def _setup_aws(args) -> int:
    found = local_keys(args.profile)
    region = args.region or found["region"]
    api, ws = workspace_api(args)
    print(f"Found AWS credentials {masked(found['access_key'])} in {found['source']}.")
    if found["session_token"]:
        print("Note: these are session credentials; the workspace's clusters stop working when they expire.")
    if not _ask(f"Store them in workspace {ws} and set up {region} for its clusters?", args.yes):
        raise CumulusError("Not confirmed: nothing was changed. Run with --yes to go ahead without asking.")
    keys = {"aws_access_key_id": found["access_key"], "aws_secret_access_key": found["secret_key"]}
    if found["session_token"]:
        keys["aws_session_token"] = found["session_token"]
    print("Checking and storing the credentials...", flush=True)
    stored = _with_confirmation(api, "POST", f"/api/v2/cloud-credentials/{ws}/aws",
                                {"credentials": keys, "default_region": region}, args.yes)
    summary = stored.get("summary") or {}
    print(f"Stored: AWS account {summary.get('account') or '?'} as {summary.get('arn') or '?'}.")
    print(f"Making the instance profile and the security group in {region}...", flush=True)
    made = api.request("POST", f"/api/v2/setup/account/{ws}/aws/global", json_body={"region": region}, retry=SLOW)
    group_ = (made.get("security_groups") or {}).get(region) or {}
    print(f"Instance profile {made.get('instance_profile_name')}; security group {group_.get('group_id')} in "
          f"{group_.get('vpc_id')}, Dask's ports open to {made.get('allowed_cidr')}.")
    print(f"Setting up region {region}...", flush=True)
    regions = api.request("POST", f"/api/v2/setup/account/{ws}/aws/regions",
                          json_body={"regions": [{"region": region, "default": True}]}, retry=SLOW)["regions"]
    mine = next((r for r in regions if r["region"] == region), {})
    if mine.get("problem"):
        raise CumulusError(f"AWS is connected, but clusters cannot start in {region} yet: {mine['problem']} "
                           f"({api.server}/settings/setup)")
    print(f"Region {region}: {len(mine.get('subnet_ids') or [])} subnet(s) of {mine.get('vpc_id')}, image "
          f"{mine.get('ami_id') or mine.get('arm_ami_id')}.")
    print(f"Done: new clusters of workspace {ws} run in your AWS account, in {region}.")
    return 0


# --- setup gcp: a service account key file stored in the workspace (the server checks it with Google:
# a token exchange, then the permissions clusters need in its project), then the network, the region
# and the zone set up for clusters; each refusal said at the option it is about.

# The request fields of each call, by the option that sets them.
GCP_FLAGS = {"credentials": "--key-file", "workload_identity": "--workload-identity", "project_id": "--project", "default_region": "--region", "region": "--region",
         "regions": "--region", "network": "--network", "target_tags": "--target-tag", "zone": "--zone"}
GCP_DEFAULT_REGION = "us-east1"


def _add_gcp(ssub) -> None:
    gcp = ssub.add_parser("gcp", help="connect GCP with a service account key file (or the server's own account)",
                          description="Stores a service account key (the JSON file `gcloud iam service-accounts keys "
                                      "create` writes) in the workspace once Google takes it and it holds the "
                                      "permissions clusters need in its project, then sets up the network and the "
                                      "region (and the zone tried first) for clusters.")
    how = gcp.add_mutually_exclusive_group(required=True)
    how.add_argument("--key-file", metavar="FILE", help="the service account key's JSON file")
    how.add_argument("--workload-identity", action="store_true",
                     help="use the service account of the machine the server runs on (its operator only, where the "
                          "server offers it), no key")
    gcp.add_argument("--project", help="the project clusters run in: the key's own (refused when it is another); "
                                       "with --workload-identity, the server's own project by default")
    gcp.add_argument("--region", help=f"GCP region for clusters (default: {GCP_DEFAULT_REGION})")
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


def read_gcp_key(path: str) -> dict:
    text = read_local(path, "--key-file")
    try:
        key = json.loads(text)
    except ValueError as err:
        raise CumulusError(f"--key-file {path}: not a JSON key file ({err.msg}, line {err.lineno}).") from None
    if not isinstance(key, dict):
        raise CumulusError(f"--key-file {path}: not a service account key (a JSON object).")
    return key


def _setup_gcp(args) -> int:
    key = None if args.workload_identity else read_gcp_key(args.key_file)
    region = args.region or GCP_DEFAULT_REGION
    if args.zone and not re.fullmatch(rf"{re.escape(region)}-[a-z]", args.zone):
        raise CumulusError(f"--zone {args.zone}: not a zone of {region} (--region).")
    api, ws = workspace_api(args)
    if key is None:
        where = f"project {args.project}" if args.project else "the server's own project"
        print(f"The server's own service account, in {where}.")
        question = f"Let workspace {ws}'s clusters run as it and set up {region} for them?"
    else:
        print(f"Service account {key.get('client_email') or '?'} of project {args.project or key.get('project_id') or '?'}.")
        question = f"Store its key in workspace {ws} and set up {region} for its clusters?"
    if not _ask(question, args.yes):
        raise CumulusError("Not confirmed: nothing was changed. Run with --yes to go ahead without asking.")

    def call(method: str, path: str, body: dict, confirm: bool = False) -> dict:
        try:
            if confirm:
                return _with_confirmation(api, method, path, body, args.yes)
            return api.request(method, path, json_body=body, retry=SLOW)
        except CumulusError as err:
            raise by_option(err, GCP_FLAGS) from None

    what = "the server's service account" if key is None else "the key"
    print(f"Checking {what} with Google (a token, then the permissions clusters need) and storing it...", flush=True)
    body = {"workload_identity": True} if key is None else {"credentials": key}
    body["default_region"] = region
    if args.project:
        body["project_id"] = args.project
    stored = call("POST", f"/api/v2/cloud-credentials/{ws}/gcp", body, confirm=True)
    summary = stored.get("summary") or {}
    print(f"Stored: project {summary.get('project_id')}, service account {summary.get('client_email')}"
          + ("" if key is None else f", key {summary.get('private_key_id')}") + ".")
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
