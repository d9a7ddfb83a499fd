import { openDatabase } from '../../src/db/client.js';

/** With PostgreSQL, DATABASE_URL's database is migrated once and is the template each test server copies. */
export default async function setup(): Promise<void> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) return;
  const database = await openDatabase({ databaseUrl, poolSize: 2 });
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
}
