import type { HttpTool, HttpToolTestResult } from '@chorus/shared/api/tools';
import { builtinTools, toolLimits } from '@chorus/shared/api/tools';
import {
  HttpToolNameTakenError,
  HttpToolSecretMissingError,
  HttpToolsRepository,
  type HttpToolRow,
} from '../../../db/repositories/http-tools.ts';
import type { AuthedEnv, Deps } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { withinUserLimit } from '../../../quota/user-limits.ts';
import { createRouter } from '../../../http/openapi.ts';
import { isUuid } from '../../../http/uuid.ts';
import { readOutboundAllowList } from '../../../net/allow-list-setting.ts';
import { OutboundError } from '../../../net/outbound-errors.ts';
import {
  callHttpTool,
  HttpToolInputError,
  renderHttpRequest,
  urlTemplateProblem,
  type HttpToolRequest,
} from '../../../tools/http-tool.ts';
import {
  createHttpToolRoute,
  deleteHttpToolRoute,
  getHttpToolRoute,
  listHttpToolsRoute,
  testHttpToolRoute,
  updateHttpToolRoute,
} from './tools.routes.ts';

export const httpToolNotFound = () => new ApiError(404, 'tools:not_found');

/** What may leave the server: secret header values only as their hints. */
export const toHttpTool = (row: HttpToolRow): HttpTool => ({
  id: row.id,
  key: `http:${row.id}`,
  name: row.name,
  description: row.description,
  method: row.method as HttpTool['method'],
  url_template: row.url_template,
  headers: [
    ...row.headers.map((h) => ({ name: h.name, value: h.value, secret: false })),
    ...row.secret_hints.map((h) => ({ name: h.name, value: h.hint, secret: true })),
  ],
  input_schema: row.input_schema,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const builtinNames = new Set<string>(builtinTools.map((t) => t.name));

/** A model calls tools by name: one of the built-ins' names would be ambiguous. */
const checkName = (name: string | undefined) => {
  if (name !== undefined && builtinNames.has(name)) {
    throw new ApiError(
      409,
      'tools:name_taken',
      `The name "${name}" belongs to a built-in tool. Give this one another name.`,
    );
  }
};

const checkUrlTemplate = (template: string, inputSchema: Record<string, unknown>) => {
  const problem = urlTemplateProblem(template, inputSchema);
  if (problem) throw new ApiError(400, 'tools:bad_url_template', problem);
};

/** The repository's refusals as the API's; anything else goes on as it is. */
const saveRefusal = (error: unknown): unknown => {
  if (error instanceof HttpToolNameTakenError) return new ApiError(409, 'tools:name_taken');
  if (error instanceof HttpToolSecretMissingError) {
    return new ApiError(
      400,
      'tools:secret_missing',
      `The secret header ${error.header} needs a value when it is first saved. Enter it, then save.`,
    );
  }
  return error;
};

const repository = (deps: Deps, userId: string) =>
  new HttpToolsRepository(deps.database.db, userId, deps.box);

/** The request as the test answer shows it: secret header values replaced by their hints. */
const maskedRequest = (
  request: Pick<HttpToolRequest, 'url' | 'headers' | 'body'> & { method: string },
  row: HttpToolRow,
): HttpToolTestResult['request'] => ({
  method: request.method,
  url: request.url,
  headers: request.headers.map((h) =>
    h.secret
      ? {
          name: h.name,
          value: row.secret_hints.find((s) => s.name === h.name)?.hint ?? '…',
          secret: true,
        }
      : { name: h.name, value: h.value, secret: false },
  ),
  body: request.body,
});

export const toolsRouter = createRouter<AuthedEnv>()
  .openapi(listHttpToolsRoute, async (c) => {
    const rows = await repository(c.var.deps, c.var.user.id).list();
    return c.json({ tools: rows.map(toHttpTool) }, 200);
  })
  .openapi(createHttpToolRoute, async (c) => {
    const { deps, user } = c.var;
    const body = c.req.valid('json');
    checkName(body.name);
    checkUrlTemplate(body.url_template, body.input_schema);
    // Counted and stored under the user's lock: two saves at once cannot both take the last place.
    const row = await withinUserLimit(deps.database.db, 'http_tools', user.id, async (tx) => {
      const repo = new HttpToolsRepository(tx, user.id, deps.box);
      if ((await repo.count()) >= toolLimits.perUser) throw new ApiError(409, 'tools:too_many');
      return repo.create(body);
    }).catch((error: unknown) => {
      throw saveRefusal(error);
    });
    return c.json(toHttpTool(row), 201);
  })
  .openapi(getHttpToolRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw httpToolNotFound();
    const row = await repository(c.var.deps, c.var.user.id).get(id);
    if (!row) throw httpToolNotFound();
    return c.json(toHttpTool(row), 200);
  })
  .openapi(updateHttpToolRoute, async (c) => {
    const { deps, user } = c.var;
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw httpToolNotFound();
    const body = c.req.valid('json');
    const repo = repository(deps, user.id);
    const current = await repo.get(id);
    if (!current) throw httpToolNotFound();
    checkName(body.name);
    if (body.url_template !== undefined || body.input_schema !== undefined) {
      checkUrlTemplate(
        body.url_template ?? current.url_template,
        body.input_schema ?? current.input_schema,
      );
    }
    const row = await repo.update(id, body, current).catch((error: unknown) => {
      throw saveRefusal(error);
    });
    if (!row) throw httpToolNotFound();
    return c.json(toHttpTool(row), 200);
  })
  .openapi(deleteHttpToolRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw httpToolNotFound();
    const removed = await repository(c.var.deps, c.var.user.id).remove(id);
    if (!removed) throw httpToolNotFound();
    return c.body(null, 204);
  })
  .openapi(testHttpToolRoute, async (c) => {
    const { deps, user } = c.var;
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw httpToolNotFound();
    const { input } = c.req.valid('json');
    const repo = repository(deps, user.id);
    const row = await repo.get(id);
    if (!row) throw httpToolNotFound();
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);

    let request: HttpToolRequest;
    try {
      request = renderHttpRequest(row, input, repo.secretHeaders(row));
    } catch (error) {
      if (error instanceof HttpToolInputError) {
        throw new ApiError(400, 'bad_request:validation', error.message);
      }
      if (!(error instanceof OutboundError)) throw error;
      // The filled URL is not one Chorus fetches: nothing was sent.
      const unsent = { method: row.method, url: row.url_template, headers: [], body: null };
      const result: HttpToolTestResult = {
        request: maskedRequest(unsent, row),
        response: null,
        error: { code: error.code, message: error.message },
        duration_ms: elapsed(),
      };
      return c.json(result, 200);
    }

    const shown = maskedRequest(request, row);
    try {
      const response = await callHttpTool(request, {
        allow: await readOutboundAllowList(deps),
        signal: c.req.raw.signal,
      });
      const result: HttpToolTestResult = {
        request: shown,
        response: {
          status: response.status,
          headers: response.headers,
          body: response.body,
          truncated: response.truncated,
        },
        error: null,
        duration_ms: response.duration_ms,
      };
      return c.json(result, 200);
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      const result: HttpToolTestResult = {
        request: shown,
        response: null,
        error: { code: error.code, message: error.message },
        duration_ms: elapsed(),
      };
      return c.json(result, 200);
    }
  });
