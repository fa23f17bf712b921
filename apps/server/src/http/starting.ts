import { messageFor } from '@chorus/shared/error-catalogue';

/**
 * What the server answers while it starts: the port is taken before the database is opened and
 * migrated, so a taken port is told at once, and until the app is ready every request but /livez
 * is a 503 that says so (probes: `starting`).
 */
export const answerWhileStarting = (request: Request): Response => {
  const { pathname } = new URL(request.url);
  const headers = {
    'cache-control': 'no-store',
    'retry-after': String(STARTING_RETRY_AFTER_SECONDS),
  };
  if (pathname === '/livez') return Response.json({ status: 'ok' }, { headers });
  if (pathname === '/readyz' || pathname === '/healthz')
    return Response.json({ status: 'starting' }, { status: 503, headers });
  return Response.json(
    { error: messageFor('server:starting'), code: 'server:starting' },
    {
      status: 503,
      headers,
    },
  );
};

/** What a client is told to wait while the server starts. */
const STARTING_RETRY_AFTER_SECONDS = 5;
