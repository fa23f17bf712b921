import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '@chorus/shared/api/agents';
import { agentLimits } from '@chorus/shared/api/agents';
import type { Conversation } from '@chorus/shared/api/conversations';
import type { CustomAi } from '@chorus/shared/api/custom-ais';
import type { KnowledgeBase } from '@chorus/shared/api/knowledge';
import type { Schedule } from '@chorus/shared/api/schedules';
import type { TestSet, TestSetCase } from '@chorus/shared/api/test-runs';
import type { WidgetWithSecret } from '@chorus/shared/api/widgets';
import type { Workflow, WorkflowRun, WorkflowStepRun } from '@chorus/shared/api/workflows';
import { messageFor } from '@chorus/shared/error-catalogue';
import { chatMessages } from '@chorus/shared/messages';
import { takeRunCapacity } from '../agents/agent-turn.ts';
import { connectPostgres, rowsOf, type Database } from '../db/client.ts';
import { endOtherLeases, renewLease } from '../db/repositories/instances.ts';
import { claimOccurrence } from '../db/repositories/schedules.ts';
import { TestRunsRepository } from '../db/repositories/test-runs.ts';
import {
  agentRuns,
  runSlots,
  knowledgeDocuments,
  messages,
  scheduleRuns,
  serverInstances,
  testResults,
  testRuns,
  widgetMessages,
  workflowRuns,
} from '../db/schema/index.ts';
import { runOccurrence } from '../schedules/occurrences.ts';
import { createPostgresDatabaseUrl, testDriver } from '../test/database.ts';
import { startTestApp, type TestApp } from '../test/harness.ts';
import { waitFor } from '../test/streams.ts';
import { planCase } from '../test-runner/plan.ts';
import { resolveSubject } from '../test-runner/subject.ts';
import { replyCutOffMessage } from '../widget/store.ts';
import { createWorkflowRun } from '../workflows/engine.ts';
import { RECOVER_QUEUE, recoverStoppedInstances } from './recover-stopped-instances.ts';

// Runs of every kind left by instances in every state — this one, another live one, one whose
// lease ran out, one whose row is gone — and what the sweep does with them: the gone instances'
// runs are ended (or resumed) once, the live ones' are left alone (ADR 018). The kill -9 tests
// with real server processes are in test/crash-recovery.test.ts.

type Client = Awaited<ReturnType<TestApp['user']>>;
type Owner = 'self' | 'live' | 'expired' | 'missing';
const OWNERS: Owner[] = ['self', 'live', 'expired', 'missing'];
const GONE: Owner[] = ['expired', 'missing'];

let t: TestApp;
let ann: Client;
let owner: Record<Owner, string>;
let scheduleId: string;
let workflowId: string;
let baseId: string;
let widget: { id: string; conversationId: string };
let testSet: { set: TestSet; cases: TestSetCase[] };

/** Instances in each state: this one, a live other, one whose lease ran out, one never seen. */
const makeOwners = async (): Promise<Record<Owner, string>> => {
  const live = randomUUID();
  const expired = randomUUID();
  await renewLease(t.db, live, 10 * 60_000);
  await t.db
    .insert(serverInstances)
    .values({ id: expired, lease_expires_at: sql`now() - interval '1 second'` });
  return { self: t.deps.instance.id, live, expired, missing: randomUUID() };
};

/** One running row of each kind per owner; the ids by kind and owner. */
const leaveRuns = async (owners: Record<Owner, string>, who: Owner[] = OWNERS) => {
  const conv = (await ann.post<Conversation>('/rest/v1/conversations', {})).body.id;
  const ids: Record<string, Partial<Record<Owner, string>>> = {
    'chat-reply': {},
    'agent-run': {},
    'widget-reply': {},
    'workflow-run': {},
    'schedule-occurrence': {},
    'test-run': {},
    'knowledge-document': {},
  };
  for (const name of who) {
    const instance = owners[name];
    const [reply] = await t.db
      .insert(messages)
      .values({
        conversation_id: conv,
        user_id: ann.id,
        role: 'assistant',
        content: `partial of ${name}`,
        status: 'streaming',
        instance_id: instance,
      })
      .returning({ id: messages.id });
    ids['chat-reply']![name] = reply!.id;

    const [run] = await t.db
      .insert(agentRuns)
      .values({
        user_id: ann.id,
        agent_name: 'Helper',
        agent_version: 1,
        conversation_id: conv,
        message_id: reply!.id,
        status: 'running',
        instance_id: instance,
      })
      .returning({ id: agentRuns.id });
    ids['agent-run']![name] = run!.id;

    const [widgetReply] = await t.db
      .insert(widgetMessages)
      .values({
        conversation_id: widget.conversationId,
        widget_id: widget.id,
        role: 'assistant',
        content: '',
        status: 'streaming',
        instance_id: instance,
      })
      .returning({ id: widgetMessages.id });
    ids['widget-reply']![name] = widgetReply!.id;

    const queued = await createWorkflowRun(t.deps, {
      userId: ann.id,
      workflowId,
      inputs: {},
      trigger: 'manual',
    });
    const steps = structuredClone(queued.steps as WorkflowStepRun[]);
    steps[0]!.status = 'running';
    await t.db
      .update(workflowRuns)
      .set({ status: 'running', steps, instance_id: instance, started_at: new Date() })
      .where(eq(workflowRuns.id, queued.id));
    ids['workflow-run']![name] = queued.id;

    // Claimed, never queued: the claiming instance stopped right after its insert.
    const occurrence = await claimOccurrence(t.db, {
      scheduleId,
      userId: ann.id,
      occurrenceAt: new Date(Date.now() - Math.floor(Math.random() * 1e9)),
      trigger: 'manual',
      instanceId: instance,
    });
    ids['schedule-occurrence']![name] = occurrence!.id;

    const subject = await resolveSubject(t.db, ann.id, {
      kind: 'custom_ai',
      id: testSet.set.subject.id,
    });
    const testRun = await new TestRunsRepository(t.db, ann.id).create({
      test_set_id: testSet.set.id,
      name: testSet.set.name,
      source: 'app',
      targets: [{ provider: 'openai', model: 'gpt-5-mini' }],
      repeats: 1,
      plan: { subject: subject!, cases: testSet.cases.map(planCase) },
      total: 1,
      estimated_cost_usd: null,
    });
    await t.db
      .update(testRuns)
      .set({ status: 'running', instance_id: instance, started_at: new Date() })
      .where(eq(testRuns.id, testRun.id));
    ids['test-run']![name] = testRun.id;

    const [doc] = await t.db
      .insert(knowledgeDocuments)
      .values({
        knowledge_base_id: baseId,
        user_id: ann.id,
        name: `${name}.txt`,
        content_type: 'text/plain',
        size_bytes: 10,
        sha256: randomUUID(),
        status: 'parsing',
        instance_id: instance,
      })
      .returning({ id: knowledgeDocuments.id });
    ids['knowledge-document']![name] = doc!.id;
  }
  return ids;
};

const idsOf = (byOwner: Partial<Record<Owner, string>>, who: Owner[]) =>
  who.map((name) => byOwner[name]!).sort();

beforeAll(async () => {
  t = await startTestApp({ providerSim: true, jobs: true });
  ann = await t.user('recover-ann@example.com');
  await ann.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-recover' });
  owner = await makeOwners();

  const prompt = await ann.post<{ id: string }>('/rest/v1/prompts', {
    title: 'Ping',
    content: 'Say hello.',
  });
  const schedule = await ann.post<Schedule>('/rest/v1/schedules', {
    name: 'Ping',
    cron: '0 9 * * *',
    time_zone: 'UTC',
    email_completed: false,
    email_failed: false,
    target: { kind: 'prompt', prompt_id: prompt.body.id, provider: 'openai' },
  });
  expect(schedule.status).toBe(201);
  scheduleId = schedule.body.id;

  const wf = await ann.post<Workflow>('/rest/v1/workflows', {
    name: 'Two steps',
    steps: [
      { id: 'draft', kind: 'prompt', provider: 'openai', prompt: 'Write [sim:hang]' },
      { id: 'after', kind: 'transform', mode: 'template', template: 'done' },
    ],
  });
  expect(wf.status).toBe(201);
  workflowId = wf.body.id;

  const base = await ann.post<KnowledgeBase>('/rest/v1/knowledge-bases', {
    name: 'Notes',
    embedding_provider: null,
    embedding_model: null,
  });
  expect(base.status).toBe(201);
  baseId = base.body.id;

  const agent = await ann.post<Agent>('/rest/v1/agents', {
    name: 'Helper',
    provider: 'openai',
    instructions: 'Help visitors.',
  });
  expect(agent.status).toBe(201);
  const made = await ann.post<WidgetWithSecret>('/rest/v1/widgets', {
    name: 'Support',
    target: { agent_id: agent.body.id },
    appearance: { title: 'Ask us' },
  });
  expect(made.status).toBe(201);
  const [visitorConversation] = rowsOf<{ id: string }>(
    await t.db.execute(sql`
      with v as (
        insert into widget_visitors (widget_id) values (${made.body.id}::uuid) returning id
      )
      insert into widget_conversations (widget_id, visitor_id, title)
      select ${made.body.id}::uuid, v.id, 'Hello' from v returning id`),
  );
  widget = { id: made.body.id, conversationId: visitorConversation!.id };

  const ai = await ann.post<CustomAi>('/rest/v1/custom-ais', {
    name: 'Echo',
    system_prompt: 'Answer briefly.',
    provider: 'openai',
  });
  const set = await ann.post<TestSet>('/rest/v1/test-sets', {
    name: 'Resumed',
    subject: { kind: 'custom_ai', id: ai.body.id },
    notify: false,
  });
  const testCase = await ann.post<TestSetCase>(`/rest/v1/test-sets/${set.body.id}/cases`, {
    name: 'Echo',
    input: `Resume me ${randomUUID()}`,
    assertions: [],
  });
  expect(testCase.status).toBe(201);
  testSet = { set: set.body, cases: [testCase.body] };
});
afterAll(() => t?.close());

describe('the sweep of stopped instances', () => {
  it('ends or resumes the runs of gone instances only, each kind, keeping what was saved', async () => {
    const ids = await leaveRuns(owner);
    const asked = t.sim.requests.length;
    // The job sweeps every heartbeat too, so which of the two ended a run is not asserted here
    // (the test with two sweeps at once is below); what became of each run is.
    const first = await recoverStoppedInstances(t.deps);
    const all = [...Object.values(first.ended), ...Object.values(first.queued)].flat();
    for (const [kind, byOwner] of Object.entries(ids)) {
      for (const name of ['self', 'live'] as const) expect(all, kind).not.toContain(byOwner[name]);
    }

    const status = async <T extends { id: string; status: string }>(rows: Promise<T[]>) =>
      Object.fromEntries((await rows).map((r) => [r.id, r]));
    const replies = await status(
      t.db
        .select()
        .from(messages)
        .where(inArray(messages.id, idsOf(ids['chat-reply']!, OWNERS))),
    );
    const runs = await status(
      t.db
        .select()
        .from(agentRuns)
        .where(inArray(agentRuns.id, idsOf(ids['agent-run']!, OWNERS))),
    );
    const widgetReplies = await status(
      t.db
        .select()
        .from(widgetMessages)
        .where(inArray(widgetMessages.id, idsOf(ids['widget-reply']!, OWNERS))),
    );
    const workflows = await status(
      t.db
        .select()
        .from(workflowRuns)
        .where(inArray(workflowRuns.id, idsOf(ids['workflow-run']!, OWNERS))),
    );
    const occurrences = await status(
      t.db
        .select()
        .from(scheduleRuns)
        .where(inArray(scheduleRuns.id, idsOf(ids['schedule-occurrence']!, OWNERS))),
    );
    for (const name of ['self', 'live'] as const) {
      expect(replies[ids['chat-reply']![name]!]!.status).toBe('streaming');
      expect(runs[ids['agent-run']![name]!]!.status).toBe('running');
      expect(widgetReplies[ids['widget-reply']![name]!]!.status).toBe('streaming');
      expect(workflows[ids['workflow-run']![name]!]!.status).toBe('running');
      expect(occurrences[ids['schedule-occurrence']![name]!]!.status).toBe('running');
    }
    for (const name of GONE) {
      expect(replies[ids['chat-reply']![name]!]).toMatchObject({
        status: 'interrupted',
        content: `partial of ${name}`,
        error_message: chatMessages.replyCutByRestart,
      });
      expect(runs[ids['agent-run']![name]!]).toMatchObject({
        status: 'failed',
        error_code: 'agents:interrupted',
        error_message: messageFor('agents:interrupted'),
      });
      expect(widgetReplies[ids['widget-reply']![name]!]).toMatchObject({
        status: 'failed',
        content: replyCutOffMessage,
      });
      const failed = workflows[ids['workflow-run']![name]!]!;
      expect(failed).toMatchObject({
        status: 'failed',
        error_code: 'workflows:interrupted',
        error_step_id: 'draft',
      });
      expect((failed.steps as WorkflowRun['steps']).map((s) => s.status)).toEqual([
        'failed',
        'cancelled',
      ]);
      expect(occurrences[ids['schedule-occurrence']![name]!]).toMatchObject({
        status: 'failed',
        error_code: 'schedules:interrupted',
        error_message: messageFor('schedules:interrupted'),
      });
    }

    // Resumed: each test run goes on to its end, its one call made once; each document is taken
    // by a worker (which finds no file to read, so it fails with that reason).
    const gone = idsOf(ids['test-run']!, GONE);
    await waitFor(async () => {
      const rows = await t.db.select().from(testRuns).where(inArray(testRuns.id, gone));
      return rows.every((r) => r.status === 'done');
    }, 20_000);
    const results = await t.db.select().from(testResults).where(inArray(testResults.run_id, gone));
    expect(results.map((r) => r.run_id).sort()).toEqual(gone);
    const input = testSet.cases[0]!.input;
    const calls = t.sim.requests.slice(asked).filter((r) => JSON.stringify(r.body).includes(input));
    expect(calls).toHaveLength(gone.length);
    const docs = idsOf(ids['knowledge-document']!, GONE);
    await waitFor(async () => {
      const rows = await t.db
        .select()
        .from(knowledgeDocuments)
        .where(inArray(knowledgeDocuments.id, docs));
      return rows.every((r) => r.status === 'failed' && r.error?.includes('no longer in storage'));
    }, 20_000);
    const untouched = await t.db
      .select()
      .from(testRuns)
      .where(inArray(testRuns.id, idsOf(ids['test-run']!, ['self', 'live'])));
    expect(untouched.map((r) => r.status)).toEqual(['running', 'running']);
    const held = await t.db
      .select()
      .from(knowledgeDocuments)
      .where(inArray(knowledgeDocuments.id, idsOf(ids['knowledge-document']!, ['self', 'live'])));
    expect(held.map((r) => r.status)).toEqual(['parsing', 'parsing']);

    // Nothing is ended twice.
    const again = await recoverStoppedInstances(t.deps);
    expect(Object.values(again.ended).flat()).toEqual([]);
    expect(Object.values(again.queued).flat()).toEqual([]);
  });

  it('frees the run places of an instance whose lease lapsed at once, even before the sweep', async () => {
    const bob = await t.user('recover-bob@example.com');
    const hold = (instance: string) =>
      t.db
        .insert(runSlots)
        .values(
          Array.from({ length: agentLimits.concurrentRuns }, (_, i) => ({
            user_id: bob.id,
            kind: 'agent_run',
            slot: i + 1,
            holder: randomUUID(),
            instance_id: instance,
            expires_at: new Date(Date.now() + 60 * 60_000),
          })),
        )
        .onConflictDoUpdate({
          target: [runSlots.user_id, runSlots.kind, runSlots.slot],
          set: { instance_id: instance, holder: sql`excluded.holder` },
        });
    await hold(owner.expired);
    const slot = await takeRunCapacity(t.deps, bob.id);
    await slot.release();
    await hold(owner.live);
    await expect(takeRunCapacity(t.deps, bob.id)).rejects.toMatchObject({
      status: 429,
      code: 'agents:too_many_runs',
    });
  });

  it('lets a worker take an occurrence its claiming instance queued before it stopped', async () => {
    const dead = randomUUID();
    const occurrence = await claimOccurrence(t.db, {
      scheduleId,
      userId: ann.id,
      occurrenceAt: new Date(Date.now() - 1_000),
      trigger: 'manual',
      instanceId: dead,
    });
    await runOccurrence(t.deps, { run_id: occurrence!.id, user_id: ann.id });
    const [row] = await t.db.select().from(scheduleRuns).where(eq(scheduleRuns.id, occurrence!.id));
    expect(row).toMatchObject({ status: 'complete', instance_id: t.deps.instance.id });
    // A second delivery of the job finds it ended and does nothing.
    await runOccurrence(t.deps, { run_id: occurrence!.id, user_id: ann.id });
    const [still] = await t.db
      .select()
      .from(scheduleRuns)
      .where(eq(scheduleRuns.id, occurrence!.id));
    expect(still!.finished_at).toEqual(row!.finished_at);
  });

  it('stops a live run taken for gone, without writing over the failure', async () => {
    const res = await ann.post<WorkflowRun>('/functions/v1/workflow-run', {
      workflow_id: workflowId,
      inputs: {},
    });
    expect(res.status).toBe(202);
    const runId = res.body.id;
    const row = async () =>
      (await t.db.select().from(workflowRuns).where(eq(workflowRuns.id, runId)))[0]!;
    await waitFor(async () => (await row()).status === 'running', 10_000);
    expect((await row()).instance_id).toBe(t.deps.instance.id);
    // As if this instance had lost its lease: another instance's sweep fails the run.
    await t.db
      .update(workflowRuns)
      .set({ instance_id: randomUUID() })
      .where(eq(workflowRuns.id, runId));
    const isHanging = (r: (typeof t.sim.requests)[number]) =>
      r.outcome === 'pending' && JSON.stringify(r.body).includes('[sim:hang]');
    await waitFor(() => t.sim.requests.some(isHanging), 10_000);
    const hanging = t.sim.requests.find(isHanging)!;
    await recoverStoppedInstances(t.deps);
    expect(await row()).toMatchObject({ status: 'failed', error_code: 'workflows:interrupted' });
    // Its step here notices within a poll and stops its call; the failure stays as written.
    await waitFor(() => hanging.outcome === 'client-disconnected', 10_000);
    const after = await row();
    expect(after).toMatchObject({ status: 'failed', error_code: 'workflows:interrupted' });
    expect((after.steps as WorkflowRun['steps']).map((s) => s.status)).toEqual([
      'failed',
      'cancelled',
    ]);
  });

  it('ends every other instance at start on the embedded database, which one process owns', async () => {
    const live = randomUUID();
    await renewLease(t.db, live, 10 * 60_000);
    const ids = await leaveRuns({ ...owner, live }, ['live']);
    await endOtherLeases(t.db, t.deps.instance.id);
    const recovered = await recoverStoppedInstances(t.deps);
    expect(recovered.ended['chat-reply']).toContain(ids['chat-reply']!.live);
    expect(recovered.ended['workflow-run']).toContain(ids['workflow-run']!.live);
    const [self] = await t.db
      .select()
      .from(serverInstances)
      .where(eq(serverInstances.id, t.deps.instance.id));
    expect(self!.lease_expires_at.getTime()).toBeGreaterThan(Date.now());
    owner = await makeOwners();
  });

  it('says when a lease had lapsed before its renewal', async () => {
    const id = randomUUID();
    expect(await renewLease(t.db, id, 60_000)).toEqual({ lapsed: true });
    expect(await renewLease(t.db, id, 60_000)).toEqual({ lapsed: false });
    await t.db
      .update(serverInstances)
      .set({ lease_expires_at: sql`now() - interval '1 second'` })
      .where(eq(serverInstances.id, id));
    expect(await renewLease(t.db, id, 60_000)).toEqual({ lapsed: true });
  });

  it('runs as a job, every heartbeat on PostgreSQL, and forgets instances gone for a day', async () => {
    const old = randomUUID();
    await t.db
      .insert(serverInstances)
      .values({ id: old, lease_expires_at: sql`now() - interval '25 hours'` });
    const ids = await leaveRuns(owner, ['missing']);
    const reply = ids['chat-reply']!.missing!;
    expect(t.deps.config.instanceHeartbeatMs).toBe(10_000);
    // On PostgreSQL no call here: every instance asks for one each heartbeat (10 s). The embedded
    // database has one process, recovered at its start, so there the job is asked for by hand.
    if (testDriver() === 'pglite') await t.deps.jobs.send(RECOVER_QUEUE, {});
    await waitFor(async () => {
      const [row] = await t.db.select().from(messages).where(eq(messages.id, reply));
      const kept = await t.db.select().from(serverInstances).where(eq(serverInstances.id, old));
      return row!.status === 'interrupted' && kept.length === 0;
    }, 30_000);
  }, 40_000);
});

describe.skipIf(testDriver() !== 'postgres')('two sweeps at once on PostgreSQL', () => {
  let shared: Awaited<ReturnType<typeof createPostgresDatabaseUrl>>;
  const databases: Database[] = [];
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    shared = await createPostgresDatabaseUrl();
    for (let i = 0; i < 2; i += 1) databases.push(connectPostgres(shared.url));
    a = await startTestApp({ database: databases[0] });
    b = await startTestApp({ database: databases[1] });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    for (const database of databases) await database.close();
    await shared?.drop();
  });

  it('end each run of a gone instance once: one sweep or the other, never both', async () => {
    const carl = await a.user('recover-carl@example.com');
    const conv = (await carl.post<Conversation>('/rest/v1/conversations', {})).body.id;
    const dead = randomUUID();
    const n = 40;
    const replies = await a.db
      .insert(messages)
      .values(
        Array.from({ length: n }, (_, i) => ({
          conversation_id: conv,
          user_id: carl.id,
          role: 'assistant' as const,
          content: `partial ${i}`,
          status: 'streaming' as const,
          instance_id: dead,
        })),
      )
      .returning({ id: messages.id });
    const runs = await a.db
      .insert(agentRuns)
      .values(
        replies.map((r) => ({
          user_id: carl.id,
          agent_name: 'Helper',
          agent_version: 1,
          conversation_id: conv,
          message_id: r.id,
          status: 'running' as const,
          instance_id: dead,
        })),
      )
      .returning({ id: agentRuns.id });
    const wf = await carl.post<Workflow>('/rest/v1/workflows', {
      name: 'One step',
      steps: [{ id: 'only', kind: 'transform', mode: 'template', template: 'x' }],
    });
    const workflowIds: string[] = [];
    for (let i = 0; i < n; i += 1) {
      const run = await createWorkflowRun(a.deps, {
        userId: carl.id,
        workflowId: wf.body.id,
        inputs: {},
        trigger: 'manual',
      });
      workflowIds.push(run.id);
    }
    await a.db
      .update(workflowRuns)
      .set({ status: 'running', instance_id: dead })
      .where(inArray(workflowRuns.id, workflowIds));

    const [one, two] = await Promise.all([
      recoverStoppedInstances(a.deps),
      recoverStoppedInstances(b.deps),
    ]);
    for (const [kind, all] of [
      ['chat-reply', replies.map((r) => r.id)],
      ['agent-run', runs.map((r) => r.id)],
      ['workflow-run', workflowIds],
    ] as const) {
      const byOne = one.ended[kind] ?? [];
      const byTwo = two.ended[kind] ?? [];
      expect(
        byOne.filter((id) => byTwo.includes(id)),
        kind,
      ).toEqual([]);
      expect([...byOne, ...byTwo].sort(), kind).toEqual([...all].sort());
    }
  });
});
