// Simulated cluster agents and console users, in their own process (never the server's), speaking
// the real calls over kept-alive connections (node:http, much cheaper per call than fetch, so
// that the simulation is not what queues). stdin: JSON {base, instances: [{token, backendId}],
// users: [{token, slug}], heartbeatsOnly, shard: [i, n]}. Each instance heartbeats every 5 s, ships
// a log batch of 5 lines every 5 s and reports its worker every 30 s; each user lists its
// Dashboard's clusters every 5 s. Each kind's first calls are spread over its period (a worker
// report's over 30 s), so that every rate is the steady one; the first period is not measured.
// On SIGTERM it prints one JSON line: per kind of call its latencies (ms) and failures, and this
// process's own event-loop delay p99 and CPU share (so a reader sees whether it kept up), then exits.
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';

let given = '';
for await (const chunk of process.stdin) given += chunk;
const { base, instances, users, heartbeatsOnly, shard = [0, 1] } = JSON.parse(given);
const PERIOD = 5000;
const times = {};
const errors = {};
const timers = [];
const warmedUp = performance.now() + PERIOD;
const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
const { hostname, port } = new URL(base);

function call(method, path, headers, body) {
  return new Promise((resolve) => {
    const req = http.request({ agent, hostname, port, method, path, headers, timeout: 10_000 }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve(res.statusCode >= 200 && res.statusCode < 300));
      res.on('error', () => resolve(false));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(false));
    req.end(body);
  });
}

async function timed(kind, method, path, headers, body) {
  const started = performance.now();
  const ok = await call(method, path, headers, body);
  if (started < warmedUp) return; // the first period starts every instance: not measured
  times[kind] = times[kind] ?? [];
  times[kind].push(performance.now() - started);
  if (!ok) errors[kind] = (errors[kind] ?? 0) + 1;
}

function every(periodMs, offsetMs, fn) {
  timers.push(
    setTimeout(() => {
      fn();
      timers.push(setInterval(fn, periodMs));
    }, offsetMs),
  );
}

const facing = '/api/v2/cluster_facing';
// Shards start interleaved, so that n processes together spread their calls evenly.
const [index, shards] = shard;
instances.forEach(({ token, backendId }, i) => {
  const offset = ((i * shards + index) / (instances.length * shards)) * PERIOD;
  const auth = `Bearer ${token}`;
  every(PERIOD, offset, () =>
    timed('heartbeat', 'GET', `${facing}/instance/${backendId}/state`, { authorization: auth }),
  );
  if (heartbeatsOnly) return;
  const post = { authorization: auth, 'content-type': 'application/json' };
  let n = 0;
  every(PERIOD, offset + PERIOD / 2, () => {
    const now = Date.now();
    const lines = Array.from({ length: 5 }, (_, k) => ({
      timestamp_ms: now + k,
      source: 'dask',
      message: `distributed.worker - INFO - simulated line ${n++}`,
    }));
    timed('log batch', 'POST', `${facing}/logs`, post, JSON.stringify({ backend_id: backendId, lines }));
  });
  // Spread over its own period, as the others are over theirs: all first reports in the first
  // period would be six times the steady rate, a burst the measurement would inherit.
  every(PERIOD * 6, offset * 6 + PERIOD / 4, () =>
    timed(
      'worker report',
      'PATCH',
      `${facing}/worker/phone-home/instance/`,
      post,
      JSON.stringify({ backend_id: backendId, state: 'started', reason: '' }),
    ),
  );
});

if (!heartbeatsOnly)
  users.forEach(({ token, slug }, i) => {
    const headers = { authorization: `ApiToken ${token}` };
    every(PERIOD, (i / users.length) * PERIOD, () =>
      timed('Dashboard list', 'GET', `/api/v2/clusters/paginate?account=${slug}&limit=50`, headers),
    );
  });

const delay = monitorEventLoopDelay({ resolution: 10 });
let cpuFrom;
let wallFrom;
setTimeout(() => {
  delay.enable();
  cpuFrom = process.cpuUsage();
  wallFrom = performance.now();
}, PERIOD);

process.on('SIGTERM', () => {
  for (const t of timers) clearInterval(t);
  const cpu = cpuFrom ? process.cpuUsage(cpuFrom) : { user: 0, system: 0 };
  const wall = wallFrom ? performance.now() - wallFrom : 1;
  const report = {
    times,
    errors,
    loopDelayP99Ms: delay.count > 0 ? delay.percentile(99) / 1e6 : 0,
    cpuShare: (cpu.user + cpu.system) / 1000 / wall,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`, () => process.exit(0));
});
