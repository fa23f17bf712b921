import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { precompressAssets } from './build/precompress-assets.ts';
import { helpArticles } from './src/features/help/build/help-articles-plugin.ts';

const backend = 'http://localhost:8080';
// '/auth/v1', not '/auth': the app's own sign-in page lives at /auth.
const proxied = ['/auth/v1', '/rest', '/functions', '/storage', '/healthz'];

export default defineConfig({
  plugins: [
    // The help center's Markdown articles, compiled to HTML at build time.
    helpArticles({
      dir: fileURLToPath(new URL('./src/features/help/articles', import.meta.url)),
      faq: fileURLToPath(new URL('./src/features/help/faq.md', import.meta.url)),
    }),
    react(),
    tailwindcss(),
    precompressAssets(),
  ],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: {
      ...Object.fromEntries(
        proxied.map((path) => [path, { target: backend, changeOrigin: false }]),
      ),
      '/realtime': { target: backend, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    // Every browser the app supports reads <link rel=modulepreload> itself (Chrome 66, Safari 17,
    // Firefox 115); the polyfill for older ones cost every page 0.5 KB of gzip before first paint.
    modulePreload: { polyfill: false },
    emptyOutDir: true,
    rolldownOptions: {
      // radix-ui's builds name every function through esbuild's keep-names helper, `__name(fn,
      // 'name')`, as a statement of its own: a call the bundler must assume has effects, so the
      // functions it names stay in even when nothing uses them (3 KB of gzip on the sign-in page,
      // mostly an unused second implementation of Radix's collection). The helper only sets
      // `fn.name`, which nothing reads.
      treeshake: { manualPureFunctions: ['__name'] },
      output: {
        codeSplitting: {
          groups: [
            // Everything the first paint needs goes in the entry chunk. Left alone, rolldown moves
            // what the entry shares with lazy pages into a dozen small chunks: as many requests
            // more, and 4 KB more gzip than one chunk.
            { name: 'index', tags: ['$initial'], priority: 2 },
            // The lazy pages' icons, one chunk per set of pages that use them, small sets merged
            // into a neighbour, instead of one chunk per icon.
            {
              name: 'icons',
              test: /[\\/]node_modules[\\/]lucide-react[\\/]/,
              priority: 1,
              entriesAware: true,
              entriesAwareMergeThreshold: 2048,
            },
          ],
        },
        // A chunk of icons is named after the pages that share it; `icons-<hash>.js` is enough.
        chunkFileNames: (chunk) => `assets/${chunk.name.split('~')[0]}-[hash].js`,
      },
    },
  },
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // A worker runs its files in one module graph and one happy-dom environment instead of
    // building both again per file: a fifth of the CPU (ADR 012). setup.ts stubs and restores
    // per test, and Testing Library's cleanup empties the document after each.
    isolate: false,
    // A deadline for a stuck test, not a bar on speed: the chat page's streaming test takes 3–4 s
    // on a busy 2-core machine, too close to vitest's default of 5 s.
    testTimeout: 20_000,
    restoreMocks: true,
    unstubGlobals: true,
  },
});
