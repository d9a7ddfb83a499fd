import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BACKEND_ID_VAR,
  findInstanceProcesses,
  processesChanged,
  signalGroups,
} from '../src/compute/local-processes.js';

/**
 * Local instances are found by scanning /proc. Callers at the same moment share a scan (a cluster's
 * launches and stops ask for every instance at once), but never one that began before this server
 * started or signalled a process: a launch must not be told its instance is missing, nor a stop
 * that it still runs, by a scan older than the change.
 */
const scans = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:fs/promises', async (original) => {
  const fs = await original<typeof import('node:fs/promises')>();
  return {
    ...fs,
    readdir: (...args: Parameters<typeof fs.readdir>) => {
      if (args[0] === '/proc') scans.count++;
      return fs.readdir(...args);
    },
  };
});

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

function instanceProcess(backendId: string): ChildProcess {
  const child = spawn('sleep', ['60'], {
    detached: true,
    stdio: 'ignore',
    env: { ...process.env, [BACKEND_ID_VAR]: backendId },
  });
  started.push(child);
  return child;
}

describe('local instance processes', () => {
  it('answers callers at the same moment each their own instance', async () => {
    const [idA, idB] = [`a-${randomUUID()}`, `b-${randomUUID()}`];
    const a = instanceProcess(idA);
    const b = instanceProcess(idB);
    processesChanged();
    const [foundA, foundB, all] = await Promise.all([
      findInstanceProcesses(idA),
      findInstanceProcesses(idB),
      findInstanceProcesses(),
    ]);
    expect(foundA.map((p) => p.pid)).toEqual([a.pid]);
    expect(foundB.map((p) => p.pid)).toEqual([b.pid]);
    expect(all.map((p) => p.pid)).toEqual(expect.arrayContaining([a.pid, b.pid]));
    signalGroups(
      all.filter((p) => p.backendId === idA || p.backendId === idB),
      'SIGKILL',
    );
  });

  it('does not answer from a scan begun before a process was started', async () => {
    const id = `late-${randomUUID()}`;
    const scansAtStart = scans.count;
    // Begun now; whether its reading of /proc sees the process below is a race it must not decide.
    const before = findInstanceProcesses();
    const child = instanceProcess(id);
    processesChanged();
    expect((await findInstanceProcesses(id)).map((p) => p.pid)).toEqual([child.pid]);
    await before;
    expect(scans.count - scansAtStart).toBe(2);
  });

  it('shares one scan among callers at the same moment when nothing changed between them', async () => {
    const scansAtStart = scans.count;
    await Promise.all([findInstanceProcesses(), findInstanceProcesses('x'), findInstanceProcesses('y')]);
    expect(scans.count - scansAtStart).toBe(1);
  });
});
