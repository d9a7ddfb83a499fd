// A steady prober in its own process: GET the URL (argv[2]) every `interval` ms (argv[3]), one
// request at a time over a kept-alive connection, with the `authorization` header from
// PROBE_AUTHORIZATION. On SIGTERM it prints each request as [ms since start, latency ms, status]
// (status 0: no answer) as one JSON line, and exits.
const [url, interval = '50'] = process.argv.slice(2);
const headers = { authorization: process.env.PROBE_AUTHORIZATION ?? '' };
const samples = [];
const began = performance.now();
let running = true;
process.on('SIGTERM', () => {
  running = false;
});
while (running) {
  const at = performance.now();
  let status = 0;
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    status = res.status;
  } catch {}
  const done = performance.now();
  samples.push([Math.round(at - began), Number((done - at).toFixed(2)), status]);
  const wait = Number(interval) - (done - at);
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
}
process.stdout.write(`${JSON.stringify(samples)}\n`, () => process.exit(0));
