import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gzipLevel9 = promisify(gzip);

/** Formats worth compressing; woff, woff2 and images are compressed already. */
const compressible = /\.(?:js|mjs|css|html|svg|json|txt|xml|ttf|otf|ico|wasm|webmanifest)$/;

const filesUnder = async (dir: string): Promise<string[]> =>
  (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));

const writeIfSmaller = async (file: string, original: Buffer, compressed: Buffer) => {
  if (compressed.byteLength < original.byteLength) await writeFile(file, compressed);
};

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every compressible file of the build, at
 * the highest levels: that costs seconds once here instead of CPU on every request, and the
 * server (apps/server/src/http/static.ts) only picks the copy the browser accepts. A copy that
 * would not be smaller is left out, and the server then sends the file as it is.
 *
 * `onlyThisBuild`: just the files this build wrote, for a build that adds to the app's `dist`
 * (the widget's, vite.embed.config.ts) and must not compress the rest of it again.
 */
export const precompressAssets = ({ onlyThisBuild = false } = {}): Plugin => ({
  name: 'chorus:precompress-assets',
  apply: 'build',
  async writeBundle({ dir }, bundle) {
    if (!dir) return;
    const written = onlyThisBuild
      ? Object.keys(bundle).map((name) => path.join(dir, name))
      : await filesUnder(dir);
    const files = written.filter((file) => compressible.test(file));
    await Promise.all(
      files.map(async (file) => {
        const original = await readFile(file);
        const [br, gz] = await Promise.all([
          brotli(original, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: original.byteLength,
            },
          }),
          gzipLevel9(original, { level: 9 }),
        ]);
        await writeIfSmaller(`${file}.br`, original, br);
        await writeIfSmaller(`${file}.gz`, original, gz);
      }),
    );
  },
});
