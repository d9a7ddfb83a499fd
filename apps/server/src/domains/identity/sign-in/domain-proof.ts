import { Resolver } from 'node:dns/promises';

/** The TXT value that proves an organization controls an email domain. */
export const domainRecord = (token: string) => `cumulus-domain-verification=${token}`;

/** Looks up a name's TXT records (each record's strings joined); [] when it has none. */
export type TxtLookup = (name: string) => Promise<string[]>;

/**
 * TXT look-ups through node:dns, at the DNS servers the operator configured
 * (CUMULUS_DNS_SERVERS, `host` or `host:port`) or else the system's.
 */
export function txtLookup(servers: string[]): TxtLookup {
  const resolver = new Resolver({ timeout: 5000, tries: 2 });
  if (servers.length > 0) resolver.setServers(servers);
  return async (name) => {
    try {
      return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(''));
    } catch (err) {
      const code = (err as { code?: string }).code;
      // The name or its TXT records do not exist (yet): nothing proves the domain.
      if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
      throw err;
    }
  };
}
