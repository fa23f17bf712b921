import { Navigate, Route, Routes } from 'react-router';
import { TestRunPage } from './test-run-page';
import { TestRunnerPage } from './test-runner-page';
import { TestSetPage } from './test-set-page';

/**
 * `/test-runner/*`: the list, a set (`sets/:id`) and a run (`runs/:id`). One lazy route in the app
 * for the three: each lazy route adds its chunk list to the first-paint bundle every page loads.
 */
export const TestRunnerRoutes = () => (
  <Routes>
    <Route index element={<TestRunnerPage />} />
    <Route path="sets/:id" element={<TestSetPage />} />
    <Route path="runs/:id" element={<TestRunPage />} />
    <Route path="*" element={<Navigate to="/test-runner" replace />} />
  </Routes>
);
