import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { AppProviders } from './providers/app-providers';
import { ResilienceLayer } from './resilience/resilience-layer';
import { createAppRouter } from './router';

export const App = () => {
  const [router] = useState(createAppRouter);
  return (
    <AppProviders>
      <ResilienceLayer>
        <RouterProvider router={router} />
      </ResilienceLayer>
    </AppProviders>
  );
};
