import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { AppProviders } from './providers/app-providers';
import { ResilienceLayer } from './resilience/resilience-layer';
import { flushRouterUpdate } from './flush-router-update';
import { createAppRouter } from './router';

export const App = () => {
  const [router] = useState(createAppRouter);
  return (
    <AppProviders>
      <ResilienceLayer>
        <RouterProvider router={router} flushSync={flushRouterUpdate} />
      </ResilienceLayer>
    </AppProviders>
  );
};
