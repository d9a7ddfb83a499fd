// A bare Fastify process, the yardstick the HTTP benchmarks divide by: one JSON route, no plugins.
import Fastify from 'fastify';

const app = Fastify();
app.get('/bare', async () => ({ ok: true }));
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${app.server.address().port}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
