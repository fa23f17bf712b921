import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompressAssets } from './build/precompress-assets.ts';

/**
 * The embedded widget's iframe page (issue 21): embed.html and its own small bundle, built after
 * the app into the same `dist` (`npm run build`). A build of its own, not a second input of the
 * app's: two entries would share Vite's module-preload polyfill, which the app's chunking puts in
 * its `index` chunk, and the widget would then load the whole app's entry.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  publicDir: false,
  plugins: [precompressAssets({ onlyThisBuild: true })],
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    // One chunk and no lazy ones: nothing to preload.
    modulePreload: false,
    rolldownOptions: {
      input: { embed: fileURLToPath(new URL('./embed.html', import.meta.url)) },
    },
  },
});
