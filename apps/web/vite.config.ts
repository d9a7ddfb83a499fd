import { fileURLToPath, URL } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

import { consoleChunks } from './bundling/chunks.ts';
import { precompress } from './bundling/precompress.ts';
import { signedInStart } from './bundling/signed-in-start.ts';

// The API server owns /api and the OAuth token exchange under /users; in dev we proxy both
// so the console talks to one origin, as it does in production.
const apiTarget = 'http://127.0.0.1:8000';
const srcDir = fileURLToPath(new URL('./src', import.meta.url));

export default defineConfig({
  plugins: [react(), tailwindcss(), signedInStart(srcDir), precompress()],
  resolve: {
    alias: { '@': srcDir },
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      '/users': { target: apiTarget, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: { output: { codeSplitting: consoleChunks(srcDir) } },
  },
});
