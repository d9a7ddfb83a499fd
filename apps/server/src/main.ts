import { loadConfig } from './config.js';
import { holdEmbeddedDatabase } from './db/embedded-holder.js';
import { unconfirmedEmails } from './domains/identity/index.js';
import { currentRequest } from './http/request-context.js';
import { checkInterpreter } from './lib/interpreter.js';
import { createLogger } from './lib/log.js';
import { installProcessGuard } from './lib/process-guard.js';
import { announceWaitingVerifications } from './mail/waiting-verifications.js';
import { createServer, LISTEN_BACKLOG } from './server.js';

const config = loadConfig();
const server = await createServer(config, {
  logger: createLogger({ level: config.logLevel, format: config.logFormat }),
});
const { app } = server;
// The admin CLI reads this to know the embedded database is open here (see db/embedded-holder.ts).
if (server.database.kind === 'pglite') holdEmbeddedDatabase(config.dataDir);

// SIGTERM or SIGINT: no new requests, those in flight finish (for at most the grace), the loops
// stop, the database closes; clusters keep running and the next start adopts them.
let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    const graceSeconds = config.shutdownGraceMs / 1000;
    app.log.info(
      { signal, graceSeconds },
      'shutting down: taking no new requests, finishing those in flight',
    );
    server.close({ graceMs: config.shutdownGraceMs }).then(
      (cut) => {
        if (cut > 0)
          app.log.warn({ connections: cut, graceSeconds }, 'requests still open after the grace were cut');
        app.log.info('stopped; clusters keep running and the next start adopts them');
        process.exit(0);
      },
      (err) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
// From here on, an error no handler caught ends its request only (startup failures still stop the process).
installProcessGuard(app.log, currentRequest);
server.startLoops();
app.log.info(
  {
    database: server.database.kind,
    smtp: config.smtpUrl ? 'configured' : 'none (mail kept in log)',
  },
  `Cumulus is running at ${config.publicUrl}`,
);
// Said once the server is up, so a missing Dask is noticed before the first cluster is created.
// Then, without a mail server, the confirmation links still waiting: last, where they are found.
checkInterpreter(config.python)
  .then(({ ok, message }) => (ok ? app.log.info(message) : app.log.warn(message)))
  .then(() =>
    config.smtpUrl
      ? 0
      : announceWaitingVerifications(server.deps.db, app.log, (emails) =>
          unconfirmedEmails(server.deps.db, emails),
        ),
  )
  .catch((err) => app.log.warn({ err }, 'the kept confirmation mails could not be read'));
