/** Escapes `%`, `_` and `\` so user text matches literally inside a LIKE pattern. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
