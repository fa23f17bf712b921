import { tool } from 'ai';
import { z } from 'zod';
import type { Deps } from '../../http/app-env.ts';
import { ApiError } from '../../http/errors.ts';
import { searchKnowledge } from '../../knowledge/search.ts';
import { toolFailure } from './tool-failure.ts';

/** Passages one search hands the model. */
const TOP_K = 6;

/**
 * Knowledge search as a tool (issue 18 point 3): the agent's knowledge bases, searched as the
 * chat searches them (hybrid where the bases have vectors), on the caller's keys and quota.
 * Passages come back as data with their document and place, for the model to cite.
 */
export const knowledgeSearchTool = (
  deps: Deps,
  ctx: { userId: string; baseIds: readonly string[]; signal?: AbortSignal | undefined },
) =>
  tool({
    description:
      'Searches the knowledge bases given to you (uploaded documents) and returns the passages that best match a query, with the document each comes from.',
    inputSchema: z.object({
      query: z.string().min(1).max(1_000).describe('What to look for, in a few words'),
    }),
    execute: async ({ query }) => {
      if (ctx.baseIds.length === 0) {
        return toolFailure(
          'No knowledge base is attached to this agent, so there is nothing to search.',
        );
      }
      try {
        const { results, notice } = await searchKnowledge(deps, {
          userId: ctx.userId,
          baseIds: ctx.baseIds,
          missing: 'skip',
          query,
          topK: TOP_K,
          signal: ctx.signal,
        });
        return {
          passages: results.map((hit) => ({
            document: hit.document_name,
            ...(hit.position.page != null && { page: hit.position.page }),
            ...(hit.position.heading_path?.length && {
              section: hit.position.heading_path.join(' › '),
            }),
            text: hit.text,
          })),
          ...(notice && { notice }),
        };
      } catch (error) {
        if (error instanceof ApiError) return toolFailure(error.message);
        throw error;
      }
    },
  });
