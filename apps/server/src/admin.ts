// The operator's command line: `npm run admin -- make-staff EMAIL`. It opens the database the
// server uses (DATABASE_URL, else the embedded one in CUMULUS_DATA_DIR) with the same settings.
// The embedded database can be open in one process only: while the server runs on it, the CLI
// says so and stops; PostgreSQL is shared, so there it works with the server running.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { embeddedDatabaseHolder } from './db/embedded-holder.js';
import { makeStaff } from './domains/identity/index.js';

const USAGE = 'usage: npm run admin -- make-staff EMAIL';

async function main(args: string[]): Promise<number> {
  const [command, email, ...rest] = args;
  if (command !== 'make-staff' || !email || rest.length > 0) {
    console.error(USAGE);
    return 2;
  }
  // Nothing here uses the secret: a stand-in keeps loadConfig from creating one in a wrong data dir.
  const config = loadConfig({
    CUMULUS_SECRET: 'not used by the admin command line, 32+ chars',
    ...process.env,
  });
  if (!config.databaseUrl) {
    if (!existsSync(path.join(config.dataDir, 'pgdata'))) {
      console.error(
        `admin: no embedded database in ${config.dataDir}; run this with the server's CUMULUS_DATA_DIR or DATABASE_URL`,
      );
      return 1;
    }
    const holder = embeddedDatabaseHolder(config.dataDir);
    if (holder !== null) {
      console.error(
        `admin: the server (pid ${holder}) has the embedded database in ${config.dataDir} open; stop it, run this again, then start it (or use DATABASE_URL, which allows both at once)`,
      );
      return 1;
    }
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pgdata'),
    poolSize: 1,
  });
  try {
    const outcome = await makeStaff(database.db, email);
    if (outcome === 'unknown') {
      console.error(`admin: no user has the email ${email}`);
      return 1;
    }
    console.log(outcome === 'made' ? `${email} is staff now` : `${email} was staff already`);
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(`admin: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
