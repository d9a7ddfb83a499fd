import type { FirewallSpec } from '../../compute/backend.js';
import { z } from '../../http/zod.js';

/**
 * A cluster's own firewall as clients send it: backend options
 * `firewall_spec: {"ingress": [{"ports": [int, ...], "cidr": "a.b.c.d/n"}, ...]}`.
 */

/** Rules one cluster may have (a security group holds at most 60 inbound rules per CIDR kind). */
export const MAX_INGRESS_RULES = 20;
/** Ports one rule may open. */
export const MAX_RULE_PORTS = 20;

const ipv4Cidr = z.string().refine((v) => {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(v);
  return !!m && m.slice(1, 5).every((o) => Number(o) <= 255) && Number(m[5]) <= 32;
}, 'Enter an IPv4 CIDR block, like 203.0.113.7/32 (0.0.0.0/0 for everyone).');

const port = z
  .number('A port is a whole number from 1 to 65535.')
  .int('A port is a whole number from 1 to 65535.')
  .min(1, 'A port is a whole number from 1 to 65535.')
  .max(65535, 'A port is a whole number from 1 to 65535.');

export const firewallSpecSchema = z.strictObject(
  {
    ingress: z
      .array(
        z.strictObject(
          {
            ports: z
              .array(port)
              .min(1, 'A rule opens at least one port.')
              .max(MAX_RULE_PORTS, `A rule opens at most ${MAX_RULE_PORTS} ports.`),
            cidr: ipv4Cidr,
          },
          'A rule is {"ports": [int, ...], "cidr": "a.b.c.d/n"}.',
        ),
        'ingress is a list of rules {"ports": [int, ...], "cidr": "a.b.c.d/n"}.',
      )
      .max(MAX_INGRESS_RULES, `A cluster's firewall has at most ${MAX_INGRESS_RULES} ingress rules.`),
  },
  'firewall_spec is {"ingress": [{"ports": [int, ...], "cidr": "a.b.c.d/n"}, ...]}.',
);

/** The spec checked: the first problem's words (with where it is), or the spec with its ports deduplicated. */
export function checkFirewallSpec(value: unknown): { spec: FirewallSpec } | { problem: string } {
  const parsed = firewallSpecSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? ` (firewall_spec.${issue.path.join('.')})` : '';
    return { problem: `${issue.message}${where}` };
  }
  return {
    spec: {
      ingress: parsed.data.ingress.map((r) => ({
        ports: [...new Set(r.ports)].sort((a, b) => a - b),
        cidr: r.cidr,
      })),
    },
  };
}

/** The firewall a stored cluster asked for (its backend options), or none. */
export function firewallOf(options: Record<string, unknown>): FirewallSpec | undefined {
  const backendOptions = (options.options ?? {}) as Record<string, unknown>;
  if (backendOptions.firewall_spec === undefined || backendOptions.firewall_spec === null) return undefined;
  const checked = checkFirewallSpec(backendOptions.firewall_spec);
  return 'spec' in checked ? checked.spec : undefined;
}
