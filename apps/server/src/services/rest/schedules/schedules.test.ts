import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '@chorus/shared/api/agents';
import type { Schedule, ScheduleRun } from '@chorus/shared/api/schedules';
import { scheduleLimits } from '@chorus/shared/api/schedules';
import { emailMessages } from '@chorus/shared/email';
import { messageFor } from '@chorus/shared/error-catalogue';
import { schedules, workflows } from '../../../db/schema/index.ts';
import { eventually, startSmtpSink, type SmtpSink } from '../../../email/testing/smtp-sink.ts';
import { runOccurrence, runNow, tickSchedules } from '../../../schedules/occurrences.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

type Client = Awaited<ReturnType<TestApp['user']>>;
type Refusal = { error: string; code: string };

let sink: SmtpSink;
let t: TestApp;
let ann: Client;
let bob: Client;
let annPrompt: string;
let annWorkflow: string;
let bobPrompt: string;

const withKey = async (email: string) => {
  const u = await t.user(email);
  const res = await u.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-openai' });
  expect(res.status).toBe(200);
  return u;
};

const savePrompt = async (who: Client, title: string, content: string) => {
  const res = await who.post<{ id: string }>('/rest/v1/prompts', { title, content });
  expect(res.status).toBe(201);
  return res.body.id;
};

/** Yearly at a time the real minute tick of the running queue never reaches during a test. */
const RARELY = '0 9 1 1 *';

const create = async (who: Client, body: Record<string, unknown>) => {
  const res = await who.post<Schedule>('/rest/v1/schedules', { cron: RARELY, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

const promptSchedule = (who: Client, promptId: string, extra: Record<string, unknown> = {}) =>
  create(who, {
    name: 'Morning digest',
    target: {
      kind: 'prompt',
      prompt_id: promptId,
      variables: { topic: 'tides' },
      provider: 'openai',
    },
    ...extra,
  });

const runsOf = async (who: Client, id: string) =>
  (await who.get<{ runs: ScheduleRun[] }>(`/rest/v1/schedules/${id}/runs`)).body.runs;

/** Runs claimed occurrences in the test itself, so a tick's work is done when it returns. */
const inline = (job: { run_id: string; user_id: string }) => runOccurrence(t.deps, job);

/** Puts a schedule's next occurrence where a test wants it (a fixed, far-off "now"). */
const dueAt = async (id: string, at: string) => {
  await t.db
    .update(schedules)
    .set({ next_run_at: new Date(at) })
    .where(eq(schedules.id, id));
};

const scheduleRow = async (id: string) =>
  (await t.db.select().from(schedules).where(eq(schedules.id, id)))[0]!;

const mailsTo = (address: string, subject: string) =>
  sink.to(address).filter((r) => r.mail.subject === subject);

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({ providerSim: true, jobs: true, env: { SMTP_URL: sink.url } });
  ann = await withKey('schedules-ann@example.com');
  bob = await withKey('schedules-bob@example.com');
  annPrompt = await savePrompt(ann, 'Tide report', 'Tell me about {{topic}} today.');
  bobPrompt = await savePrompt(bob, 'Bob prompt', 'Hello there.');
  const [wf] = await t.db
    .insert(workflows)
    .values({ user_id: ann.id, name: 'Ann pipeline' })
    .returning();
  annWorkflow = wf!.id;
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

describe('schedules', () => {
  it('saves a schedule with its words, its next five runs in its zone and the target name', async () => {
    const s = await promptSchedule(ann, annPrompt, {
      cron: '0 9 * * *',
      time_zone: 'Europe/Berlin',
    });
    expect(s).toMatchObject({
      name: 'Morning digest',
      target_name: 'Tide report',
      description: 'At 09:00',
      time_zone: 'Europe/Berlin',
      missed: 'skip',
      enabled: true,
      email_completed: true,
      consecutive_failures: 0,
      last_run: null,
    });
    expect(s.next_runs).toHaveLength(5);
    for (const at of s.next_runs) {
      const local = new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Europe/Berlin',
        hour: '2-digit',
        minute: '2-digit',
      }).format(new Date(at));
      expect(local).toBe('09:00');
    }
    const list = await ann.get<{ schedules: Schedule[] }>('/rest/v1/schedules');
    expect(list.body.schedules.map((x) => x.id)).toContain(s.id);
    expect((await ann.del(`/rest/v1/schedules/${s.id}`)).status).toBe(204);
    expect((await ann.get(`/rest/v1/schedules/${s.id}`)).status).toBe(404);
  });

  it('previews an expression, and refuses bad ones with a typed 400', async () => {
    const ok = await ann.get<{ description: string; next_runs: string[] }>(
      '/rest/v1/schedules/preview?cron=*/15%20*%20*%20*%20*&time_zone=UTC',
    );
    expect(ok.status).toBe(200);
    expect(ok.body.description).toBe('Every 15 minutes');
    expect(ok.body.next_runs).toHaveLength(5);

    const badCron = await ann.get<Refusal>('/rest/v1/schedules/preview?cron=61%20*%20*%20*%20*');
    expect(badCron.status).toBe(400);
    expect(badCron.body.code).toBe('schedules:bad_cron');
    const badZone = await ann.post<Refusal>('/rest/v1/schedules', {
      name: 'x',
      cron: '0 9 * * *',
      time_zone: 'Mars/Olympus',
      target: { kind: 'prompt', prompt_id: annPrompt, provider: 'openai' },
    });
    expect(badZone.status).toBe(400);
    expect(badZone.body).toEqual({
      code: 'schedules:bad_time_zone',
      error: messageFor('schedules:bad_time_zone', { zone: 'Mars/Olympus' }),
    });
    const sixFields = await ann.post<Refusal>('/rest/v1/schedules', {
      name: 'x',
      cron: '0 0 9 * * *',
      target: { kind: 'prompt', prompt_id: annPrompt, provider: 'openai' },
    });
    expect(sixFields.body.code).toBe('schedules:bad_cron');
    for (const body of [
      {
        name: 'x',
        cron: RARELY,
        target: { kind: 'prompt', prompt_id: 'nope', provider: 'openai' },
      },
      { name: 'x', cron: RARELY, target: { kind: 'teleport' } },
      { name: '', cron: RARELY, target: { kind: 'scenario', scenario_id: annPrompt } },
      'not json',
    ]) {
      const res = await ann.post<Refusal>('/rest/v1/schedules', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const badCursor = await ann.get<Refusal>(
      `/rest/v1/schedules/${(await promptSchedule(ann, annPrompt)).id}/runs?cursor=garbage`,
    );
    expect(badCursor.body.code).toBe('schedules:bad_cursor');
    expect((await ann.get('/rest/v1/schedules/not-a-uuid')).status).toBe(404);
    const gone = await ann.post<Refusal>('/rest/v1/schedules', {
      name: 'x',
      cron: RARELY,
      target: { kind: 'scenario', scenario_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('scenarios:not_found');
  });

  it('runs a prompt schedule now, stores the occurrence and mails the result', async () => {
    const s = await promptSchedule(ann, annPrompt, { name: 'Tides now' });
    const res = await ann.post<ScheduleRun>(`/rest/v1/schedules/${s.id}/run-now`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ trigger: 'manual', status: 'running' });
    const run = await eventually(async () => {
      const [latest] = await runsOf(ann, s.id);
      return latest?.status === 'complete' ? latest : null;
    }, 'the run to complete');
    expect(run.output_text).toContain('Tell me about tides today.');
    expect(run.input_tokens).toBeGreaterThan(0);
    expect(run.output_tokens).toBeGreaterThan(0);
    const mail = await eventually(
      () => mailsTo(ann.email, 'Run completed: Tides now')[0]?.mail,
      'the completed mail',
    );
    expect(mail.text).toContain('Tell me about tides today.');
    const shown = await ann.get<Schedule>(`/rest/v1/schedules/${s.id}`);
    expect(shown.body.last_run?.id).toBe(run.id);
  });

  it('sends the completed mail with the spec words when the answer is empty', async () => {
    const s = await promptSchedule(ann, annPrompt, { name: 'Empty answer' });
    // A workflow with no steps answers nothing: the mail still goes, with the spec's words.
    await t.db
      .update(schedules)
      .set({ target: { kind: 'workflow', workflow_id: annWorkflow, inputs: {}, version: null } })
      .where(eq(schedules.id, s.id));
    await runNow(t.deps, (await scheduleRow(s.id)) as never, inline);
    const [run] = await runsOf(ann, s.id);
    expect(run).toMatchObject({ status: 'complete', output_text: '' });
    expect(run?.workflow_run_id).toBeTruthy();
    const mail = await eventually(
      () => mailsTo(ann.email, 'Run completed: Empty answer')[0]?.mail,
      'the completed mail',
    );
    expect(mail.text).toContain(emailMessages.noResponseText);
  });

  it('claims a due occurrence exactly once when two ticks run at once', async () => {
    const s = await promptSchedule(ann, annPrompt, { name: 'Twice?', cron: '0 9 * * *' });
    await dueAt(s.id, '2099-03-02T09:00:00Z');
    const now = new Date('2099-03-02T09:00:20Z');
    const [a, b] = await Promise.all([
      tickSchedules(t.deps, now, inline),
      tickSchedules(t.deps, now, inline),
    ]);
    expect([...a, ...b].filter((r) => r.schedule_id === s.id)).toHaveLength(1);
    const runs = await runsOf(ann, s.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      trigger: 'cron',
      status: 'complete',
      occurrence_at: '2099-03-02T09:00:00.000Z',
    });
    expect((await scheduleRow(s.id)).next_run_at?.toISOString()).toBe('2099-03-03T09:00:00.000Z');
    // A later tick in the same minute finds nothing left to claim.
    const later = await tickSchedules(t.deps, new Date('2099-03-02T09:00:50Z'), inline);
    expect(later.filter((r) => r.schedule_id === s.id)).toEqual([]);
  });

  it('skips occurrences missed during downtime, or runs them once, as the schedule says', async () => {
    const skip = await promptSchedule(ann, annPrompt, { name: 'Skipper', cron: '0 * * * *' });
    const once = await promptSchedule(ann, annPrompt, {
      name: 'Catch up',
      cron: '0 * * * *',
      missed: 'run_once',
    });
    // Down from 06:00 to 09:30: 06:00 … 09:00 were missed.
    await dueAt(skip.id, '2099-04-01T06:00:00Z');
    await dueAt(once.id, '2099-04-01T06:00:00Z');
    await tickSchedules(t.deps, new Date('2099-04-01T09:30:00Z'), inline);

    const skipped = await runsOf(ann, skip.id);
    expect(skipped).toHaveLength(1);
    expect(skipped[0]).toMatchObject({ trigger: 'missed', status: 'skipped', output_text: '' });
    const caught = await runsOf(ann, once.id);
    expect(caught).toHaveLength(1);
    expect(caught[0]).toMatchObject({ trigger: 'missed', status: 'complete' });
    for (const id of [skip.id, once.id]) {
      expect((await scheduleRow(id)).next_run_at?.toISOString()).toBe('2099-04-01T10:00:00.000Z');
    }
  });

  it('runs nothing while paused, and resumes from now with a clean slate', async () => {
    const s = await promptSchedule(ann, annPrompt, { name: 'Pausable', cron: '0 9 * * *' });
    await dueAt(s.id, '2099-05-01T09:00:00Z');
    const paused = await ann.post<Schedule>(`/rest/v1/schedules/${s.id}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ enabled: false, next_runs: [] });
    const claimed = await tickSchedules(t.deps, new Date('2099-05-01T09:00:10Z'), inline);
    expect(claimed.filter((r) => r.schedule_id === s.id)).toEqual([]);
    expect(await runsOf(ann, s.id)).toEqual([]);

    await t.db
      .update(schedules)
      .set({ consecutive_failures: 3, disabled_reason: 'It failed.' })
      .where(eq(schedules.id, s.id));
    const resumed = await ann.post<Schedule>(`/rest/v1/schedules/${s.id}/resume`);
    expect(resumed.body).toMatchObject({
      enabled: true,
      consecutive_failures: 0,
      disabled_reason: null,
    });
    expect(new Date(resumed.body.next_runs[0]!).getTime()).toBeGreaterThan(Date.now());
  });

  it('turns a schedule off after five failures in a row, and says so by mail', async () => {
    const s = await create(ann, {
      name: 'Doomed',
      // No Anthropic key: every run fails with keys:missing.
      target: {
        kind: 'prompt',
        prompt_id: annPrompt,
        variables: { topic: 'x' },
        provider: 'anthropic',
      },
    });
    for (let i = 0; i < scheduleLimits.failuresBeforeDisable; i += 1) {
      await runNow(t.deps, (await scheduleRow(s.id)) as never, inline);
    }
    const runs = await runsOf(ann, s.id);
    expect(runs).toHaveLength(5);
    expect(runs.every((r) => r.status === 'failed' && r.error?.code === 'keys:missing')).toBe(true);
    const shown = (await ann.get<Schedule>(`/rest/v1/schedules/${s.id}`)).body;
    expect(shown).toMatchObject({ enabled: false, consecutive_failures: 5, next_runs: [] });
    expect(shown.disabled_reason).toContain('It failed 5 times in a row.');
    await eventually(
      () => mailsTo(ann.email, 'Run failed: Doomed').length === 5,
      '5 failure mails',
    );
    const off = await eventually(
      () => mailsTo(ann.email, 'Schedule turned off: Doomed')[0]?.mail,
      'the turned-off mail',
    );
    expect(off.text).toContain(runs[0]!.error!.message);
    expect(mailsTo(ann.email, 'Schedule turned off: Doomed')).toHaveLength(1);
  });

  it('stops an agent task that needs a tool approval, never approving it, and mails', async () => {
    const agent = await ann.post<Agent>('/rest/v1/agents', {
      name: 'Careful Calc',
      instructions: 'Use your tools.',
      provider: 'openai',
      tools: [{ tool: 'builtin:calculator', approval: 'always' }],
    });
    expect(agent.status).toBe(201);
    const s = await create(ann, {
      name: 'Agent sums',
      target: {
        kind: 'agent',
        agent_id: agent.body.id,
        task: 'Add it up [sim:tool calculator {"expression":"2+2"}]',
      },
    });
    await runNow(t.deps, (await scheduleRow(s.id)) as never, inline);
    const [run] = await runsOf(ann, s.id);
    expect(run).toMatchObject({
      status: 'stopped',
      error: { code: 'schedules:needs_approval', message: messageFor('schedules:needs_approval') },
    });
    const mail = await eventually(
      () => mailsTo(ann.email, 'Run stopped: Agent sums')[0]?.mail,
      'the approval mail',
    );
    expect(mail.text).toContain(messageFor('schedules:needs_approval'));
    expect((await scheduleRow(s.id)).consecutive_failures).toBe(0);
  });

  it("keeps a user's schedules from everyone else", async () => {
    const s = await promptSchedule(ann, annPrompt, { name: 'Private' });
    const base = `/rest/v1/schedules/${s.id}`;
    for (const res of [
      await bob.get<Refusal>(base),
      await bob.patch<Refusal>(base, { name: 'Mine now' }),
      await bob.get<Refusal>(`${base}/runs`),
      await bob.post<Refusal>(`${base}/run-now`),
      await bob.post<Refusal>(`${base}/pause`),
      await bob.post<Refusal>(`${base}/resume`),
      await bob.del<Refusal>(base),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('schedules:not_found');
    }
    const list = await bob.get<{ schedules: Schedule[] }>('/rest/v1/schedules');
    expect(list.body.schedules.map((x) => x.id)).not.toContain(s.id);
    expect((await ann.get<Schedule>(base)).body.name).toBe('Private');
    expect(await runsOf(ann, s.id)).toEqual([]);

    const stealPrompt = await bob.post<Refusal>('/rest/v1/schedules', {
      name: 'x',
      cron: RARELY,
      target: { kind: 'prompt', prompt_id: annPrompt, provider: 'openai' },
    });
    expect(stealPrompt.status).toBe(404);
    expect(stealPrompt.body.code).toBe('prompts:not_found');
    const stealWorkflow = await bob.post<Refusal>('/rest/v1/schedules', {
      name: 'x',
      cron: RARELY,
      target: { kind: 'workflow', workflow_id: annWorkflow },
    });
    expect(stealWorkflow.status).toBe(404);
    expect(stealWorkflow.body.code).toBe('workflows:not_found');
    const own = await create(bob, {
      name: 'Bob',
      target: { kind: 'prompt', prompt_id: bobPrompt, provider: 'openai' },
    });
    const retarget = await bob.patch<Refusal>(`/rest/v1/schedules/${own.id}`, {
      target: { kind: 'prompt', prompt_id: annPrompt, provider: 'openai' },
    });
    expect(retarget.status).toBe(404);
  });

  it('refuses a schedule past the limit with a 409', async () => {
    const have = (await bob.get<{ schedules: Schedule[] }>('/rest/v1/schedules')).body.schedules
      .length;
    for (let i = have; i < scheduleLimits.perUser; i += 1) {
      await create(bob, {
        name: `Bob ${i}`,
        target: { kind: 'prompt', prompt_id: bobPrompt, provider: 'openai' },
      });
    }
    const res = await bob.post<Refusal>('/rest/v1/schedules', {
      name: 'One too many',
      cron: RARELY,
      target: { kind: 'prompt', prompt_id: bobPrompt, provider: 'openai' },
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('schedules:too_many');
  });
});
