// The server as `npm start` runs it: src/main.ts and src/admin.ts bundled by esbuild into one file
// each, directly in dist/ as src/paths.ts expects. Node loads one file in a fraction of the time of
// tsc's ~300 modules and their packages'. No code splitting: esbuild's split chunks give a
// CommonJS package loaded with import() (@fastify/cookie's `cookie`) only a default export.
// Type checking is `npm run typecheck`'s job. Kept outside the bundle: packages that load files
// of their own at run time (PGlite's WebAssembly, argon2's and ssh2's native bindings), optional ones, and
// those loaded on first use.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

const outdir = new URL('./dist', import.meta.url).pathname;
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: ['src/main.ts', 'src/admin.ts'],
  absWorkingDir: new URL('.', import.meta.url).pathname,
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  external: [
    '@electric-sql/pglite',
    '@node-rs/argon2',
    'pg-native',
    'bufferutil',
    'utf-8-validate',
    // Loaded on first use (compute/aws/sdk.ts, billing's stripe.ts), from node_modules.
    '@aws-sdk/*',
    'stripe',
    // Google's (compute/gcp/sdk.ts): google-gax also reads its .proto files from its own folder.
    '@google-cloud/*',
    'google-auth-library',
    'google-gax',
    // Loads its optional native crypto binding (a .node file) at run time when it was built.
    'ssh2',
  ],
  // Packages written as CommonJS call require(): give the ES module bundle one.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
