import { createRoute } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import {
  clientErrorReceiptSchema,
  clientErrorReportSchema,
} from '@chorus/shared/api/client-errors';
import { messageFor } from '@chorus/shared/error-catalogue';
import { clientErrorMaxBytes } from '@chorus/shared/limits';
import { errorBody } from '../../../http/errors.ts';
import { errorResponse, jsonContent } from '../../../http/openapi.ts';
import { rateLimitClientErrorReports } from '../../../http/rate-limit.ts';

const reportSizeLimit = bodyLimit({
  maxSize: clientErrorMaxBytes,
  onError: (c) =>
    c.json(
      errorBody(
        messageFor('request:too_large', {
          subject: 'The error report',
          limit: `${clientErrorMaxBytes / 1024} KB`,
          fix: 'Shorten the stack or details',
        }),
        'request:too_large',
      ),
      413,
    ),
});

export const reportClientErrorRoute = createRoute({
  'x-access': 'public',
  method: 'post',
  path: '/client-errors',
  tags: ['Diagnostics'],
  summary: 'Report an error the browser saw (signed in or guest)',
  description: `Kept for admins with the user (if signed in) and the user agent. At most ${clientErrorMaxBytes} bytes; rate limited per user, or per address for guests.`,
  middleware: [rateLimitClientErrorReports, reportSizeLimit] as const,
  request: {
    body: { content: { 'application/json': { schema: clientErrorReportSchema } }, required: true },
  },
  responses: {
    201: jsonContent(clientErrorReceiptSchema, 'The stored report’s id'),
    400: errorResponse('Not a valid report'),
    413: errorResponse('Report too large'),
    429: errorResponse('Too many reports in a minute'),
  },
});
