import type { AuthedEnv } from '../../../http/app-env.ts';
import { createRouter } from '../../../http/openapi.ts';
import { enqueueWorkflowRun } from '../../../jobs/workflow-run.ts';
import { createWorkflowRun, dryRunWorkflow, toWorkflowRun } from '../../../workflows/engine.ts';
import { checkWorkflow, refusalBody } from '../../../workflows/validate.ts';
import { dryRunWorkflowRoute, startWorkflowRunRoute } from './workflow-run.routes.ts';

export const workflowRunRouter = createRouter<AuthedEnv>()
  .openapi(startWorkflowRunRoute, async (c) => {
    const { deps, user } = c.var;
    const body = c.req.valid('json');
    const row = await createWorkflowRun(deps, {
      userId: user.id,
      workflowId: body.workflow_id.toLowerCase(),
      inputs: body.inputs,
      version: body.version,
      trigger: 'manual',
    });
    await enqueueWorkflowRun(deps, row);
    return c.json(toWorkflowRun(row), 202);
  })
  .openapi(dryRunWorkflowRoute, async (c) => {
    const { deps, user } = c.var;
    const { workflow, inputs } = c.req.valid('json');
    const problem = await checkWorkflow(deps, user.id, workflow);
    if (problem) return c.json(refusalBody(problem), 400);
    const result = await dryRunWorkflow(deps, {
      userId: user.id,
      fields: workflow,
      inputs,
      signal: c.req.raw.signal,
    });
    return c.json(result, 200);
  });
