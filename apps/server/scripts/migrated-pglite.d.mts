import type { PGlite } from '@electric-sql/pglite';

export function migratedPglite(dataDir: string): Promise<PGlite>;
export function writeMigratedPglite(directory: string): Promise<void>;
