import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_AGENT_POOL_SIZE, DEFAULT_POOL_SIZE } from './db/client.js';
import { REPOSITORY_DIR, WEB_DIST_DIR } from './paths.js';

// The only module that reads process.env. Everything else receives a Config.
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().min(1).default('127.0.0.1'),
  CUMULUS_PUBLIC_URL: z.url().optional(),
  /**
   * Where browsers are served clusters' dashboards and Jupyter: another origin that reaches this
   * server (`https://dask.example.com`), or one per cluster with `*` as its first label
   * (`https://*.dask.example.com`: cluster 12 at `https://cluster-12.dask.example.com`). Unset: on
   * a loopback public URL, `*.localhost` at its port (browsers take any `*.localhost` for this
   * machine); otherwise, or `none`, the console's origin, each page sandboxed (its scripts run
   * without an origin, so most cannot work).
   */
  CUMULUS_PROXY_ORIGIN: z
    .string()
    .max(300)
    .regex(
      /^(none|https?:\/\/(\*\.)?[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d{1,5})?\/?)$/i,
      'CUMULUS_PROXY_ORIGIN must be an origin such as https://dask.example.com or https://*.dask.example.com, or none',
    )
    .optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
    .optional(),
  /** PostgreSQL connections per server: for console and API requests and the loops, and for instances' calls. */
  CUMULUS_DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(DEFAULT_POOL_SIZE),
  CUMULUS_DATABASE_AGENT_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(DEFAULT_AGENT_POOL_SIZE),
  CUMULUS_DATA_DIR: z.string().min(1).default('./.cumulus'),
  CUMULUS_SECRET: z.string().min(32, 'CUMULUS_SECRET must be at least 32 characters').optional(),
  CUMULUS_SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'CUMULUS_SMTP_URL must start with smtp:// or smtps://')
    .optional(),
  CUMULUS_MAIL_FROM: z.string().min(3).default('Cumulus <no-reply@cumulus.local>'),
  CUMULUS_PYTHON: z.string().min(1).default('/usr/bin/python3'),
  /** The podman that runs container environments on the local backend; `off`: containers refused. */
  CUMULUS_PODMAN: z.string().min(1).default('podman'),
  /** Its OCI runtime: `auto` tries podman's default, then runc and crun (the first that starts a container). */
  CUMULUS_CONTAINER_RUNTIME: z.enum(['auto', 'runc', 'crun']).default('auto'),
  /**
   * Who the local backend runs clusters and builds as: `users` (each cluster and each build its own
   * unprivileged uid; needs root), `operator` (the server's own user, for its operator alone), or
   * `auto` (`users` when the server runs as root and its data directory is reachable, else `operator`).
   */
  CUMULUS_LOCAL_ISOLATION: z.enum(['auto', 'users', 'operator']).default('auto'),
  /** The uids the local backend gives clusters and builds: COUNT of them from BASE, owned by nobody else. */
  CUMULUS_LOCAL_UID_BASE: z.coerce.number().int().min(1000).max(4_000_000_000).default(1_900_000_000),
  CUMULUS_LOCAL_UID_COUNT: z.coerce.number().int().min(16).max(100_000_000).default(1_000_000),
  /** Where the servers of this machine record which of those uids each holds (shared by every data directory). */
  CUMULUS_LOCAL_UID_REGISTRY: z.string().min(1).default('/var/lib/cumulus/uids'),
  CUMULUS_STAFF_EMAILS: z.string().default(''),
  CUMULUS_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CUMULUS_LOG_FORMAT: z.enum(['text', 'json']).default('text'),
  CUMULUS_WEB_DIST: z.string().optional(),
  CUMULUS_RECONCILE_INTERVAL_SECONDS: z.coerce.number().min(0.1).max(3600).default(2),
  CUMULUS_HEARTBEAT_INTERVAL_SECONDS: z.coerce.number().min(0.1).max(600).default(5),
  CUMULUS_HEARTBEAT_TIMEOUT_SECONDS: z.coerce.number().min(1).max(86_400).default(60),
  CUMULUS_AGENT_UNREACHABLE_SECONDS: z.coerce.number().min(1).max(86_400).default(1800),
  CUMULUS_INSTANCE_STOP_GRACE_SECONDS: z.coerce.number().min(0).max(600).default(10),
  CUMULUS_WARM_PROCESSES: z.coerce.number().int().min(0).max(32).default(3),
  CUMULUS_SSH_WARM_PROCESSES: z.coerce.number().int().min(0).max(32).default(3),
  /** At SIGTERM/SIGINT, how long requests in flight may take before their connections are cut. */
  CUMULUS_SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).max(3600).default(10),
  CUMULUS_PIP_INDEX_URL: z.url().optional(),
  CUMULUS_PIP_EXTRA_INDEX_URL: z.string().max(4000).optional(),
  CUMULUS_BUILD_RETENTION_DAYS: z.coerce.number().min(0).max(36_500).default(30),
  CUMULUS_DEFAULT_ENVIRONMENT: z.enum(['on', 'off']).default('on'),
  /** Local instances' approximate cloud cost: dollars per core-hour and per GiB-hour. */
  CUMULUS_LOCAL_CORE_HOUR_USD: z.coerce.number().min(0).max(1000).default(0.04),
  CUMULUS_LOCAL_GIB_HOUR_USD: z.coerce.number().min(0).max(1000).default(0.005),
  /** How long metering's unit is (60 s; tests shorten it). */
  CUMULUS_METER_MINUTE_SECONDS: z.coerce.number().min(0.1).max(60).default(60),
  /** Raw metered minutes are kept this long; hourly rollups stay. */
  CUMULUS_USAGE_RETENTION_DAYS: z.coerce.number().min(1).max(36_500).default(90),
  CUMULUS_HOST_METRICS_RETENTION_DAYS: z.coerce.number().min(0.001).max(36_500).default(14),
  /** Billing through Stripe; unset: billing pages say it is not configured, limits still act. */
  CUMULUS_STRIPE_SECRET_KEY: z.string().min(8).max(500).optional(),
  CUMULUS_STRIPE_WEBHOOK_SECRET: z.string().min(8).max(500).optional(),
  /** Where the Stripe client sends its calls (a local fake or stripe-mock); unset: api.stripe.com. */
  CUMULUS_STRIPE_API_URL: z.url().optional(),
  /** The recurring Stripe price of the Professional plan; unset: a monthly price of CUMULUS_PRO_MONTHLY_USD. */
  CUMULUS_STRIPE_PRICE_ID: z.string().min(3).max(255).optional(),
  CUMULUS_PRO_MONTHLY_USD: z.coerce.number().min(0).max(100_000).default(0),
  /** Where users reach a person: the console's Contact links; unset hides them. */
  CUMULUS_SUPPORT_EMAIL: z.email('CUMULUS_SUPPORT_EMAIL must be an email address').optional(),
  /** The console's Docs link; unset = this server's own documentation at /docs. */
  CUMULUS_DOCS_URL: linkSetting('CUMULUS_DOCS_URL').optional(),
  /** A chat or forum for users; unset hides the console's community link. */
  CUMULUS_COMMUNITY_URL: linkSetting('CUMULUS_COMMUNITY_URL').optional(),
  /** Terms of service shown at sign-in; unset shows none. */
  CUMULUS_TERMS_URL: linkSetting('CUMULUS_TERMS_URL').optional(),
  /** Sign-up's "Book a demo" link; unset hides it. */
  CUMULUS_BOOK_DEMO_URL: linkSetting('CUMULUS_BOOK_DEMO_URL').optional(),
  /**
   * `true`: this server is run as a hosted service, whose new users are asked how they heard of it
   * and see what's-new banners. Unset (a self-hosted install): neither greets anyone.
   */
  CUMULUS_HOSTED_SERVICE: z.enum(['true', 'false']).default('false'),
  /**
   * This machine is a Slurm login node (sbatch, squeue and scancel on the PATH, SLURM_CONF where
   * needed): workspace admins may connect its Slurm cluster without SSH, jobs submitted as the server's own user.
   */
  CUMULUS_SLURM_LOCAL_LOGIN: z.enum(['true', 'false']).default('false'),
  /** Single sign-on through an OpenID Connect provider (Okta, Entra ID, Keycloak…): all three or none. */
  CUMULUS_OIDC_ISSUER: z.url().optional(),
  CUMULUS_OIDC_CLIENT_ID: z.string().min(1).max(500).optional(),
  CUMULUS_OIDC_CLIENT_SECRET: z.string().min(1).max(2000).optional(),
  /** The login button's label: "Continue with <name>". */
  CUMULUS_OIDC_NAME: z.string().min(1).max(60).default('SSO'),
  /** Sign-in with Google: both or none. The issuer is Google's own unless tests point it elsewhere. */
  CUMULUS_GOOGLE_CLIENT_ID: z.string().min(1).max(500).optional(),
  CUMULUS_GOOGLE_CLIENT_SECRET: z.string().min(1).max(2000).optional(),
  CUMULUS_GOOGLE_ISSUER: z.url().default('https://accounts.google.com'),
  /** Sign-in with GitHub (an OAuth app): both or none; the URLs change for GitHub Enterprise Server. */
  CUMULUS_GITHUB_CLIENT_ID: z.string().min(1).max(500).optional(),
  CUMULUS_GITHUB_CLIENT_SECRET: z.string().min(1).max(2000).optional(),
  CUMULUS_GITHUB_URL: z.url().default('https://github.com'),
  CUMULUS_GITHUB_API_URL: z.url().default('https://api.github.com'),
  /**
   * The DNS servers (comma-separated `host` or `host:port`) asked for the TXT records that prove an
   * organization's email domain; unset: the system's resolvers.
   */
  CUMULUS_DNS_SERVERS: z.string().trim().optional(),
  /**
   * Issuers (comma-separated URLs) organizations' own SSO connections may use although they are
   * plain http or on a private, loopback or link-local address: identity providers on the
   * operator's own network. An issuer is allowed when it is one of these or below one.
   */
  CUMULUS_SSO_ALLOWED_ISSUERS: z
    .string()
    .trim()
    .refine(
      (v) =>
        issuerList(v).every(
          (entry) => /^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/i.test(entry) && URL.canParse(entry),
        ),
      'CUMULUS_SSO_ALLOWED_ISSUERS must be http(s) URLs separated by commas, such as https://idp.internal/realms/acme',
    )
    .optional(),
  // AWS_ENDPOINT_URL and AWS_ENDPOINT_URL_<SERVICE> are the AWS SDK's own: it reads them itself.
  /**
   * The CloudFormation template of role assumption, published by the operator in S3 (CloudFormation
   * takes a template URL from S3 only): with it the console offers a quick-create link.
   */
  CUMULUS_AWS_CF_TEMPLATE_URL: z
    .string()
    .regex(
      /^https:\/\/[^\s/]+\.amazonaws\.com(\.cn)?\/\S+$/,
      'CUMULUS_AWS_CF_TEMPLATE_URL must be the https URL of the template in S3 (https://<bucket>.s3.amazonaws.com/...)',
    )
    .optional(),
  /**
   * Where GCP service account keys are exchanged for access tokens (Google's OAuth token endpoint),
   * never the key file's own `token_uri`: a key is checked against Google, not a URL it names.
   */
  CUMULUS_GCP_TOKEN_URL: z.url().default('https://oauth2.googleapis.com/token'),
  /** Compute Engine's API root (its REST paths start `/compute/v1`). */
  CUMULUS_GCP_COMPUTE_URL: z.url().default('https://compute.googleapis.com'),
  CUMULUS_GCP_STORAGE_URL: z.url().default('https://storage.googleapis.com'),
  /** Cloud Resource Manager's API root: where a key's permissions in its project are checked. */
  CUMULUS_GCP_RESOURCE_MANAGER_URL: z.url().default('https://cloudresourcemanager.googleapis.com'),
  /**
   * `true`: this server runs on Google Cloud with a service account of its own (workload
   * identity), which its operator may connect to a workspace instead of a key.
   */
  CUMULUS_GCP_WORKLOAD_IDENTITY: z.enum(['true', 'false']).default('false'),
  /** Where that service account's tokens come from: the metadata server of the machine the server runs on. */
  CUMULUS_GCP_METADATA_URL: z.url().default('http://metadata.google.internal'),
  /** The image a VM boots when a workspace names none (a family or an image, `projects/P/global/images/...`). */
  CUMULUS_GCP_IMAGE: z
    .string()
    .trim()
    .min(1)
    .max(256)
    .default('projects/debian-cloud/global/images/family/debian-12'),
  /** The same for Arm machine types (t2a, c4a). */
  CUMULUS_GCP_IMAGE_ARM64: z
    .string()
    .trim()
    .min(1)
    .max(256)
    .default('projects/debian-cloud/global/images/family/debian-12-arm64'),
  /**
   * The image of VMs with GPUs (x86_64: N1 with T4s, G2, A2): one with NVIDIA's driver and CUDA,
   * Google's Deep Learning VM base image by default (it installs the driver at first boot, asked by
   * the `install-nvidia-driver` metadata every GPU VM carries).
   */
  CUMULUS_GCP_IMAGE_GPU: z
    .string()
    .trim()
    .min(1)
    .max(256)
    .default('projects/deeplearning-platform-release/global/images/family/common-cu124-debian-11-py310'),
  /** The machine image a region gets when a workspace names none: the newest image with this name (wildcards allowed). */
  CUMULUS_AWS_AMI_NAME: z.string().trim().min(1).max(128).default('cumulus-instance-*'),
  /** The same for the arm64 image (Graviton types) a region gets: the newest arm64 image with this name. */
  CUMULUS_AWS_AMI_NAME_ARM64: z.string().trim().min(1).max(128).default('cumulus-instance-*'),
  /** Whose images the name is looked up among (`self`, `amazon`, an account id); unset: any owner. */
  CUMULUS_AWS_AMI_OWNER: z
    .string()
    .trim()
    .regex(
      /^(self|amazon|aws-marketplace|\d{12})$/,
      'CUMULUS_AWS_AMI_OWNER must be self, amazon or an account id',
    )
    .optional(),
});

/** CUMULUS_SSO_ALLOWED_ISSUERS' entries, without trailing slashes. */
const issuerList = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((entry) => entry.trim().replace(/\/+$/, ''))
    .filter(Boolean);

/**
 * CUMULUS_PROXY_ORIGIN, lowercased without a trailing slash. Its host must differ from the
 * console's: browsers share cookies between the ports of one host.
 */
function proxyOrigin(value: string | undefined, publicUrl: string): string | null {
  if (value === 'none') return null;
  if (!value) {
    const url = new URL(publicUrl);
    const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    return loopback ? `${url.protocol}//*.localhost${url.port ? `:${url.port}` : ''}` : null;
  }
  const origin = value.toLowerCase().replace(/\/+$/, '');
  const host = new URL(origin.replace('*', 'cluster-1')).hostname;
  if (host === new URL(publicUrl).hostname)
    throw new Error(
      'Invalid configuration:\n  CUMULUS_PROXY_ORIGIN: must name another host than the console (CUMULUS_PUBLIC_URL): browsers share cookies between ports',
    );
  return origin;
}

/** A link the console shows: an absolute http(s) URL, or a path on this server. */
function linkSetting(name: string) {
  return z
    .string()
    .max(2000)
    .refine(
      (v) => /^\/(?!\/)/.test(v) || /^https?:\/\/[^\s]+$/i.test(v),
      `${name} must be an http(s) URL or a path starting with /`,
    );
}

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  /**
   * The origin clusters' dashboards and Jupyter are served to browsers from (`*` as the first
   * label: one per cluster, `cluster-<id>`), apart from the console's; null: the console's own,
   * sandboxed (CUMULUS_PROXY_ORIGIN).
   */
  proxyOrigin: string | null;
  databaseUrl: string | undefined;
  /** PostgreSQL connections of the pool console and API requests and the loops use. */
  databasePoolSize: number;
  /** PostgreSQL connections of the pool instances' calls use. */
  databaseAgentPoolSize: number;
  dataDir: string;
  secret: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  python: string;
  /** Container environments on the local backend (compute/podman.ts); null: off. */
  containers: { podman: string; runtime: 'auto' | 'runc' | 'crun' } | null;
  staffEmails: ReadonlySet<string>;
  /** At SIGTERM/SIGINT, how long requests in flight may take before their connections are cut. */
  shutdownGraceMs: number;
  logLevel: string;
  /** Readable lines, or one JSON object a line. */
  logFormat: 'text' | 'json';
  /** Built console (apps/web/dist); served with a single-page fallback when it exists. */
  webDist: string;
  /** The checkout whose docs/ and guides beside the code /docs serves (modules/docs/manifest.ts). */
  docsRoot: string;
  clusters: ClusterTimings;
  software: SoftwareConfig;
  usage: UsageConfig;
  billing: BillingConfig;
  aws: AwsConfig;
  gcp: GcpConfig;
  /** The environment local instances start from (PATH, HOME, locale), nothing secret. */
  instanceEnv: Record<string, string>;
  /**
   * Agents the local backend keeps started, Dask imported, for the next instances to take
   * (compute/local-warm.ts): a cluster's start skips Python's start-up. 0: none.
   */
  warmProcesses: number;
  /**
   * Agents kept started on each healthy SSH host, Dask imported, for its next instances to take
   * (compute/ssh/warm.ts). 0: none.
   */
  sshWarmProcesses: number;
  /** Who local clusters and builds run as (compute/local-sandbox.ts). */
  localIsolation: LocalIsolationConfig;
  links: LinksConfig;
  /** A hosted service (CUMULUS_HOSTED_SERVICE): the welcome survey and what's-new banners are shown. */
  hostedService: boolean;
  /** This machine is a Slurm login node its workspaces may submit from (CUMULUS_SLURM_LOCAL_LOGIN). */
  slurmLocalLogin: boolean;
  signIn: SignInConfig;
}

/** An OpenID Connect provider this server signs people in through (SSO, Google). */
export interface OidcProviderConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  name: string;
}

/** Identity providers configured from the environment; null: not configured, no button. */
export interface SignInConfig {
  /** DNS servers for domain proofs (host or host:port); empty: the system's. */
  dnsServers: string[];
  /**
   * Issuers (and the issuers below them) organizations' connections may use although they are
   * plain http or on a private address (CUMULUS_SSO_ALLOWED_ISSUERS); no others are.
   */
  allowedIssuers: string[];
  sso: OidcProviderConfig | null;
  google: OidcProviderConfig | null;
  github: { url: string; apiUrl: string; clientId: string; clientSecret: string; name: string } | null;
}

/** Where the console sends people outside itself; null hides the link. */
export interface LinksConfig {
  supportEmail: string | null;
  /** Always set: this server's own documentation (/docs) unless another site is configured. */
  docsUrl: string;
  communityUrl: string | null;
  termsUrl: string | null;
  bookDemoUrl: string | null;
}

export interface AwsConfig {
  /** The role template's S3 URL, for CloudFormation quick-create links; null: none offered. */
  cfTemplateUrl: string | null;
  /** The image name (and owner) a region's machine image is looked up by when none is set. */
  amiName: string;
  /** The name the arm64 image is looked up by (among images of that architecture). */
  amiNameArm64: string;
  amiOwner: string | null;
}

export interface GcpConfig {
  tokenUrl: string;
  computeUrl: string;
  /** Cloud Storage's API root (the workspaces' archive buckets, their V4 signed links). */
  storageUrl: string;
  /** Cloud Resource Manager's API root (testIamPermissions). */
  resourceManagerUrl: string;
  /** The boot image per architecture (x86_64, arm64), and of VMs with GPUs. */
  images: { x86_64: string; arm64: string; gpu: string };
  /** The server's own service account may be connected to a workspace (CUMULUS_GCP_WORKLOAD_IDENTITY). */
  workloadIdentity: boolean;
  /** The metadata server that gives the server's own service account's tokens. */
  metadataUrl: string;
}

export interface UsageConfig {
  localCoreHourUsd: number;
  localGibHourUsd: number;
  minuteMs: number;
  retentionMs: number;
}

export interface BillingConfig {
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  stripeApiUrl: string | undefined;
  stripePriceId: string | undefined;
  /** The Professional plan's monthly price in cents, when no Stripe price id is given. */
  proMonthlyCents: number;
}

export interface SoftwareConfig {
  pipIndexUrl: string | undefined;
  pipExtraIndexUrl: string | undefined;
  /** Builds no alias uses any more lose their files after this long (lockfile and logs stay). */
  retentionMs: number;
  /** What pip runs with: this server's environment minus its secrets (HOME, PATH, PIP_*, proxies). */
  buildEnv: Record<string, string>;
  /** Clusters created without an environment run on a default one with a bokeh Dask can serve its dashboard with. */
  defaultEnvironment: boolean;
}

export interface LocalIsolationConfig {
  setting: 'auto' | 'users' | 'operator';
  uidBase: number;
  uidCount: number;
  registryDir: string;
}

/** Timings of the cluster control loop and of the instance agents, in milliseconds. */
export interface ClusterTimings {
  reconcileIntervalMs: number;
  /** How often agents heartbeat (they are told at bootstrap). */
  heartbeatIntervalMs: number;
  /** An instance silent this long is marked `error`. */
  heartbeatTimeoutMs: number;
  /** Instances' host samples (CPU, memory, network, disk, GPU) older than this go. */
  hostMetricsRetentionMs: number;
  /**
   * An agent that cannot reach the control plane this long stops itself and its processes (30
   * minutes by default: an outage or upgrade of the control plane costs no cluster).
   */
  agentUnreachableMs: number;
  /** Between TERM and KILL when an instance is stopped. */
  stopGraceMs: number;
}

const INSTANCE_ENV = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'TZ'];
/** Builds see what pip needs of the server's environment, and none of Cumulus' own settings. */
const BUILD_ENV =
  /^(PATH|HOME|LANG|LC_[A-Z]+|TMPDIR|TZ|XDG_[A-Z_]+|PIP_[A-Z_]+|(HTTPS?|NO|ALL)_PROXY|(https?|no|all)_proxy|SSL_CERT_(FILE|DIR)|REQUESTS_CA_BUNDLE)$/;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means unset, as in most shells' `VAR= cmd`.
  const given = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.CUMULUS_DATA_DIR);
  const displayHost = e.HOST === '0.0.0.0' || e.HOST === '::' ? '127.0.0.1' : e.HOST;
  const publicUrl = (e.CUMULUS_PUBLIC_URL ?? `http://${displayHost}:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    proxyOrigin: proxyOrigin(e.CUMULUS_PROXY_ORIGIN, publicUrl),
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.CUMULUS_DATABASE_POOL_SIZE,
    databaseAgentPoolSize: e.CUMULUS_DATABASE_AGENT_POOL_SIZE,
    dataDir,
    secret: e.CUMULUS_SECRET ?? loadOrCreateSecret(dataDir),
    smtpUrl: e.CUMULUS_SMTP_URL,
    mailFrom: e.CUMULUS_MAIL_FROM,
    python: e.CUMULUS_PYTHON,
    containers:
      e.CUMULUS_PODMAN === 'off' ? null : { podman: e.CUMULUS_PODMAN, runtime: e.CUMULUS_CONTAINER_RUNTIME },
    staffEmails: new Set(
      e.CUMULUS_STAFF_EMAILS.split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
    shutdownGraceMs: e.CUMULUS_SHUTDOWN_GRACE_SECONDS * 1000,
    logLevel: e.CUMULUS_LOG_LEVEL,
    logFormat: e.CUMULUS_LOG_FORMAT,
    webDist: path.resolve(e.CUMULUS_WEB_DIST ?? WEB_DIST_DIR),
    docsRoot: REPOSITORY_DIR,
    clusters: {
      reconcileIntervalMs: e.CUMULUS_RECONCILE_INTERVAL_SECONDS * 1000,
      heartbeatIntervalMs: e.CUMULUS_HEARTBEAT_INTERVAL_SECONDS * 1000,
      heartbeatTimeoutMs: e.CUMULUS_HEARTBEAT_TIMEOUT_SECONDS * 1000,
      agentUnreachableMs: e.CUMULUS_AGENT_UNREACHABLE_SECONDS * 1000,
      stopGraceMs: e.CUMULUS_INSTANCE_STOP_GRACE_SECONDS * 1000,
      hostMetricsRetentionMs: e.CUMULUS_HOST_METRICS_RETENTION_DAYS * 86_400_000,
    },
    software: {
      pipIndexUrl: e.CUMULUS_PIP_INDEX_URL,
      pipExtraIndexUrl: e.CUMULUS_PIP_EXTRA_INDEX_URL,
      retentionMs: e.CUMULUS_BUILD_RETENTION_DAYS * 86_400_000,
      defaultEnvironment: e.CUMULUS_DEFAULT_ENVIRONMENT === 'on',
      buildEnv: Object.fromEntries(
        Object.entries(given).filter((entry): entry is [string, string] => BUILD_ENV.test(entry[0])),
      ),
    },
    usage: {
      localCoreHourUsd: e.CUMULUS_LOCAL_CORE_HOUR_USD,
      localGibHourUsd: e.CUMULUS_LOCAL_GIB_HOUR_USD,
      minuteMs: e.CUMULUS_METER_MINUTE_SECONDS * 1000,
      retentionMs: e.CUMULUS_USAGE_RETENTION_DAYS * 86_400_000,
    },
    billing: {
      stripeSecretKey: e.CUMULUS_STRIPE_SECRET_KEY,
      stripeWebhookSecret: e.CUMULUS_STRIPE_WEBHOOK_SECRET,
      stripeApiUrl: e.CUMULUS_STRIPE_API_URL,
      stripePriceId: e.CUMULUS_STRIPE_PRICE_ID,
      proMonthlyCents: Math.round(e.CUMULUS_PRO_MONTHLY_USD * 100),
    },
    aws: {
      cfTemplateUrl: e.CUMULUS_AWS_CF_TEMPLATE_URL ?? null,
      amiName: e.CUMULUS_AWS_AMI_NAME,
      amiNameArm64: e.CUMULUS_AWS_AMI_NAME_ARM64,
      amiOwner: e.CUMULUS_AWS_AMI_OWNER ?? null,
    },
    gcp: {
      tokenUrl: e.CUMULUS_GCP_TOKEN_URL,
      computeUrl: e.CUMULUS_GCP_COMPUTE_URL.replace(/\/+$/, ''),
      storageUrl: e.CUMULUS_GCP_STORAGE_URL.replace(/\/+$/, ''),
      resourceManagerUrl: e.CUMULUS_GCP_RESOURCE_MANAGER_URL.replace(/\/+$/, ''),
      images: { x86_64: e.CUMULUS_GCP_IMAGE, arm64: e.CUMULUS_GCP_IMAGE_ARM64, gpu: e.CUMULUS_GCP_IMAGE_GPU },
      workloadIdentity: e.CUMULUS_GCP_WORKLOAD_IDENTITY === 'true',
      metadataUrl: e.CUMULUS_GCP_METADATA_URL.replace(/\/+$/, ''),
    },
    warmProcesses: e.CUMULUS_WARM_PROCESSES,
    sshWarmProcesses: e.CUMULUS_SSH_WARM_PROCESSES,
    instanceEnv: Object.fromEntries(
      INSTANCE_ENV.flatMap((name) => (given[name] ? [[name, given[name] as string]] : [])),
    ),
    localIsolation: {
      setting: e.CUMULUS_LOCAL_ISOLATION,
      uidBase: e.CUMULUS_LOCAL_UID_BASE,
      uidCount: e.CUMULUS_LOCAL_UID_COUNT,
      registryDir: path.resolve(e.CUMULUS_LOCAL_UID_REGISTRY),
    },
    links: {
      supportEmail: e.CUMULUS_SUPPORT_EMAIL ?? null,
      docsUrl: e.CUMULUS_DOCS_URL ?? '/docs',
      communityUrl: e.CUMULUS_COMMUNITY_URL ?? null,
      termsUrl: e.CUMULUS_TERMS_URL ?? null,
      bookDemoUrl: e.CUMULUS_BOOK_DEMO_URL ?? null,
    },
    hostedService: e.CUMULUS_HOSTED_SERVICE === 'true',
    slurmLocalLogin: e.CUMULUS_SLURM_LOCAL_LOGIN === 'true',
    signIn: {
      dnsServers: (e.CUMULUS_DNS_SERVERS ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      allowedIssuers: issuerList(e.CUMULUS_SSO_ALLOWED_ISSUERS),
      sso: both(e.CUMULUS_OIDC_CLIENT_ID, e.CUMULUS_OIDC_CLIENT_SECRET, 'CUMULUS_OIDC', e.CUMULUS_OIDC_ISSUER)
        ? {
            issuer: e.CUMULUS_OIDC_ISSUER as string,
            clientId: e.CUMULUS_OIDC_CLIENT_ID as string,
            clientSecret: e.CUMULUS_OIDC_CLIENT_SECRET as string,
            name: e.CUMULUS_OIDC_NAME,
          }
        : null,
      google: both(e.CUMULUS_GOOGLE_CLIENT_ID, e.CUMULUS_GOOGLE_CLIENT_SECRET, 'CUMULUS_GOOGLE')
        ? {
            issuer: e.CUMULUS_GOOGLE_ISSUER,
            clientId: e.CUMULUS_GOOGLE_CLIENT_ID as string,
            clientSecret: e.CUMULUS_GOOGLE_CLIENT_SECRET as string,
            name: 'Google',
          }
        : null,
      github: both(e.CUMULUS_GITHUB_CLIENT_ID, e.CUMULUS_GITHUB_CLIENT_SECRET, 'CUMULUS_GITHUB')
        ? {
            url: e.CUMULUS_GITHUB_URL.replace(/\/+$/, ''),
            apiUrl: e.CUMULUS_GITHUB_API_URL.replace(/\/+$/, ''),
            clientId: e.CUMULUS_GITHUB_CLIENT_ID as string,
            clientSecret: e.CUMULUS_GITHUB_CLIENT_SECRET as string,
            name: 'GitHub',
          }
        : null,
    },
  };
}

/**
 * Whether a provider is configured: its client id and secret (and issuer, for SSO) are all given,
 * or none is. Half a configuration is a mistake the operator should hear of at start, not at sign-in.
 */
function both(
  id: string | undefined,
  secret: string | undefined,
  prefix: string,
  ...more: Array<string | undefined>
) {
  const parts = [id, secret, ...more];
  if (parts.every((part) => part === undefined)) return false;
  if (parts.some((part) => part === undefined)) {
    const needed =
      prefix === 'CUMULUS_OIDC' ? 'ISSUER, _CLIENT_ID and _CLIENT_SECRET' : 'CLIENT_ID and _CLIENT_SECRET';
    throw new Error(`Invalid configuration:\n  ${prefix}: set ${prefix}_${needed} together, or none of them`);
  }
  return true;
}

/** Generated once and kept in the data dir, so restarts keep sessions and encrypted values readable. */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}
