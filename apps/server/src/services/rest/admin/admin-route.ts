import { errorResponse, sessionCookie } from '../../../http/openapi.ts';
import { requireRole } from '../../../http/session.ts';

/** What every admin-only route shares: its tag, the session cookie and the role guard. */
export const adminOnly: {
  'x-access': 'admin';
  tags: string[];
  security: typeof sessionCookie;
  middleware: [ReturnType<typeof requireRole>];
} = {
  'x-access': 'admin',
  tags: ['Admin'],
  security: sessionCookie,
  middleware: [requireRole('admin')],
};

/** The answers of that guard. */
export const adminRefusals = {
  401: errorResponse('Not signed in'),
  403: errorResponse('Not an admin'),
};
