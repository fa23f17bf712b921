import type { LibraryPrompt, LibraryScenario } from '@chorus/shared/api/library';
import { listPublished } from '../../../db/repositories/library.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { createRouter } from '../../../http/openapi.ts';
import { libraryPromptsRoute, libraryScenariosRoute } from './library.routes.ts';

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
  );
