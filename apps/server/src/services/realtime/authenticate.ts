import type { IncomingMessage } from 'node:http';
import { isSuspended } from '../../db/repositories/admin-users.ts';
import type { Deps } from '../../http/app-env.ts';
import type { Authenticate } from './hub.ts';

/**
 * A socket is opened only from one of our own origins (a cross-site page must not ride the
 * session cookie) and only with a live session.
 */
export const sessionAuthenticator =
  (deps: Pick<Deps, 'auth' | 'config' | 'database'>): Authenticate =>
  async (req: IncomingMessage) => {
    const origin = req.headers.origin;
    if (!origin || !deps.config.trustedOrigins.includes(origin)) return { status: 403 };
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (typeof value === 'string') headers.set(name, value);
      else if (Array.isArray(value)) headers.set(name, value.join(', '));
    }
    const session = await deps.auth.api.getSession({ headers });
    if (!session || (await isSuspended(deps.database.db, session.user.id))) return { status: 401 };
    return { userId: session.user.id };
  };
