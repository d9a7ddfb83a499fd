import { ACCELERATOR_TYPES, type Links, lastSegments, type MachineTypeRow } from './catalog.js';
import { badRequest } from './operations.js';

type AcceleratorConfig = { acceleratorType?: string; acceleratorCount?: number };

/**
 * An inserted instance's GPUs, checked as Compute Engine checks them: `guestAccelerators` only on
 * N1 types (an accelerator-optimized type brings its own: asking others is incompatible), each
 * accelerator type one of the instance's zone, a count that type allows, and a VM with GPUs set to
 * stop for host maintenance (it cannot be live-migrated). Answers the instance's
 * `guestAccelerators` as Compute Engine shows them (full links, a G2's or A2's own included).
 *
 * The refusals' words: "The resource '.../acceleratorTypes/T' was not found" and "Instances with
 * guest accelerators do not support live migration." as Google's errors read in recorded
 * failures (gcloud's and Terraform's output); "[T, type] features are not compatible for creating
 * instance." as Google answers an A100 on an N1; the count's message after Google's usual
 * `Invalid value for field` opening is the rig's own (no recorded one was found).
 */
export function guestAccelerators(
  links: Links,
  zone: string,
  type: MachineTypeRow,
  body: Record<string, unknown>,
): { acceleratorType: string; acceleratorCount: number }[] {
  const asked = (body.guestAccelerators as AcceleratorConfig[] | undefined) ?? [];
  const scheduling = (body.scheduling as Record<string, unknown> | undefined) ?? {};
  const link = (name: string) => `${links.zone(zone)}/acceleratorTypes/${name}`;
  const own = (type.accelerators ?? []).map((a) => ({
    acceleratorType: link(a.guestAcceleratorType),
    acceleratorCount: a.guestAcceleratorCount,
  }));
  const attached = asked.map((a, i) => {
    const [where, collection, name] = lastSegments(String(a.acceleratorType ?? ''), 3);
    const row = ACCELERATOR_TYPES.find((r) => r.name === name && r.zones.includes(zone));
    if (collection !== 'acceleratorTypes' || where !== zone || !row)
      throw badRequest(
        `The resource 'projects/${links.project}/zones/${zone}/acceleratorTypes/${name ?? ''}' was not found`,
        'badRequest',
      );
    const builtIn = type.accelerators?.find((b) => b.guestAcceleratorType === name);
    const attachable = type.name.startsWith('n1-') && row.counts;
    if (!attachable && !builtIn)
      throw badRequest(
        `[${name}, ${type.name}] features are not compatible for creating instance.`,
        'badRequest',
      );
    const count = Number(a.acceleratorCount ?? 0);
    const allowed = builtIn ? [builtIn.guestAcceleratorCount] : (row.counts ?? []);
    if (!allowed.includes(count))
      throw badRequest(
        `Invalid value for field 'resource.guestAccelerators[${i}].acceleratorCount': '${count}'. ${name} takes ${allowed.join(', ')} per instance with machine type ${type.name}.`,
      );
    return { acceleratorType: link(name!), acceleratorCount: count };
  });
  const gpus = attached.length ? attached : own;
  const spot = scheduling.provisioningModel === 'SPOT' || scheduling.preemptible === true;
  const maintenance = scheduling.onHostMaintenance ?? (spot ? 'TERMINATE' : 'MIGRATE');
  if (gpus.length && maintenance !== 'TERMINATE')
    throw badRequest('Instances with guest accelerators do not support live migration.', 'badRequest');
  return gpus;
}
