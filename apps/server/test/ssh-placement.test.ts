import { describe, expect, it } from 'vitest';
import { BackendError } from '../src/compute/backend.js';
import { cudaVisibleDevices, gpuDevicesFor, type HostRoom, placeOn } from '../src/compute/ssh/placement.js';

/**
 * Placement on SSH hosts (compute/ssh/placement.ts) with GPUs: an instance asking N GPUs goes only
 * to a host with N free, best fit (GPUs left first, then cores, then memory), each instance given
 * device indices of its own; refused naming GPUs where GPUs are what is short.
 */
const host = (id: number, over: Partial<HostRoom> = {}): HostRoom => ({
  id,
  name: `rig-${id} (127.0.0.${id})`,
  cores: 8,
  memoryMib: 16_384,
  gpus: 0,
  usedCores: 0,
  usedMemoryMib: 0,
  usedGpuDevices: [],
  ...over,
});

const ask = (gpus: number, cores = 1, memoryMib = 1024) => ({ cores, memoryMib, gpus });

/** The error placement throws: its reason and whether the reconciler waits and tries again. */
function refusal(work: () => unknown): { reason: string; retryable: boolean } {
  try {
    work();
  } catch (err) {
    if (err instanceof BackendError) return { reason: err.reason, retryable: err.retryable };
    throw err;
  }
  throw new Error('placement did not refuse');
}

describe('placement with GPUs', () => {
  it('sends an instance asking GPUs only to a host with that many free', () => {
    const hosts = [host(2), host(3, { gpus: 1 }), host(4, { gpus: 2, usedGpuDevices: [0] })];
    // Host 3 and host 4 each have one free GPU: the emptier by cores (a tie) goes by id.
    expect(placeOn(hosts, ask(1)).id).toBe(3);
    expect(placeOn([host(2), host(4, { gpus: 4, usedGpuDevices: [1, 2] })], ask(2)).id).toBe(4);
    // Two asked: host 4 has 2 but one is taken, host 3 has 1.
    expect(
      refusal(() =>
        placeOn([host(2), host(3, { gpus: 1 }), host(4, { gpus: 2, usedGpuDevices: [1] })], ask(2)),
      ),
    ).toEqual({
      reason:
        'Every SSH host that could hold 1 core, 1 GiB and 2 GPUs is full (rig-4 (127.0.0.4): 8 of 8 cores and 1 of 2 GPUs free); waiting for room.',
      retryable: true,
    });
  });

  it('fills best: GPUs left first, so instances asking none keep off the GPU hosts while others have room', () => {
    const plain = host(2, { cores: 4 });
    const gpu = host(3, { cores: 4, gpus: 2 });
    expect(placeOn([gpu, plain], ask(0)).id).toBe(2);
    // The smaller GPU host is filled first; the larger keeps room for an instance asking 4.
    expect(placeOn([host(3, { gpus: 4 }), host(4, { gpus: 1 })], ask(1)).id).toBe(4);
    // A full plain host leaves the GPU host to it.
    expect(placeOn([gpu, host(2, { cores: 4, usedCores: 4 })], ask(0)).id).toBe(3);
  });

  it('refuses for good, naming the hosts GPU counts, an instance asking more GPUs than any host has', () => {
    expect(refusal(() => placeOn([host(2), host(3, { gpus: 1 })], ask(2)))).toEqual({
      reason:
        'No SSH host of this workspace has 2 GPUs: rig-3 (127.0.0.3) has 1, rig-2 (127.0.0.2) has none. Ask for fewer GPUs per instance, or register a host with more (its gpus).',
      retryable: false,
    });
    // Enough GPUs, too few cores there: said with the GPUs it asks.
    expect(
      refusal(() => placeOn([host(2, { cores: 32 }), host(3, { cores: 4, gpus: 1 })], ask(1, 8))),
    ).toEqual({
      reason:
        'No SSH host of this workspace has 8 cores, 1 GiB and 1 GPU: the largest with 1 GPU, rig-3 (127.0.0.3), has 4 cores and 16 GiB.',
      retryable: false,
    });
  });

  it('keeps the words of a placement without GPUs', () => {
    expect(refusal(() => placeOn([host(2, { cores: 3, memoryMib: 4096 })], ask(0, 8)))).toEqual({
      reason:
        'No SSH host of this workspace has 8 cores and 1 GiB: the largest, rig-2 (127.0.0.2), has 3 cores and 4 GiB.',
      retryable: false,
    });
    expect(refusal(() => placeOn([host(2, { cores: 3, usedCores: 3 })], ask(0, 2)))).toEqual({
      reason:
        'Every SSH host that could hold 2 cores and 1 GiB is full (rig-2 (127.0.0.2): 0 of 3 cores free); waiting for room.',
      retryable: true,
    });
  });

  it('gives each instance the lowest device indices no other instance on the host holds', () => {
    expect(gpuDevicesFor(4, [], 2)).toEqual([0, 1]);
    expect(gpuDevicesFor(4, [0, 2], 2)).toEqual([1, 3]);
    expect(gpuDevicesFor(4, [1], 1)).toEqual([0]);
    expect(gpuDevicesFor(2, [0, 1], 0)).toEqual([]);
    expect(refusal(() => gpuDevicesFor(2, [1], 2)).retryable).toBe(true);
  });

  it('shows an instance exactly its devices, and none of another on a host with GPUs', () => {
    expect(cudaVisibleDevices(4, [1, 3])).toBe('1,3');
    expect(cudaVisibleDevices(2, [])).toBe('');
    expect(cudaVisibleDevices(0, [])).toBeUndefined();
  });
});
