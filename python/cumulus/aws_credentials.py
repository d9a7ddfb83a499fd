"""``credentials="local"``: the user's own AWS credentials, as short-lived STS ones, on the cluster.

Reads the credentials this machine has (``AWS_ACCESS_KEY_ID``/``AWS_SECRET_ACCESS_KEY``/
``AWS_SESSION_TOKEN``, else ``AWS_PROFILE``'s in ``~/.aws/credentials``), turns long-term keys into
session credentials with STS ``GetSessionToken`` (session credentials are forwarded as they are),
and answers them in the shape of the scheduler's ``aws_update_credentials`` handler (contract 3).
Standard library only: requests are signed here with Signature Version 4.
"""

from __future__ import annotations

import configparser
import datetime
import hashlib
import hmac
import os
import urllib.parse
import xml.etree.ElementTree as ET

from cumulus.http import HttpError, ServerUnreachable, send

# How long the session credentials asked from STS last (its default, 12 hours).
SESSION_SECONDS = 43200
# Credentials without an expiry (session ones forwarded as they are) are read again this often.
REREAD_SECONDS = 300.0
# The shortest wait before a refresh, however soon the credentials expire.
MIN_REFRESH_SECONDS = 30.0


class CredentialsError(Exception):
    """STS refused, or could not be reached; the message says which."""


def _hmac(key: bytes, text: str) -> bytes:
    return hmac.new(key, text.encode(), hashlib.sha256).digest()


def sign(method: str, url: str, *, region: str, service: str, access_key: str, secret_key: str,
         session_token: str | None = None, body: bytes = b"", headers: dict | None = None,
         now: datetime.datetime | None = None, sign_payload: bool = False) -> dict:
    """The headers that sign this request with AWS Signature Version 4 (``Authorization`` among them).

    ``sign_payload`` adds ``x-amz-content-sha256``, which S3 requires."""
    now = now or datetime.datetime.now(datetime.timezone.utc)
    amz_date, day = now.strftime("%Y%m%dT%H%M%SZ"), now.strftime("%Y%m%d")
    parts = urllib.parse.urlsplit(url)
    payload_hash = hashlib.sha256(body).hexdigest()
    signed = {k.lower(): str(v).strip() for k, v in (headers or {}).items()}
    signed["host"] = parts.netloc
    signed["x-amz-date"] = amz_date
    if session_token:
        signed["x-amz-security-token"] = session_token
    if sign_payload:
        signed["x-amz-content-sha256"] = payload_hash
    query = sorted(urllib.parse.parse_qsl(parts.query, keep_blank_values=True))
    canonical_query = "&".join(f"{urllib.parse.quote(k, safe='-_.~')}={urllib.parse.quote(v, safe='-_.~')}" for k, v in query)
    names = sorted(signed)
    canonical_request = "\n".join([
        method, urllib.parse.quote(parts.path or "/", safe="/-_.~"), canonical_query,
        "".join(f"{n}:{signed[n]}\n" for n in names), ";".join(names), payload_hash,
    ])
    scope = f"{day}/{region}/{service}/aws4_request"
    to_sign = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope, hashlib.sha256(canonical_request.encode()).hexdigest()])
    key = _hmac(_hmac(_hmac(_hmac(f"AWS4{secret_key}".encode(), day), region), service), "aws4_request")
    signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    signed["authorization"] = (
        f"AWS4-HMAC-SHA256 Credential={access_key}/{scope}, SignedHeaders={';'.join(names)}, Signature={signature}"
    )
    signed.pop("host")
    return signed


def _profile_section(parser: configparser.ConfigParser, profile: str, config_file: bool) -> dict:
    name = profile if not config_file or profile == "default" else f"profile {profile}"
    return dict(parser[name]) if parser.has_section(name) else {}


def local_credentials(profile: str | None = None) -> dict | None:
    """This machine's AWS credentials ``{access_key, secret_key, session_token, region, source}``, or None.

    ``profile`` names the profile to read, as the AWS CLI's ``--profile`` does: the keys in the
    environment are then not used (``AWS_PROFILE``'s, else ``default``, otherwise)."""
    named = profile
    profile = profile or os.environ.get("AWS_PROFILE") or os.environ.get("AWS_DEFAULT_PROFILE") or "default"
    config = configparser.ConfigParser()
    config.read(os.path.expanduser(os.environ.get("AWS_CONFIG_FILE") or "~/.aws/config"))
    settings = _profile_section(config, profile, config_file=True)
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or settings.get("region") or "us-east-1"
    if not named and os.environ.get("AWS_ACCESS_KEY_ID") and os.environ.get("AWS_SECRET_ACCESS_KEY"):
        found = {"aws_access_key_id": os.environ["AWS_ACCESS_KEY_ID"],
                 "aws_secret_access_key": os.environ["AWS_SECRET_ACCESS_KEY"],
                 "aws_session_token": os.environ.get("AWS_SESSION_TOKEN")}
        source = "the environment (AWS_ACCESS_KEY_ID)"
    else:
        stored = configparser.ConfigParser()
        stored.read(os.path.expanduser(os.environ.get("AWS_SHARED_CREDENTIALS_FILE") or "~/.aws/credentials"))
        found = {**settings, **_profile_section(stored, profile, config_file=False)}
        source = f"profile {profile}"
    if not found.get("aws_access_key_id") or not found.get("aws_secret_access_key"):
        return None
    return {"access_key": found["aws_access_key_id"], "secret_key": found["aws_secret_access_key"],
            "session_token": found.get("aws_session_token") or None, "region": region, "source": source}


def sts_endpoint(region: str) -> str:
    return (os.environ.get("AWS_ENDPOINT_URL_STS") or os.environ.get("AWS_ENDPOINT_URL")
            or f"https://sts.{region}.amazonaws.com").rstrip("/") + "/"


def _expiration(text: str) -> str:
    """STS's expiry in the handler's form, ``YYYY-MM-DDTHH:MM:SSZ`` (no fraction)."""
    return text.strip()[:19] + "Z"


def get_session_token(found: dict, timeout: float = 10) -> dict:
    """Session credentials for long-term keys, from STS ``GetSessionToken``."""
    url = sts_endpoint(found["region"])
    body = urllib.parse.urlencode({"Action": "GetSessionToken", "Version": "2011-06-15",
                                   "DurationSeconds": str(SESSION_SECONDS)}).encode()
    headers = {"Content-Type": "application/x-www-form-urlencoded; charset=utf-8"}
    headers.update(sign("POST", url, region=found["region"], service="sts", access_key=found["access_key"],
                        secret_key=found["secret_key"], body=body, headers=headers))
    try:
        answer = ET.fromstring(send("POST", url, data=body, headers=headers, timeout=timeout, what="STS"))
    except HttpError as err:
        detail = str(err.body or "")
        message = next((e.text for e in ET.fromstring(detail).iter() if e.tag.endswith("Message")), None) \
            if detail.lstrip().startswith("<") else None
        raise CredentialsError(f"STS GetSessionToken answered {err.status}: {message or detail[:200]}") from None
    except (ServerUnreachable, ET.ParseError) as err:
        raise CredentialsError(f"STS GetSessionToken at {url} failed: {err}") from None
    values = {e.tag.rsplit("}", 1)[-1]: (e.text or "") for e in answer.iter()}
    if not values.get("SessionToken"):
        raise CredentialsError("STS GetSessionToken answered no session token")
    return {"AccessKeyId": values["AccessKeyId"], "SecretAccessKey": values["SecretAccessKey"],
            "SessionToken": values["SessionToken"], "DefaultRegion": found["region"],
            "Expiration": _expiration(values["Expiration"])}


def credentials_to_forward() -> dict | None:
    """What ``aws_update_credentials`` takes, or None when this machine has no AWS credentials."""
    found = local_credentials()
    if found is None:
        return None
    if found["session_token"]:
        # Already short-lived (STS does not issue session tokens for session credentials): as they are.
        return {"AccessKeyId": found["access_key"], "SecretAccessKey": found["secret_key"],
                "SessionToken": found["session_token"], "DefaultRegion": found["region"]}
    return get_session_token(found)


def refresh_delay(credentials: dict, now: datetime.datetime | None = None) -> float:
    """Seconds until these credentials should be replaced: at 3/4 of what is left of their life."""
    if not credentials.get("Expiration"):
        return REREAD_SECONDS
    now = now or datetime.datetime.now(datetime.timezone.utc)
    expires = datetime.datetime.strptime(credentials["Expiration"], "%Y-%m-%dT%H:%M:%SZ").replace(
        tzinfo=datetime.timezone.utc)
    return max(MIN_REFRESH_SECONDS, (expires - now).total_seconds() * 0.75)
