import { createRoute, z } from '@hono/zod-openapi';
import { agentApprovalRequestSchema } from '@chorus/shared/api/agents';
import { errorResponse, sessionCookie } from '../../../http/openapi.ts';
import { requireUser } from '../../../http/session.ts';

export const approveAgentRunRoute = createRoute({
  'x-access': 'user',
  method: 'post',
  path: '/agent-runs/{id}/approvals',
  tags: ['Agents'],
  summary: 'Answer the tool calls an agent run waits on, and stream the rest of the run',
  description:
    'A run pauses when a tool call needs approval; the pause is stored, so this may come after a reload. Approved calls run; a refusal goes back to the model as the call’s result (with the reason given). Calls not answered count as refused. The reply streams on as an AI SDK UI message stream and is appended to the same stored message.',
  security: sessionCookie,
  middleware: [requireUser] as const,
  request: {
    params: z.object({ id: z.string().max(100) }),
    body: {
      content: { 'application/json': { schema: agentApprovalRequestSchema } },
      required: true,
    },
  },
  responses: {
    200: {
      description: 'UI message stream (text/event-stream)',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    },
    400: errorResponse('Invalid input'),
    401: errorResponse('Not signed in'),
    404: errorResponse('No such run of yours (`agents:run_not_found`), or its agent was deleted'),
    409: errorResponse('The run is not waiting for these approvals (`agents:run_not_waiting`)'),
    429: errorResponse('Too many agent runs at once (`agents:too_many_runs`)'),
  },
});
