// The loader, built alone into dist/embed.js (vite.embed-loader.config.ts): one classic script a
// host page includes with `<script src="{app}/embed.js" data-widget="wgt_…" async>`.
import { findLoaderScript, startLoader, type ChorusWidgetApi } from './loader';

type WithApi = Window & { ChorusWidget?: ChorusWidgetApi };

const script = findLoaderScript(document);
if (!script) console.warn('Chorus widget: the loader could not find its <script data-widget> tag.');
// One widget per page: a second copy of the tag changes nothing.
else if (!(window as WithApi).ChorusWidget) {
  const loader = startLoader(script);
  if (loader) (window as WithApi).ChorusWidget = loader.api;
}
