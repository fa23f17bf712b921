import { messageFor } from '@chorus/shared/error-catalogue';
import type { Assertion } from '@chorus/shared/api/test-runs';
import { TestSetsRepository } from '../../../db/repositories/test-sets.ts';
import type { AuthedEnv } from '../../../http/app-env.ts';
import { ApiError } from '../../../http/errors.ts';
import { createRouter } from '../../../http/openapi.ts';
import { isUuid } from '../../../http/uuid.ts';
import {
  assertionProblems,
  describeImportError,
  listedImportErrors,
  parseTestCaseImport,
} from '../../../test-runner/import.ts';
import {
  createTestSetCaseRoute,
  createTestSetRoute,
  deleteTestSetCaseRoute,
  deleteTestSetRoute,
  fileTestSetCasesRoute,
  getTestSetRoute,
  importTestSetCasesRoute,
  listTestSetCasesRoute,
  listTestSetsRoute,
  updateTestSetCaseRoute,
  updateTestSetRoute,
} from './test-sets.routes.ts';

const setNotFound = () => new ApiError(404, 'test_sets:not_found');
const caseNotFound = () => new ApiError(404, 'test_sets:case_not_found');
const tooManyCases = () => new ApiError(409, 'test_sets:too_many_cases');
const subjectNotFound = () => new ApiError(404, 'test_sets:subject_not_found');

/** A set id from the path: a malformed one is as unknown as someone else's. */
const setId = (id: string) => {
  if (!isUuid(id)) throw setNotFound();
  return id;
};

/** Regex patterns RE2 refuses, told as a validation failure before anything is saved. */
const checkCase = (body: { assertions?: readonly Assertion[] }) => {
  const issues = assertionProblems(body.assertions ?? []).map((message) => ({
    path: 'assertions',
    message,
  }));
  if (issues.length === 0) return;
  throw new ApiError(
    400,
    'bad_request:validation',
    messageFor('bad_request:validation', { issues }),
  );
};

const repo = (c: { var: AuthedEnv['Variables'] }) =>
  new TestSetsRepository(c.var.deps.database.db, c.var.user.id);

export const testSetsRouter = createRouter<AuthedEnv>()
  .openapi(listTestSetsRoute, async (c) => c.json({ items: await repo(c).list() }, 200))
  .openapi(createTestSetRoute, async (c) => {
    const made = await repo(c).create(c.req.valid('json'));
    if (made === 'too_many') throw new ApiError(409, 'test_sets:too_many');
    if (made === 'subject_not_found') throw subjectNotFound();
    return c.json(made, 201);
  })
  .openapi(getTestSetRoute, async (c) => {
    const set = await repo(c).get(setId(c.req.valid('param').id));
    if (!set) throw setNotFound();
    return c.json(set, 200);
  })
  .openapi(updateTestSetRoute, async (c) => {
    const id = setId(c.req.valid('param').id);
    const set = await repo(c).update(id, c.req.valid('json'));
    if (set === 'subject_not_found') {
      // Someone else's set stays unknown, whatever subject it was sent.
      if (!(await repo(c).getRow(id))) throw setNotFound();
      throw subjectNotFound();
    }
    if (!set) throw setNotFound();
    return c.json(set, 200);
  })
  .openapi(deleteTestSetRoute, async (c) => {
    if (!(await repo(c).delete(setId(c.req.valid('param').id)))) throw setNotFound();
    return c.body(null, 204);
  })
  .openapi(listTestSetCasesRoute, async (c) => {
    const items = await repo(c).listCases(setId(c.req.valid('param').id));
    if (!items) throw setNotFound();
    return c.json({ items }, 200);
  })
  .openapi(createTestSetCaseRoute, async (c) => {
    const body = c.req.valid('json');
    const id = setId(c.req.valid('param').id);
    checkCase(body);
    const made = await repo(c).createCase(id, body);
    if (made === 'too_many_cases') throw tooManyCases();
    if (!made) throw setNotFound();
    return c.json(made, 201);
  })
  .openapi(updateTestSetCaseRoute, async (c) => {
    const { id, caseId } = c.req.valid('param');
    const body = c.req.valid('json');
    setId(id);
    if (!isUuid(caseId)) throw caseNotFound();
    checkCase(body);
    const updated = await repo(c).updateCase(id, caseId, body);
    if (updated) return c.json(updated, 200);
    throw (await repo(c).getRow(id)) ? caseNotFound() : setNotFound();
  })
  .openapi(deleteTestSetCaseRoute, async (c) => {
    const { id, caseId } = c.req.valid('param');
    setId(id);
    if (!isUuid(caseId)) throw caseNotFound();
    if (await repo(c).deleteCase(id, caseId)) return c.body(null, 204);
    throw (await repo(c).getRow(id)) ? caseNotFound() : setNotFound();
  })
  .openapi(importTestSetCasesRoute, async (c) => {
    const id = setId(c.req.valid('param').id);
    const sets = repo(c);
    // A set that is not the user's is unknown before its file is read.
    if (!(await sets.getRow(id))) throw setNotFound();
    const { cases, errors } = parseTestCaseImport(c.req.valid('json'));
    if (errors.length > 0) {
      const message = messageFor('test_sets:bad_import', {
        count: errors.length,
        first: describeImportError(errors[0]!),
      });
      return c.json(
        {
          error: message,
          code: 'test_sets:bad_import' as const,
          imported: 0 as const,
          errors: errors.slice(0, listedImportErrors),
        },
        422,
      );
    }
    const rows = await sets.insertCases(id, cases);
    if (rows === 'too_many_cases') throw tooManyCases();
    if (!rows) throw setNotFound();
    return c.json({ imported: rows.length, errors: [] }, 201);
  })
  .openapi(fileTestSetCasesRoute, async (c) => {
    const filed = await repo(c).fileCases(
      setId(c.req.valid('param').id),
      c.req.valid('json').case_ids,
    );
    if (filed === 'too_many_cases') throw tooManyCases();
    if (filed === null) throw setNotFound();
    return c.json({ filed }, 200);
  });
