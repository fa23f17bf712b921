import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompressAssets } from './build/precompress-assets.ts';

/**
 * The widget's loader (issue 21): one classic script with a fixed name, dist/embed.js, that host
 * pages include from the app (`<script src="{app}/embed.js" data-widget="…">`). No framework, no
 * dependencies; an IIFE so that nothing leaks into the host page's globals.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  publicDir: false,
  plugins: [precompressAssets({ onlyThisBuild: true })],
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    rolldownOptions: {
      input: fileURLToPath(new URL('./src/embed/loader/main.ts', import.meta.url)),
      output: { format: 'iife', entryFileNames: 'embed.js' },
    },
  },
});
