import { type Links, newId } from './catalog.js';
import { alreadyExists, badRequest, notFound, type Operation, type Operations } from './operations.js';

const NAME = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** The project's firewall rules (global): insert, get, list, delete, checked as Compute Engine checks them. */
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
