import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startProviderSim } from '@chorus/provider-sim';
import type { Agent } from '@chorus/shared/api/agents';
import type { Message } from '@chorus/shared/api/conversations';
import type { CustomAi } from '@chorus/shared/api/custom-ais';
import type { KnowledgeBase, KnowledgeDocument } from '@chorus/shared/api/knowledge';
import type { Schedule, ScheduleRun } from '@chorus/shared/api/schedules';
import type { TestRunStatusBody, TestSet } from '@chorus/shared/api/test-runs';
import type { WidgetWithSecret } from '@chorus/shared/api/widgets';
import type { Workflow, WorkflowRun } from '@chorus/shared/api/workflows';
import { messageFor } from '@chorus/shared/error-catalogue';
import { chatMessages } from '@chorus/shared/messages';
import { createPostgresDatabaseUrl, testDriver } from '../test/database.ts';
import {
  httpUser,
  readUntil,
  startServerProcess,
  type ServerProcess,
} from '../test/server-process.ts';
import { waitFor } from '../test/streams.ts';
import { seedPgliteDataDir } from '../test/template.ts';
import { replyCutOffMessage } from '../widget/store.ts';
import { interruptedMessage } from '../workflows/engine.ts';

// A real server process killed (SIGKILL) in the middle of one run of every kind: a chat reply, an
// agent run, a widget reply, a workflow run, a schedule occurrence, a test run and a knowledge
// document. Each is ended (or resumed) once, within a minute (ADR 018): on PostgreSQL by the two
// instances still running, whose logs together name each run once; on the embedded database,
// which one process owns, by the same server started again.
//
// The instance killed talks to a provider simulator whose replies never finish (and to `[sim:
// hang]` prompts), so every run is mid-way when it dies; the survivors talk to a prompt one, so a
// resumed test run can end. The document's stored file is swapped for a named pipe before it is
// read: its worker waits on it, and whoever resumes it reads the text the test writes in.

const ONE_MINUTE = 60_000;
const HOST = 'https://shop.example.com';
const driver = testDriver();

let fast: Awaited<ReturnType<typeof startProviderSim>>;
let stuck: Awaited<ReturnType<typeof startProviderSim>>;
let dataDir: string;
let pgDb: Awaited<ReturnType<typeof createPostgresDatabaseUrl>> | undefined;
const servers: ServerProcess[] = [];

const start = async (sim: typeof fast) => {
  const server = await startServerProcess({
    dataDir,
    simBaseUrls: sim.baseUrls,
    databaseUrl: pgDb?.url,
    env: {
      // Shared by every instance (README), so a session and a stored key work on each.
      AUTH_SECRET: 'crash-recovery-auth-secret-0123456789abcdef',
      KEY_ENCRYPTION_SECRET: 'crash-recovery-key-secret-0123456789abcdef',
      // Short, so a dead instance is found in seconds; the defaults do it within 42 s.
      INSTANCE_LEASE_MS: '2000',
      INSTANCE_HEARTBEAT_MS: '500',
      // The hanging calls must outlive the kill, not end on their own.
      PROVIDER_IDLE_TIMEOUT_MS: '600000',
    },
  });
  servers.push(server);
  return server;
};

/** The pino lines a server wrote at warn and above. */
const logLines = (server: ServerProcess) =>
  server
    .logs()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** How many times the survivors' logs say they ended or resumed the run `id`. */
const recoveries = (survivors: ServerProcess[], id: string) =>
  survivors
    .flatMap(logLines)
    .filter(
      (l) =>
        (l.msg === 'runs of a stopped instance are ended' && (l.ids as string[]).includes(id)) ||
        (l.msg === 'a run of a stopped instance is resumed here' && l.runId === id),
    ).length;

/** The one file under DATA_DIR/storage (the document's). */
const storedObject = () => {
  const root = path.join(dataDir, 'storage');
  const files = (readdirSync(root, { recursive: true }) as string[])
    .map((name) => path.join(root, name))
    .filter((file) => statSync(file).isFile() || statSync(file).isFIFO());
  expect(files).toHaveLength(1);
  return files[0]!;
};

/**
 * Writes `text` into the pipe once something reads it (the worker that resumed the document);
 * until then opening it for writing fails at once (ENXIO).
 */
const feedPipe = async (fifo: string, text: string) => {
  let fd: number | undefined;
  await waitFor(() => {
    try {
      fd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
      return true;
    } catch {
      return false;
    }
  }, ONE_MINUTE);
  writeSync(fd!, text);
  closeSync(fd!);
};

beforeAll(async () => {
  fast = await startProviderSim({ port: 0 });
  // Every reply of this one takes minutes: the killed instance's calls are all mid-way.
  stuck = await startProviderSim({ port: 0, chunkDelayMs: 600_000 });
  dataDir = mkdtempSync(path.join(tmpdir(), 'chorus-crash-recovery-'));
  if (driver === 'postgres') pgDb = await createPostgresDatabaseUrl();
  else await seedPgliteDataDir(dataDir);
}, 60_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.kill('SIGKILL')));
  await fast?.close();
  await stuck?.close();
  await pgDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

it(`ends or resumes every kind of run of a killed instance once, within a minute (${driver})`, async () => {
  const a = await start(stuck);
  const ann = await httpUser(a.base, 'crash-recovery@example.com');
  const json = async <T>(res: Promise<Response>) => (await (await res).json()) as T;
  const get = <T>(url: string) => json<T>(ann.send('GET', url));

  // What the runs need: an agent, a widget on it, a workflow, a schedule, a test set, a base.
  const agent = await json<Agent>(
    ann.send('POST', '/rest/v1/agents', {
      name: 'Helper',
      provider: 'openai',
      instructions: 'Help.',
    }),
  );
  const widget = await json<WidgetWithSecret>(
    ann.send('POST', '/rest/v1/widgets', {
      name: 'Support',
      target: { agent_id: agent.id },
      appearance: { title: 'Ask us' },
      allowed_origins: [HOST],
    }),
  );
  const workflow = await json<Workflow>(
    ann.send('POST', '/rest/v1/workflows', {
      name: 'Long',
      steps: [
        { id: 'draft', kind: 'prompt', provider: 'openai', prompt: 'Draft [sim:hang]' },
        { id: 'after', kind: 'transform', mode: 'template', template: 'done' },
      ],
    }),
  );
  const prompt = await json<{ id: string }>(
    ann.send('POST', '/rest/v1/prompts', { title: 'Daily', content: 'Daily digest [sim:hang]' }),
  );
  const schedule = await json<Schedule>(
    ann.send('POST', '/rest/v1/schedules', {
      name: 'Daily',
      cron: '0 9 * * *',
      time_zone: 'UTC',
      email_completed: false,
      email_failed: false,
      target: { kind: 'prompt', prompt_id: prompt.id, provider: 'openai' },
    }),
  );
  const ai = await json<CustomAi>(
    ann.send('POST', '/rest/v1/custom-ais', {
      name: 'Echo',
      system_prompt: 'Answer briefly.',
      provider: 'openai',
    }),
  );
  const set = await json<TestSet>(
    ann.send('POST', '/rest/v1/test-sets', {
      name: 'Smoke',
      subject: { kind: 'custom_ai', id: ai.id },
      notify: false,
    }),
  );
  const cases = ['First case', 'Second case'];
  for (const input of cases) {
    const res = await ann.send('POST', `/rest/v1/test-sets/${set.id}/cases`, {
      name: input,
      input,
      assertions: [{ type: 'contains', values: ['Hello'], mode: 'any', ignore_case: false }],
    });
    expect(res.status).toBe(201);
  }
  const base = await json<KnowledgeBase>(
    ann.send('POST', '/rest/v1/knowledge-bases', {
      name: 'Notes',
      embedding_provider: null,
      embedding_model: null,
    }),
  );

  // The document: first stored blank (it fails: nothing to read), then its file becomes a pipe
  // and it is retried, so its worker waits on the pipe.
  const form = new FormData();
  form.append('files', new Blob([' \n'], { type: 'text/plain' }), 'notes.txt');
  const upload = await fetch(`${a.base}/rest/v1/knowledge-bases/${base.id}/documents`, {
    method: 'POST',
    headers: { origin: ann.headers().origin, cookie: ann.cookie },
    body: form,
  });
  expect(upload.status).toBe(200);
  const documents = () =>
    get<{ documents: KnowledgeDocument[] }>(`/rest/v1/knowledge-bases/${base.id}/documents`);
  const document = async () => (await documents()).documents[0]!;
  await waitFor(async () => (await document()).status === 'failed', 20_000);
  const fifo = storedObject();
  unlinkSync(fifo);
  execFileSync('mkfifo', ['-m', '600', fifo]);
  const docId = (await document()).id;
  const retried = await ann.send(
    'POST',
    `/rest/v1/knowledge-bases/${base.id}/documents/${docId}/retry`,
  );
  expect(retried.status).toBeLessThan(300);
  await waitFor(async () => (await document()).status === 'parsing', 20_000);

  // Every kind of run, mid-way on A.
  const firstToken = (sse: string) => sse.includes('delta');
  const chatConversation = await ann.conversation();
  const chat = await readUntil(await ann.chat(chatConversation, 'Go on [sim:hang]'), firstToken);
  const agentConversation = await ann.conversation();
  const agentChat = await readUntil(
    await ann.send('POST', '/functions/v1/chat', {
      conversation_id: agentConversation,
      provider: 'openai',
      agent_id: agent.id,
      text: 'Work on it [sim:hang]',
    }),
    firstToken,
  );
  const visitor = await fetch(`${a.base}/widget/v1/${widget.public_id}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-chorus-embedder': HOST },
    body: '{}',
  });
  const { session } = (await visitor.json()) as { session: string };
  const widgetChat = await readUntil(
    await fetch(`${a.base}/widget/v1/${widget.public_id}/chat`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-chorus-embedder': HOST,
        authorization: `Bearer ${session}`,
      },
      body: JSON.stringify({ message: 'Help me [sim:hang]', conversation_id: null }),
    }),
    firstToken,
  );
  const widgetConversation = (
    JSON.parse(widgetChat.sse().split('\n')[0]!.slice('data: '.length)) as {
      conversation_id: string;
    }
  ).conversation_id;
  const workflowRun = await json<WorkflowRun>(
    ann.send('POST', '/functions/v1/workflow-run', { workflow_id: workflow.id, inputs: {} }),
  );
  const occurrence = await json<ScheduleRun>(
    ann.send('POST', `/rest/v1/schedules/${schedule.id}/run-now`),
  );
  const testRun = await json<TestRunStatusBody>(
    ann.send('POST', '/functions/v1/test-run', {
      test_set_id: set.id,
      targets: [{ provider: 'openai', model: 'gpt-5-mini' }],
    }),
  );
  const pendingCall = (text: string) =>
    stuck.requests.some((r) => r.outcome === 'pending' && JSON.stringify(r.body).includes(text));
  // The chat reply's first words are saved (a partial write), so its end can be seen to keep them.
  await waitFor(
    async () => (await ann.messages(chatConversation)).at(-1)?.content === 'Hello',
    20_000,
  );
  await waitFor(
    () =>
      pendingCall('Draft [sim:hang]') &&
      pendingCall('Daily digest') &&
      cases.every((input) => pendingCall(input)),
    30_000,
  );

  // PostgreSQL: two more instances, so two survivors could both sweep; then A dies.
  const survivors: ServerProcess[] =
    driver === 'postgres' ? await Promise.all([start(fast), start(fast)]) : [];
  await a.kill('SIGKILL');
  const killedAt = Date.now();
  for (const stream of [chat, agentChat, widgetChat]) await stream.cancel();
  if (driver === 'pglite') survivors.push(await start(fast));
  const restartedAfter = Date.now() - killedAt;
  ann.use(survivors[0]!.base);

  // Each run, as its owner sees it, until it is ended (or resumed and done).
  const last = async (conversation: string) => (await ann.messages(conversation)).at(-1)!;
  // The chat as the app opens it, where an agent's reply carries its run.
  const lastOpened = async (conversation: string) =>
    (
      await get<{ messages: Message[] }>(`/rest/v1/conversations/${conversation}/messages/latest`)
    ).messages.at(-1)!;
  const checks: Record<string, () => Promise<boolean>> = {
    'chat reply': async () => (await last(chatConversation)).status === 'interrupted',
    'agent run': async () => {
      const reply = await lastOpened(agentConversation);
      return reply.status === 'interrupted' && reply.agent_run?.status === 'failed';
    },
    'widget reply': async () => {
      const seen = await get<{ messages: { role: string; status: string }[] }>(
        `/rest/v1/widgets/${widget.id}/sessions/${widgetConversation}`,
      );
      return seen.messages.at(-1)?.status === 'failed';
    },
    'workflow run': async () =>
      (await get<WorkflowRun>(`/rest/v1/workflow-runs/${workflowRun.id}`)).status === 'failed',
    'schedule occurrence': async () => {
      const { runs } = await get<{ runs: ScheduleRun[] }>(`/rest/v1/schedules/${schedule.id}/runs`);
      return runs.find((r) => r.id === occurrence.id)?.status === 'failed';
    },
    'test run': async () =>
      (await get<TestRunStatusBody>(`/functions/v1/test-run/${testRun.id}`)).status === 'done',
    'knowledge document': async () => (await document()).status === 'ready',
  };
  const feeding = feedPipe(fifo, 'Notes kept across a crash.\n');
  const took: Record<string, number> = {};
  await Promise.all(
    Object.entries(checks).map(async ([kind, check]) => {
      await waitFor(check, ONE_MINUTE + restartedAfter).catch(() => {
        throw new Error(
          `${kind}: not ended or resumed within a minute; the rest: ${JSON.stringify(took)}\n${survivors.map((s) => s.logs()).join('\n')}`,
        );
      });
      took[kind] = Date.now() - killedAt;
    }),
  );
  await feeding;
  // The bound: within a minute of the instance going away (on the embedded database,
  // of its restart, before which nothing can run).
  for (const [kind, ms] of Object.entries(took)) {
    const since = ms - (driver === 'pglite' ? restartedAfter : 0);
    expect(since, `${kind}: ${JSON.stringify({ took, restartedAfter })}`).toBeLessThan(ONE_MINUTE);
  }

  // What each ended run says, and what it kept.
  expect(await last(chatConversation)).toMatchObject({
    content: 'Hello',
    error: { code: 'chat:server_restarting', message: chatMessages.replyCutByRestart },
  });
  const failed = await get<WorkflowRun>(`/rest/v1/workflow-runs/${workflowRun.id}`);
  expect(failed.error).toMatchObject({
    code: 'workflows:interrupted',
    message: interruptedMessage,
  });
  expect(failed.steps.map((s) => s.status)).toEqual(['failed', 'cancelled']);
  const { runs } = await get<{ runs: ScheduleRun[] }>(`/rest/v1/schedules/${schedule.id}/runs`);
  expect(runs.find((r) => r.id === occurrence.id)!.error).toEqual({
    code: 'schedules:interrupted',
    message: messageFor('schedules:interrupted'),
  });
  const widgetSeen = await get<{ messages: { id: string; content: string }[] }>(
    `/rest/v1/widgets/${widget.id}/sessions/${widgetConversation}`,
  );
  expect(widgetSeen.messages.at(-1)!.content).toBe(replyCutOffMessage);
  const resumed = await get<TestRunStatusBody>(`/functions/v1/test-run/${testRun.id}`);
  expect(resumed).toMatchObject({ status: 'done', done: cases.length });
  expect(
    fast.requests.filter((r) => cases.some((c) => JSON.stringify(r.body).includes(c))),
  ).toHaveLength(cases.length);

  // Exactly once: of the instances left, one ended or resumed each run.
  const ids = {
    'chat reply': (await last(chatConversation)).id,
    'agent run': (await lastOpened(agentConversation)).agent_run!.id,
    'widget reply': widgetSeen.messages.at(-1)!.id,
    'workflow run': workflowRun.id,
    'schedule occurrence': occurrence.id,
    'test run': testRun.id,
    'knowledge document': docId,
  };
  for (const [kind, id] of Object.entries(ids)) {
    expect(recoveries(survivors, id), kind).toBe(1);
  }
}, 240_000);
