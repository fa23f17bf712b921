import type { LibraryPrompt, LibraryScenario } from '@chorus/shared/api/library';
import { messageFor } from '@chorus/shared/error-catalogue';
import { listPublished } from '../../../db/repositories/library.ts';
import { PromptsRepository } from '../../../db/repositories/prompts.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { isUuid } from '../../../http/uuid.ts';
import { scenarioLimits } from '@chorus/shared/api/scenarios';
import { ScenariosRepository } from '../../../db/repositories/scenarios.ts';
import { tooManyScenarios, toScenario } from '../scenarios/scenario-json.ts';
import { toPrompt, tooManyPrompts } from '../prompts/prompt-response.ts';
import {
  copyLibraryPromptRoute,
  copyLibraryScenarioRoute,
  libraryPromptsRoute,
  libraryScenariosRoute,
} from './library.routes.ts';

const promptNotInLibrary = () =>
  new ApiError(404, 'library:not_found', messageFor('library:not_found', { kind: 'prompt' }));
const scenarioNotInLibrary = () =>
  new ApiError(404, 'library:not_found', messageFor('library:not_found', { kind: 'scenario' }));

export const libraryRouter = createRouter<AuthedEnv>()
  .openapi(libraryPromptsRoute, async (c) =>
    c.json(
      { items: (await listPublished(c.var.deps.database.db, 'prompts')) as LibraryPrompt[] },
      200,
    ),
  )
  .openapi(libraryScenariosRoute, async (c) =>
    c.json(
      { items: (await listPublished(c.var.deps.database.db, 'scenarios')) as LibraryScenario[] },
      200,
    ),
  )
  .openapi(copyLibraryPromptRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw promptNotInLibrary();
    const copy = await new PromptsRepository(c.var.deps.database.db, c.var.user.id).copyPublished(
      id,
    );
    if (!copy) throw promptNotInLibrary();
    if (copy === 'too_many') throw tooManyPrompts();
    c.var.deps.log.info({ userId: c.var.user.id, from: id, id: copy.id }, 'library prompt copied');
    return c.json(toPrompt(copy), 201);
  })
  .openapi(copyLibraryScenarioRoute, async (c) => {
    const { id } = c.req.valid('param');
    if (!isUuid(id)) throw scenarioNotInLibrary();
    const copy = await new ScenariosRepository(c.var.deps.database.db, c.var.user.id).copyPublished(
      id,
      scenarioLimits.perUser,
    );
    if (!copy) throw scenarioNotInLibrary();
    if (copy === 'too_many') throw tooManyScenarios();
    return c.json(toScenario(copy), 201);
  });
