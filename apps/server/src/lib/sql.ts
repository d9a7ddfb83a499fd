import { ilike, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** Escapes `%`, `_` and `\` so user text matches literally inside a LIKE pattern. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The column holds the text (case-insensitive, the text taken literally: `50%_off` is no pattern). */
export const contains = (column: AnyPgColumn, text: string): SQL => ilike(column, `%${escapeLike(text)}%`);

/** The column starts with the text (case-insensitive, literally). */
export const startsWith = (column: AnyPgColumn, text: string): SQL => ilike(column, `${escapeLike(text)}%`);

/** The rows of a raw `db.execute(sql...)`, the same on PGlite and node-postgres. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
