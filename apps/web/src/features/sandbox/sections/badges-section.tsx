import { PageSection } from '@/components/page';
import { StateChip } from '@/components/state-chip';
import { Badge } from '@/components/ui/badge';

const STATES = [
  'ready',
  'started',
  'built',
  'pending',
  'queued',
  'starting',
  'scaling',
  'pausing',
  'stopping',
  'paused',
  'stopped',
  'error',
  'rebalancing',
];

export function BadgesSection() {
  return (
    <PageSection
      id="badges"
      title="Badges and state chips"
      description="State chips color cluster, instance and build states."
    >
      <div className="bg-card grid gap-6 rounded-xl border p-6">
        <div className="flex flex-wrap items-center gap-2">
          <Badge>Default</Badge>
          <Badge variant="secondary">Secondary</Badge>
          <Badge variant="outline">Outline</Badge>
          <Badge variant="destructive">Destructive</Badge>
          <Badge variant="outline">Org admin</Badge>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {STATES.map((state) => (
            <StateChip key={state} state={state} />
          ))}
          <StateChip
            state="starting"
            label="Downloading Environment"
            title="Instance ready, process starting"
          />
        </div>
      </div>
    </PageSection>
  );
}
