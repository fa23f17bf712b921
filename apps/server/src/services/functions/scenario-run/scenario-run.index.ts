import type { ScenarioRunEvent } from '@chorus/shared/api/scenarios';
import { messageFor } from '@chorus/shared/error-catalogue';
import { fillTemplate, missingVariables } from '@chorus/shared/template';
import { recordLibraryUse } from '../../../db/repositories/library-uses.ts';
import {
  scenarioPrompt,
  ScenarioRunsRepository,
  ScenariosRepository,
} from '../../../db/repositories/scenarios.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { scenarioNotFound } from '../../rest/scenarios/scenario-json.ts';
import { modelOf, pendingColumn, runColumns, type StopReason, type Target } from './run-columns.ts';
import { scenarioRunRoute } from './scenario-run.routes.ts';

/** How much of an unsaved setup's prompt titles its run. */
const TITLE_CHARS = 60;

const titleFrom = (prompt: string): string => {
  const flat = prompt.replace(/\s+/g, ' ').trim();
  if (flat.length <= TITLE_CHARS) return flat;
  const cut = flat.slice(0, TITLE_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${space > TITLE_CHARS / 2 ? cut.slice(0, space) : cut}…`;
};

/** Events queued beyond this wait for the client to read (a slow reader slows the columns). */
const QUEUED_EVENTS = 64;

/**
 * An NDJSON body fed event by event. `emit` resolves at once while the queue has room and
 * otherwise once the client reads; it never waits after `stopped` fired or the client went away,
 * so a run whose client left still ends and is stored.
 */
const ndjsonBody = (stopped: AbortSignal) => {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  const waiting = new Set<() => void>();
  const wake = () => {
    for (const resume of waiting) resume();
    waiting.clear();
  };
  stopped.addEventListener('abort', wake, { once: true });
  const body = new ReadableStream<Uint8Array>(
    {
      start: (c) => void (controller = c),
      pull: wake,
      cancel: () => {
        open = false;
        wake();
      },
    },
    { highWaterMark: QUEUED_EVENTS },
  );
  return {
    body,
    async emit(event: ScenarioRunEvent) {
      if (!open) return;
      controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
      if ((controller.desiredSize ?? 1) > 0 || stopped.aborted) return;
      await new Promise<void>((resolve) => waiting.add(resolve));
    },
    close() {
      if (!open) return;
      open = false;
      controller.close();
    },
  };
};

export const scenarioRunRouter = createRouter<AuthedEnv>().openapi(scenarioRunRoute, async (c) => {
  const { deps, user } = c.var;
  const body = c.req.valid('json');
  const { db } = deps.database;

  const saved = body.scenario_id
    ? await new ScenariosRepository(db, user.id).get(body.scenario_id)
    : undefined;
  if (body.scenario_id && !saved) throw scenarioNotFound();
  const system = body.system_prompt ?? saved?.system_prompt ?? '';
  const template = body.user_prompt ?? (saved ? scenarioPrompt(saved) : '');
  const variables = { ...saved?.variables, ...body.variables };
  const parameters = body.parameters ?? saved?.parameters ?? {};
  const targets = (body.targets ?? saved?.targets ?? []) as Target[];
  if (targets.length === 0) throw new ApiError(400, 'scenarios:no_targets');
  const missing = missingVariables([system, template], variables);
  if (missing.length > 0) {
    throw new ApiError(
      400,
      'prompts:missing_variable',
      messageFor('prompts:missing_variable', { names: missing }),
    );
  }
  const prompt = fillTemplate(template, variables);
  const systemPrompt = fillTemplate(system, variables);
  // A saved scenario may have no prompt of its own (a cookbook entry without steps).
  if (!prompt.trim()) {
    throw new ApiError(
      400,
      'bad_request:validation',
      messageFor('bad_request:validation', {
        issues: [{ path: 'user_prompt', message: 'Write the prompt to send' }],
      }),
    );
  }

  const run = await new ScenarioRunsRepository(db, user.id).create({
    scenario_id: saved?.id ?? null,
    title: body.title || saved?.title || titleFrom(prompt),
    system_prompt: systemPrompt,
    user_prompt: prompt,
    variables,
    parameters,
    results: targets.map(pendingColumn),
  });
  // A run of a cookbook copy counts for the cookbook entry (trends, discover); nothing waits for
  // the count, and it never fails the run.
  const sourceId = saved?.source_id;
  if (sourceId) {
    void recordLibraryUse(db, {
      kind: 'scenario',
      item_id: sourceId,
      user_id: user.id,
      action: 'run',
    }).catch((err: unknown) =>
      deps.log.warn({ err, runId: run.id, sourceId }, 'counting the cookbook run failed'),
    );
  }

  // The run goes on when its client leaves; it stops for a client that left or a server stopping.
  const stop = new AbortController();
  let stopReason: StopReason = 'caller';
  const live = deps.streams.track({
    interrupt() {
      stopReason = 'server';
      stop.abort();
    },
  });
  const signal = AbortSignal.any([c.req.raw.signal, stop.signal]);
  const options = {
    deps,
    userId: user.id,
    runId: run.id,
    targets,
    system: systemPrompt,
    prompt,
    parameters,
    signal,
    stopReason: () => stopReason,
  };

  if (!body.stream) {
    try {
      const results = await runColumns({ ...options, emit: async () => {} });
      return c.json({ run_id: run.id, results }, 200);
    } finally {
      live.done();
    }
  }

  const out = ndjsonBody(signal);
  void (async () => {
    try {
      await out.emit({
        type: 'start',
        run_id: run.id,
        targets: targets.map((t) => ({ provider: t.provider, model: modelOf(t) })),
      });
      await runColumns({ ...options, emit: out.emit });
      await out.emit({ type: 'end', run_id: run.id });
    } catch (error) {
      deps.log.error({ err: error, runId: run.id }, 'scenario run failed');
    } finally {
      out.close();
      live.done();
    }
  })();
  // The typed client knows the JSON form; the NDJSON form is read line by line from the body.
  return c.body(out.body, 200, {
    'content-type': 'application/x-ndjson; charset=utf-8',
    'cache-control': 'no-store',
    // Proxies pass each line on as it comes instead of buffering the answer.
    'x-accel-buffering': 'no',
  }) as never;
});
