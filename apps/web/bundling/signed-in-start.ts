import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';

import { signedInStartScript } from '../src/lib/api/early-calls.ts';
import { STORAGE_KEYS } from '../src/lib/storage.ts';

/**
 * A signed-in first visit needs the shell and its landing page, which the router imports lazily
 * once the entry has run, and the shell's first calls, which its code makes once loaded. For a
 * browser holding a session token, index.html starts both at once, beside the entry (see
 * src/lib/api/early-calls.ts). A visitor without a token (login) fetches none of them.
 */
export function signedInStart(srcDir: string, landingModule = 'app/shell/AppShell.tsx'): Plugin {
  let base = '/';
  return {
    name: 'cumulus:signed-in-start',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle, chunk: entry }) {
        if (!bundle || !entry) return;
        const chunks = new Map(
          Object.values(bundle)
            .filter((output): output is Rolldown.OutputChunk => output.type === 'chunk')
            .map((chunk) => [chunk.fileName, chunk]),
        );
        const landingId = path.join(srcDir, landingModule);
        const landing = [...chunks.values()].find((chunk) => chunk.moduleIds.includes(landingId));
        if (!landing) throw new Error(`No chunk holds ${landingModule}`);
        // What a chunk needs before it runs: itself and its static imports, recursively.
        const needs = (file: string, into = new Set<string>()) => {
          if (into.has(file)) return into;
          into.add(file);
          for (const imported of chunks.get(file)?.imports ?? []) needs(imported, into);
          return into;
        };
        const withEntry = needs(entry.fileName);
        const modules = [...needs(landing.fileName)]
          .filter((file) => !withEntry.has(file))
          .map((file) => `${base}${file}`);
        const script = `<script>${signedInStartScript({ tokenKey: STORAGE_KEYS.token, modules })}</script>`;
        // Before the entry and the stylesheet: an inline script waits for stylesheets above it.
        const at = html.indexOf('<script type="module"');
        if (at < 0) throw new Error('index.html has no module script');
        return `${html.slice(0, at)}${script}\n    ${html.slice(at)}`;
      },
    },
  };
}
