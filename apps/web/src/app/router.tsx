import { createBrowserRouter } from 'react-router';
import { preloadFeatureContexts } from './layouts/feature-contexts';
import { preloadRoute } from './lazy-page';
import { routes } from './routes';

export const createAppRouter = () => createBrowserRouter(routes);

/** How long the first render waits for the code of the page it opens on. */
const firstRenderWaitMs = 3_000;

/**
 * Loads the code of the page the URL opens (layouts, page, feature contexts) side by side, so the
 * first render shows the page itself instead of a spinner per lazy piece, each held on screen by
 * React for a moment. A slow or failed download stops the wait; rendering then shows it.
 */
export const loadFirstPage = (pathname: string): Promise<void> =>
  Promise.race([
    Promise.all([preloadRoute(routes, pathname), preloadFeatureContexts(pathname)]).then(
      () => undefined,
      () => undefined,
    ),
    new Promise<void>((resolve) => setTimeout(resolve, firstRenderWaitMs)),
  ]);
