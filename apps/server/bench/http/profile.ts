import { readFileSync } from 'node:fs';

/** The parts of a V8 CPU profile (node --cpu-prof) read here. */
interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }>;
  samples: number[];
  timeDeltas: number[];
}

/** Where a function lives, coarsely: whose code a request spends its time in. */
function area(url: string): string {
  if (url === '') return 'V8 and the kernel (system calls, GC)';
  if (url.startsWith('node:')) return 'Node.js (http, net, streams, crypto)';
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency) return dependency[1]!;
  return 'Cumulus';
}

function where(frame: CpuProfile['nodes'][number]['callFrame']): string {
  const file = frame.url.replace(/^.*node_modules\//, '').replace(/^.*apps\/server\//, '');
  return `${frame.functionName || '(anonymous)'} ${file || '(native)'}${file ? `:${frame.lineNumber + 1}` : ''}`;
}

/**
 * Prints where the busy time of a profile went: by area (Cumulus, each dependency, Node.js,
 * V8 and the kernel) and the functions with the most time of their own. Idle time is left out.
 */
export function printProfile(label: string, file: string, top = 12): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (const [i, id] of profile.samples.entries()) {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  let busy = 0;
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, micros] of self) {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === '(idle)') continue;
    busy += micros;
    const a = area(frame.url);
    areas.set(a, (areas.get(a) ?? 0) + micros);
    const w = where(frame);
    functions.set(w, (functions.get(w) ?? 0) + micros);
  }
  const share = (micros: number) => `${((micros / busy) * 100).toFixed(1).padStart(5)}%`;
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  console.log(`  profile of ${label}: ${(busy / 1e6).toFixed(1)} s busy (${file})`);
  console.log(
    `    by area: ${sorted(areas)
      .slice(0, 6)
      .map(([a, t]) => `${a} ${share(t).trim()}`)
      .join(', ')}`,
  );
  for (const [w, t] of sorted(functions).slice(0, top)) console.log(`    ${share(t)}  ${w}`);
}
