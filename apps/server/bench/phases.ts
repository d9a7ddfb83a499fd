import { median } from './clusters-start.js';

/** When each object type first reached each state, in ms after the create was sent ("instance started" -> 412). */
export type Phases = Map<string, number>;

interface StateRecord {
  updated: string;
  state: string;
}

/**
 * A start's phases from its state records (`GET .../states`): for each object type and state, when
 * the last of its objects got there (the cluster waits for the last worker), in ms after `createdAt`.
 */
export function phasesOf(answer: unknown, createdAt: number): Phases {
  const states = answer as Record<string, StateRecord[]>;
  const phases: Phases = new Map();
  for (const [type, records] of Object.entries(states)) {
    for (const r of records) {
      const key = `${type} ${r.state}`;
      const at = Date.parse(r.updated) - createdAt;
      phases.set(key, Math.max(phases.get(key) ?? 0, at));
    }
  }
  return phases;
}

/** One line per phase, in the order they happen, with each backend's median beside the others'. */
export function printPhases(timelines: Map<string, Phases[]>): void {
  const kinds = [...timelines.keys()];
  const medians = new Map(
    kinds.map((kind) => {
      const runs = timelines.get(kind) ?? [];
      const keys = new Set(runs.flatMap((p) => [...p.keys()]));
      return [kind, new Map([...keys].map((k) => [k, median(runs.map((p) => p.get(k) ?? Number.NaN))]))];
    }),
  );
  const keys = [...new Set([...medians.values()].flatMap((m) => [...m.keys()]))]
    .filter((k) => !/stopp|error/.test(k))
    .sort((a, b) => (medians.get(kinds[0]!)?.get(a) ?? 0) - (medians.get(kinds[0]!)?.get(b) ?? 0));
  console.log(
    `\n  where the time goes (ms after the create, median; the last object of each type to get there)`,
  );
  console.log(`  ${'phase'.padEnd(32)}${kinds.map((k) => k.padStart(10)).join('')}`);
  for (const key of keys)
    console.log(
      `  ${key.padEnd(32)}${kinds.map((k) => String(Math.round(medians.get(k)?.get(key) ?? Number.NaN)).padStart(10)).join('')}`,
    );
}
