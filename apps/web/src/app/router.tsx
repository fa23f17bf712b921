import { createBrowserRouter } from 'react-router';
import { preloadRoute } from './lazy-page';
import { routes } from './routes';

export const createAppRouter = () => {
  preloadRoute(routes, window.location.pathname);
  return createBrowserRouter(routes);
};
