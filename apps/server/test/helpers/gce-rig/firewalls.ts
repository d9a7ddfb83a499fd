import { type Links, newId } from './catalog.js';
import { alreadyExists, badRequest, notFound, type Operation, type Operations } from './operations.js';

const NAME = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;
/** IP protocols by name (else a protocol number). */
const PROTOCOLS = new Set(['tcp', 'udp', 'icmp', 'esp', 'ah', 'sctp', 'ipip', 'all']);

/**
 * The project's firewall rules (global): insert, get, list, delete, checked as Compute Engine checks
 * them: a name, exactly one of allowed or denied, protocols and ports, source ranges (IPv4 CIDRs),
 * tags, the network. Google's `Invalid value for field` opening; the words after it are the rig's.
 */
export class Firewalls {
  readonly rules = new Map<string, Record<string, unknown>>();
  constructor(
    readonly links: Links,
    readonly operations: Operations,
  ) {}

  get(name: string): Record<string, unknown> {
    const rule = this.rules.get(name);
    if (!rule) throw notFound(`projects/${this.links.project}/global/firewalls/${name}`);
    return rule;
  }

  insert(body: Record<string, unknown>): Operation {
    const name = body.name as string | undefined;
    if (!name || !NAME.test(name))
      throw badRequest(
        `Invalid value for field 'resource.name': '${name ?? ''}'. Must be a match of regex '(?:[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?)'`,
      );
    if (this.rules.has(name)) throw alreadyExists(`projects/${this.links.project}/global/firewalls/${name}`);
    const allowed = body.allowed as unknown[] | undefined;
    const denied = body.denied as unknown[] | undefined;
    if (!allowed?.length && !denied?.length)
      throw badRequest(
        "Invalid value for field 'resource': ''. Exactly one of allowed or denied must be specified.",
      );
    (allowed ?? denied ?? []).forEach((entry, i) => {
      const { IPProtocol: protocol, ports = [] } = entry as { IPProtocol?: string; ports?: string[] };
      const field = `resource.${allowed?.length ? 'allowed' : 'denied'}[${i}]`;
      if (!protocol || !(PROTOCOLS.has(protocol) || /^\d{1,3}$/.test(protocol)))
        throw badRequest(
          `Invalid value for field '${field}.IPProtocol': '${protocol ?? ''}'. Invalid IP protocol specification.`,
        );
      ports.forEach((port, j) => {
        const [low, high = low] = port.split('-').map(Number);
        const ok = /^\d+(-\d+)?$/.test(port) && low! >= 0 && high! <= 65535 && low! <= high!;
        if (!ok || !['tcp', 'udp', 'sctp'].includes(protocol))
          throw badRequest(
            `Invalid value for field '${field}.ports[${j}]': '${port}'. Invalid port specification.`,
          );
      });
    });
    (body.sourceRanges as string[] | undefined)?.forEach((range, i) => {
      const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/.exec(range);
      if (!m || m.slice(1, 5).some((o) => Number(o) > 255) || Number(m[5] ?? 32) > 32)
        throw badRequest(
          `Invalid value for field 'resource.sourceRanges[${i}]': '${range}'. Must be a CIDR address range that is contained in the network.`,
        );
    });
    for (const field of ['sourceTags', 'targetTags'] as const)
      (body[field] as string[] | undefined)?.forEach((tag, i) => {
        if (!NAME.test(tag))
          throw badRequest(
            `Invalid value for field 'resource.${field}[${i}]': '${tag}'. Must be a match of regex '(?:[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?)'`,
          );
      });
    const network = String(body.network ?? 'global/networks/default');
    if (!/(^|\/)global\/networks\/default$/.test(network))
      throw badRequest(
        `Invalid value for field 'resource.network': '${network}'. The referenced network resource cannot be found.`,
      );
    const id = newId();
    const link = this.links.global('firewalls', name);
    const rule = {
      kind: 'compute#firewall',
      priority: 1000,
      direction: 'INGRESS',
      disabled: false,
      logConfig: { enable: false },
      ...body,
      id,
      creationTimestamp: new Date().toISOString(),
      network: this.links.global('networks', 'default'),
      selfLink: link,
    };
    return this.operations.start('global', 'insert', { link, id }, () => this.rules.set(name, rule));
  }

  delete(name: string): Operation {
    const rule = this.get(name);
    return this.operations.start(
      'global',
      'delete',
      { link: rule.selfLink as string, id: rule.id as string },
      () => this.rules.delete(name),
    );
  }
}
