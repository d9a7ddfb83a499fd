import { ShieldIcon } from 'lucide-react';

import type { ClusterDetails } from '@/data/clusters/cluster-details-query';

type FirewallSpec = NonNullable<ClusterDetails['clusterOptions']['firewallSpec']>;

/** Ports whose use is known whatever the cluster (the scheduler's is known once it listens). */
const KNOWN: Record<number, string> = { 22: 'SSH', 15003: 'Spark' };

/**
 * The cluster's own firewall (vm_aws `firewall_spec`): which ports open to whom, beside the
 * workspace's network (the control plane reaches dashboards through that).
 */
export function ClusterFirewall({ spec, schedulerPort }: { spec: FirewallSpec; schedulerPort: number }) {
  const named = (port: number) => {
    const use = schedulerPort > 0 && port === schedulerPort ? 'scheduler' : KNOWN[port];
    return use ? `${port} (${use})` : String(port);
  };
  return (
    <section aria-labelledby="cluster-firewall" className="rounded-lg border p-4">
      <h2 id="cluster-firewall" className="flex items-center gap-2 text-sm font-medium">
        <ShieldIcon className="size-4" aria-hidden="true" />
        Firewall
      </h2>
      <p className="text-muted-foreground mt-1 text-xs">
        Open to these addresses besides the workspace's network. Every port is open between the cluster's
        machines.
      </p>
      {spec.ingress.length === 0 ? (
        <p className="mt-3 text-sm">No port is open to other addresses.</p>
      ) : (
        <ul className="mt-3 grid gap-2">
          {spec.ingress.map((rule) => (
            <li
              key={`${rule.cidr}:${rule.ports.join(',')}`}
              className="flex flex-wrap items-baseline gap-x-2 gap-y-1 text-sm"
            >
              <code className="font-mono text-xs">
                {rule.cidr === '0.0.0.0/0' ? '0.0.0.0/0 (everyone)' : rule.cidr}
              </code>
              <span className="text-muted-foreground">
                port{rule.ports.length > 1 ? 's' : ''} {rule.ports.map(named).join(', ')}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
