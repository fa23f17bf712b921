import { createRoute } from '@hono/zod-openapi';
import { billingStatusSchema } from '@chorus/shared/api/billing';
import {
  profileSchema,
  profileUpdateSchema,
  publicNameAvailabilityQuerySchema,
  publicNameAvailabilitySchema,
} from '@chorus/shared/api/profile';
import { profileUsageSchema } from '@chorus/shared/api/usage';
import { errorResponse, jsonContent, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

const tags = ['Profile'];

export const getProfile = createRoute({
  'x-access': 'user',
  method: 'get',
  path: '/profile',
  tags,
  summary: "The signed-in user's profile with its pricing plan embedded",
  security: sessionCookie,
  middleware: [requireUser] as const,
  responses: {
    200: jsonContent(profileSchema, 'The profile; `plan` falls back to Free when unreadable'),
    401: errorResponse('Not signed in'),
  },
});

export const patchProfile = createRoute({
  'x-access': 'user',
  method: 'patch',
  path: '/profile',
  tags,
  summary: 'Update the full name or the public name',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: {
    body: { content: { 'application/json': { schema: profileUpdateSchema } }, required: true },
  },
  responses: {
    200: jsonContent(profileSchema, 'The updated profile'),
    400: errorResponse('Invalid input'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No profile found to update'),
    409: errorResponse('The public name is taken'),
  },
});

export const getProfileUsage = createRoute({
  'x-access': 'user',
  method: 'get',
  path: '/profile/usage',
  tags,
  summary: "Today's prompt count against the plan's daily limit, and when it resets",
  security: sessionCookie,
  middleware: [requireUser] as const,
  responses: {
    200: jsonContent(profileUsageSchema, 'Count, limit (null: unlimited) and the next 00:00 UTC'),
    401: errorResponse('Not signed in'),
  },
});

export const getPublicNameAvailability = createRoute({
  'x-access': 'user',
  method: 'get',
  path: '/profile/public-name-available',
  tags,
  summary: 'Whether a public name is free to take (checked as the user types)',
  description: 'Case-insensitive; the name the user already has counts as available to them.',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: { query: publicNameAvailabilityQuerySchema },
  responses: {
    200: jsonContent(publicNameAvailabilitySchema, 'Available or not, and why not'),
    400: errorResponse('No name given, or too long'),
    401: errorResponse('Not signed in'),
  },
});

export const getProfileBilling = createRoute({
  'x-access': 'user',
  method: 'get',
  path: '/profile/billing',
  tags,
  summary: 'Whether payments are on, the latest subscription, and the plans sold through Stripe',
  security: sessionCookie,
  middleware: [requireUser] as const,
  responses: {
    200: jsonContent(billingStatusSchema, 'The billing status'),
    401: errorResponse('Not signed in'),
  },
});
