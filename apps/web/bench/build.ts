import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Rolldown } from 'vite';

export const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** A built chunk: its file, the files it imports statically, and the source modules it holds. */
export type BuiltChunk = { file: string; imports: string[]; modules: string[]; isEntry: boolean };

/** Builds the console as `npm run build` does (vite.config.ts), into `outDir`; returns its chunks. */
export async function buildConsole(outDir: string): Promise<BuiltChunk[]> {
  const chunks: BuiltChunk[] = [];
  await build({
    root: webDir,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
    plugins: [
      {
        name: 'bench:chunks',
        generateBundle(_options, bundle) {
          for (const output of Object.values(bundle)) {
            if (output.type !== 'chunk') continue;
            const chunk = output as Rolldown.OutputChunk;
            chunks.push({
              file: chunk.fileName,
              imports: chunk.imports,
              modules: chunk.moduleIds.map((id) => path.relative(webDir, id)),
              isEntry: chunk.isEntry,
            });
          }
        },
      },
    ],
  });
  return chunks;
}
