import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hourlyPrice, minutePrice } from '../src/domains/billing/usage/prices.js';
import type { Api } from './helpers/api.js';
import { createUser } from './helpers/factories.js';
import { startTestServer, type TestServer } from './helpers/server.js';

/** The instance type catalogue as clients choose from it and the console lists it. */
let ts: TestServer;
let api: Api;

beforeAll(async () => {
  ts = await startTestServer();
  api = ts.api.as((await createUser(ts)).key);
});
afterAll(async () => ts?.close());

describe('GET /api/v1/vm-types/', () => {
  it('answers exactly 200 with {results, next} matching the filters, memory in MiB', async () => {
    const res = await api.get('/api/v1/vm-types/', {
      query: {
        backend_type: 'vm_aws',
        cores__gte: 4,
        cores__lte: 4,
        memory__gte: 16384,
        gpus: 0,
        arch: 'x86_64',
      },
    });
    expect(res.status).toBe(200);
    const names = res.body.results.map((t: { name: string }) => t.name);
    expect(names).toEqual(expect.arrayContaining(['m6i.xlarge', 'm5.xlarge', 't3.xlarge']));
    expect(names).not.toContain('m7g.xlarge'); // arm
    expect(names).not.toContain('c6i.xlarge'); // 8 GiB
    expect(names).not.toContain('g4dn.xlarge'); // a GPU
    const m6i = res.body.results.find((t: { name: string }) => t.name === 'm6i.xlarge');
    expect(m6i).toMatchObject({
      cores: 4,
      memory: 16384,
      gpus: 0,
      backend_type: 'vm_aws',
      coiled_credits: 4,
    });
    expect(res.body.next).toBeNull();
  });

  it('pages with next links until the last page', async () => {
    const first = await api.get('/api/v1/vm-types/', { query: { page_size: 5 } });
    expect(first.status).toBe(200);
    expect(first.body.results).toHaveLength(5);
    expect(first.body.next).toContain('page=2');
    const seen = new Set<string>();
    let url: string | null = '/api/v1/vm-types/?page_size=5';
    while (url) {
      const res: { body: { results: { name: string }[]; next: string | null } } = await api.get(
        url.replace(/^https?:\/\/[^/]+/, ''),
      );
      for (const t of res.body.results) seen.add(t.name);
      url = res.body.next;
    }
    expect(seen.size).toBe(first.body.count);
  });

  it('counts a GPU as 10 cores of credits and filters by GPU name', async () => {
    const res = await api.get('/api/v1/vm-types/', { query: { gpus__gte: 1, gpu_name: 'nvidia-tesla-t4' } });
    expect(res.body.results.map((t: { name: string }) => t.name)).toEqual(['g4dn.xlarge', 'g4dn.2xlarge']);
    expect(res.body.results[0].coiled_credits).toBe(14);
  });

  it('refuses a bad filter with a 400 naming it, and anonymous callers with 401', async () => {
    const bad = await api.get('/api/v1/vm-types/', { query: { cores__gte: 'many' } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body)).toEqual(['cores__gte']);
    expect((await ts.api.get('/api/v1/vm-types/')).status).toBe(401);
  });
});

describe('GET /api/v2/pricing/vm-types/', () => {
  it('answers {items, count} with limit and offset, arm as arm64, without local disks when asked', async () => {
    const arm = await api.get('/api/v2/pricing/vm-types/', {
      query: { arch: 'aarch64', backend_type: 'vm_aws' },
    });
    expect(arm.status).toBe(200);
    expect(arm.body.items.length).toBeGreaterThan(2);
    expect(arm.body.items.every((t: { arch: string }) => t.arch === 'arm64')).toBe(true);

    const all = await api.get('/api/v2/pricing/vm-types/', { query: { backend_type: 'vm_aws', limit: 500 } });
    const noDisk = await api.get('/api/v2/pricing/vm-types/', {
      query: { backend_type: 'vm_aws', exclude_local_disk: 'true', limit: 500 },
    });
    expect(noDisk.body.count).toBeLessThan(all.body.count);
    expect(noDisk.body.items.some((t: { local_disk: boolean }) => t.local_disk)).toBe(false);

    const page = await api.get('/api/v2/pricing/vm-types/', {
      query: { backend_type: 'vm_aws', limit: 3, offset: 3 },
    });
    expect(page.body.items.map((t: { name: string }) => t.name)).toEqual(
      all.body.items.slice(3, 6).map((t: { name: string }) => t.name),
    );
    expect(page.body.count).toBe(all.body.count);
  });

  it('prices what metering prices: the listed hourly rate, whose 60 minutes add up to it exactly', () => {
    const hourly = hourlyPrice(
      { instanceType: 'm6i.xlarge', cores: 4, memoryMib: 16384, gpus: 0 },
      { localCoreHourUsd: 0, localGibHourUsd: 0 },
      50_000,
    );
    // $0.192 an hour; 4 credits at $0.05.
    expect(hourly).toEqual({ microCloudCost: 192_000, microCredits: 4_000_000, microCumulusCost: 200_000 });
    const minutes = Array.from({ length: 60 }, (_, i) => minutePrice(hourly, i));
    const sum = (of: keyof typeof hourly) => minutes.reduce((t, m) => t + m[of], 0);
    expect([sum('microCredits'), sum('microCloudCost'), sum('microCumulusCost')]).toEqual([
      4_000_000, 192_000, 200_000,
    ]);
    // Each minute within a millionth of a sixtieth: 66,666 or 66,667 micro-credits.
    expect(new Set(minutes.map((m) => m.microCredits))).toEqual(new Set([66_666, 66_667]));
    // Any hour-long run of minutes, not only one starting on the hour.
    const later = Array.from({ length: 60 }, (_, i) => minutePrice(hourly, (i + 17) % 60).microCredits);
    expect(later.reduce((t, n) => t + n, 0)).toBe(4_000_000);
  });

  it('prices GPUs attached to a Compute Engine N1 type besides the type, and counts them as credits', () => {
    const rates = { localCoreHourUsd: 0, localGibHourUsd: 0 };
    // n1-standard-4 ($0.19) with two T4s ($0.35 each); 4 cores and 2 GPUs of 10 credits.
    expect(
      hourlyPrice({ instanceType: 'n1-standard-4', cores: 4, memoryMib: 15360, gpus: 2 }, rates, 50_000),
    ).toEqual({
      microCloudCost: 890_000,
      microCredits: 24_000_000,
      microCumulusCost: 1_200_000,
    });
    // A G2's L4 is in its own price.
    expect(
      hourlyPrice({ instanceType: 'g2-standard-4', cores: 4, memoryMib: 16384, gpus: 1 }, rates, 50_000)
        .microCloudCost,
    ).toBe(706_800);
  });
});
