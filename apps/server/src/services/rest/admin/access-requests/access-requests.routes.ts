import { createRoute, z } from '@hono/zod-openapi';
import {
  accessRequestSchema,
  accessRequestsQuerySchema,
  accessRequestsResponseSchema,
} from '@chorus/shared/api/access-requests';
import { errorResponse, jsonContent } from '../../../../http/openapi.ts';
import { adminOnly, adminRefusals } from '../admin-route.ts';

const params = z.object({ id: z.uuid('id must be the id of an access request') });

export const listAccessRequestsRoute = createRoute({
  method: 'get',
  path: '/admin/access-requests',
  summary: 'Access requests, newest first (admins only)',
  ...adminOnly,
  request: { query: accessRequestsQuerySchema },
  responses: {
    200: jsonContent(accessRequestsResponseSchema, 'A page of requests and the total count'),
    400: errorResponse('Invalid filter or page'),
    ...adminRefusals,
  },
});

export const approveAccessRequestRoute = createRoute({
  method: 'post',
  path: '/admin/access-requests/{id}/approve',
  summary: 'Approve a request and e-mail a one-time invitation link; audit-logged',
  description:
    'The link is `APP_URL/auth?invite={token}&email={address}`, valid 7 days, for one sign-up with that address. Only the SHA-256 of the token is stored. Approving again sends a new link and voids the old one.',
  ...adminOnly,
  request: { params },
  responses: {
    200: jsonContent(accessRequestSchema, 'The approved request'),
    400: errorResponse('Malformed id'),
    ...adminRefusals,
    404: errorResponse('No such request'),
    409: errorResponse('Already used, or the address already has an account'),
  },
});

export const declineAccessRequestRoute = createRoute({
  method: 'post',
  path: '/admin/access-requests/{id}/decline',
  summary: 'Decline a request (an invitation already sent stops working); audit-logged',
  ...adminOnly,
  request: { params },
  responses: {
    200: jsonContent(accessRequestSchema, 'The declined request'),
    400: errorResponse('Malformed id'),
    ...adminRefusals,
    404: errorResponse('No such request'),
    409: errorResponse('Already declined or used'),
  },
});
