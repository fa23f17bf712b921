import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '@/test/fake-api';
import { renderRoutes } from '@/test/render';
import type { OpenApiDocument } from '../api/get-openapi';
import { ApiDocsPage } from './api-docs-page';

const doc: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Chorus API', version: '1.0.0' },
  tags: [{ name: 'Prompts', description: 'Your prompt library' }],
  paths: {
    '/rest/v1/prompts/{id}': {
      get: {
        tags: ['Prompts'],
        summary: 'Read one prompt',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'expand', in: 'query', description: 'Also send its versions' },
        ],
        responses: {
          '200': {
            description: 'The prompt',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Prompt' } } },
          },
          '404': { description: 'No such prompt of yours' },
        },
      },
    },
  },
  components: {
    schemas: {
      Prompt: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    },
  },
};

const renderPage = () => {
  fakeApi({ '/rest/v1/openapi.json': doc });
  renderRoutes({ path: '/api-docs', routes: [{ path: '/api-docs', element: <ApiDocsPage /> }] });
};

describe('ApiDocsPage', () => {
  it('lists each operation under its tag, and draws its details only when it is opened', async () => {
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Chorus API' })).toBeTruthy();
    const section = screen.getByRole('region', { name: 'Prompts' });
    expect(within(section).getByText('Your prompt library')).toBeTruthy();
    const summary = within(section).getByText('Read one prompt');
    // Closed: the card is its method, path and summary, nothing of its body yet.
    expect(within(section).getByText('/rest/v1/prompts/{id}')).toBeTruthy();
    expect(screen.queryByText('Parameters')).toBeNull();
    expect(screen.queryByText('No such prompt of yours')).toBeNull();

    const details = summary.closest('details')!;
    details.open = true;
    fireEvent(details, new Event('toggle'));

    expect(await within(details).findByText('Parameters')).toBeTruthy();
    expect(within(details).getByText('Also send its versions')).toBeTruthy();
    expect(within(details).getByText('No such prompt of yours')).toBeTruthy();
    expect(within(details).getByText('application/json')).toBeTruthy();
    expect(within(details).getByText('title')).toBeTruthy();

    // Closed again, it keeps what it drew, so reopening is instant.
    details.open = false;
    fireEvent(details, new Event('toggle'));
    expect(within(details).getByText('Parameters')).toBeTruthy();
  });

  it('says so when the description cannot be loaded', async () => {
    fakeApi();
    renderRoutes({ path: '/api-docs', routes: [{ path: '/api-docs', element: <ApiDocsPage /> }] });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The API description could not be loaded',
    );
  });
});
