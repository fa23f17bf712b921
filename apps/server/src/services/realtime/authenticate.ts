import type { IncomingMessage } from 'node:http';
import type { Deps } from '../../http/app-env.ts';
import { findActiveSession } from '../../http/session.ts';
import type { Authenticate } from './hub.ts';

/**
 * A socket is opened only from one of our own origins (a cross-site page must not ride the
 * session cookie) and only with a live session.
 */
export const sessionAuthenticator =
  (deps: Pick<Deps, 'auth' | 'config' | 'database' | 'caches' | 'invalidation'>): Authenticate =>
  async (req: IncomingMessage) => {
    const origin = req.headers.origin;
    if (!origin || !deps.config.trustedOrigins.includes(origin)) return { status: 403 };
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers.set(name, value);
      else if (Array.isArray(value)) headers.set(name, value.join(', '));
    }
    const session = await findActiveSession(deps, headers);
    if (!session) return { status: 401 };
    return { userId: session.user.id, sessionId: session.session.id };
  };
