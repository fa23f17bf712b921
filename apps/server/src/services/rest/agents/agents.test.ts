import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent, AgentVersion } from '@chorus/shared/api/agents';
import { agentLimits } from '@chorus/shared/api/agents';
import type { KnowledgeBase } from '@chorus/shared/api/knowledge';
import { messageFor } from '@chorus/shared/error-catalogue';
import { AgentsRepository } from '../../../db/repositories/agents.ts';
import {
  agents,
  agentVersions,
  httpTools,
  mcpServers,
  mcpTools,
} from '../../../db/schema/index.ts';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

type Client = Awaited<ReturnType<TestApp['user']>>;
type Refusal = { error: string; code: string };

let t: TestApp;
let ann: Client;
let bob: Client;
let researcher: Agent;
let annHttpTool: string;
let annMcpTool: string;
let bobHttpTool: string;

const addHttpTool = async (userId: string, name: string) => {
  const [row] = await t.db
    .insert(httpTools)
    .values({
      user_id: userId,
      name,
      url_template: 'https://example.com/{q}',
      input_schema: { type: 'object', properties: {} },
    })
    .returning();
  return `http:${row!.id}`;
};

const addMcpTool = async (userId: string, name: string) => {
  const [server] = await t.db
    .insert(mcpServers)
    .values({ user_id: userId, name: 'Docs', url: 'https://mcp.example.com/mcp' })
    .returning();
  const [row] = await t.db
    .insert(mcpTools)
    .values({
      server_id: server!.id,
      user_id: userId,
      name,
      input_schema: { type: 'object' },
      hash: 'h1',
    })
    .returning();
  return `mcp:${row!.id}`;
};

const versionsOf = async (who: Client, id: string) =>
  (await who.get<{ versions: AgentVersion[] }>(`/rest/v1/agents/${id}/versions`)).body.versions;

beforeAll(async () => {
  t = await startTestApp();
  ann = await t.user('agents-ann@example.com');
  bob = await t.user('agents-bob@example.com');
  annHttpTool = await addHttpTool(ann.id, 'weather');
  annMcpTool = await addMcpTool(ann.id, 'search_docs');
  bobHttpTool = await addHttpTool(bob.id, 'bobs_tool');
  const res = await ann.post<Agent>('/rest/v1/agents', {
    name: '  Café Researcher!  ',
    provider: 'openai',
    instructions: 'Look things up, then answer.',
  });
  expect(res.status).toBe(201);
  researcher = res.body;
});
afterAll(() => t.close());

describe('agents', () => {
  it('saves an agent with the defaults, a handle from its name and version 1', async () => {
    expect(researcher).toMatchObject({
      name: 'Café Researcher!',
      handle: 'cafe-researcher',
      description: '',
      avatar: '',
      instructions: 'Look things up, then answer.',
      provider: 'openai',
      model: null,
      temperature: null,
      max_steps: agentLimits.steps.default,
      tools: [],
      knowledge_base_ids: [],
      version: 1,
    });
    const list = await ann.get<{ agents: Agent[] }>('/rest/v1/agents');
    expect(list.body.agents.map((a) => a.id)).toEqual([researcher.id]);
    expect((await ann.get<Agent>(`/rest/v1/agents/${researcher.id}`)).body).toEqual(researcher);
    const versions = await versionsOf(ann, researcher.id);
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({
      version: 1,
      agent: { name: 'Café Researcher!', handle: 'cafe-researcher', max_steps: 10 },
    });
  });

  it('lists the newest agent first', async () => {
    const second = (
      await ann.post<Agent>('/rest/v1/agents', { name: 'Second', provider: 'openai' })
    ).body;
    const list = await ann.get<{ agents: Agent[] }>('/rest/v1/agents');
    expect(list.body.agents.map((a) => a.id)).toEqual([second.id, researcher.id]);
    expect((await ann.del(`/rest/v1/agents/${second.id}`)).status).toBe(204);
  });

  it('saves each change as a new version and keeps the earlier ones', async () => {
    const base = await ann.post<KnowledgeBase>('/rest/v1/knowledge-bases', { name: 'Notes' });
    expect(base.status).toBe(201);
    const changed = await ann.patch<Agent>(`/rest/v1/agents/${researcher.id}`, {
      name: 'Deep Researcher',
      max_steps: agentLimits.steps.max,
      temperature: 0.5,
      tools: [
        { tool: 'builtin:web_fetch', approval: 'never' },
        { tool: annHttpTool, approval: 'always' },
        { tool: annMcpTool, approval: 'once' },
      ],
      knowledge_base_ids: [base.body.id],
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      name: 'Deep Researcher',
      handle: 'deep-researcher',
      instructions: 'Look things up, then answer.',
      max_steps: 25,
      temperature: 0.5,
      knowledge_base_ids: [base.body.id],
      version: 2,
    });
    expect(changed.body.tools.map((x) => x.tool)).toEqual([
      'builtin:web_fetch',
      annHttpTool,
      annMcpTool,
    ]);
    const versions = await versionsOf(ann, researcher.id);
    expect(versions.map((v) => v.version)).toEqual([2, 1]);
    expect(versions[0]!.agent).toMatchObject({ name: 'Deep Researcher', max_steps: 25 });
    expect(versions[1]!.agent).toMatchObject({ name: 'Café Researcher!', max_steps: 10 });
  });

  it('keeps the version when a change changes nothing', async () => {
    const before = (await ann.get<Agent>(`/rest/v1/agents/${researcher.id}`)).body;
    const same = await ann.patch<Agent>(`/rest/v1/agents/${researcher.id}`, {
      name: before.name,
      tools: before.tools,
    });
    expect(same.status).toBe(200);
    expect(same.body.version).toBe(before.version);
    expect(await versionsOf(ann, researcher.id)).toHaveLength(before.version);
  });

  it('restores an old version as a new one, leaving history as it was', async () => {
    const restored = await ann.post<Agent>(`/rest/v1/agents/${researcher.id}/versions/1/restore`);
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({
      id: researcher.id,
      name: 'Café Researcher!',
      handle: 'cafe-researcher',
      max_steps: 10,
      temperature: null,
      tools: [],
      knowledge_base_ids: [],
      version: 3,
    });
    const versions = await versionsOf(ann, researcher.id);
    expect(versions.map((v) => v.version)).toEqual([3, 2, 1]);
    expect(versions[1]!.agent.name).toBe('Deep Researcher');
    expect(versions[0]!.agent).toEqual(versions[2]!.agent);

    for (const version of ['9', '0', 'x', '1.5', '99999999999']) {
      const res = await ann.post<Refusal>(
        `/rest/v1/agents/${researcher.id}/versions/${version}/restore`,
      );
      expect(res.status, version).toBe(404);
      expect(res.body.code).toBe('agents:version_not_found');
    }
  });

  it('refuses to restore a version whose tool is gone', async () => {
    const temp = await addHttpTool(ann.id, 'temporary');
    const agent = (
      await ann.post<Agent>('/rest/v1/agents', {
        name: 'Fleeting',
        provider: 'openai',
        tools: [{ tool: temp, approval: 'never' }],
      })
    ).body;
    await ann.patch(`/rest/v1/agents/${agent.id}`, { tools: [] });
    await t.db.delete(httpTools).where(eq(httpTools.id, temp.slice('http:'.length)));
    const res = await ann.post<Refusal>(`/rest/v1/agents/${agent.id}/versions/1/restore`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'agents:unknown_tool',
      error: messageFor('agents:unknown_tool'),
    });
    expect((await ann.get<Agent>(`/rest/v1/agents/${agent.id}`)).body.version).toBe(2);
    await ann.del(`/rest/v1/agents/${agent.id}`);
  });

  it('refuses bad input with typed 400s, never a 500', async () => {
    const cases: unknown[] = [
      {},
      { name: '', provider: 'openai' },
      { name: '!!!', provider: 'openai' },
      { name: 'X', provider: 'nobody' },
      { name: 42, provider: 'openai' },
      { name: 'X', provider: 'openai', max_steps: agentLimits.steps.max + 1 },
      { name: 'X', provider: 'openai', max_steps: 0 },
      { name: 'X', provider: 'openai', max_steps: 2.5 },
      { name: 'X', provider: 'openai', max_steps: '10' },
      { name: 'X', provider: 'openai', temperature: 3 },
      { name: 'X', provider: 'openai', tools: 'builtin:calculator' },
      { name: 'X', provider: 'openai', tools: [{ tool: 'calculator', approval: 'never' }] },
      { name: 'X', provider: 'openai', tools: [{ tool: 'builtin:calculator', approval: 'maybe' }] },
      {
        name: 'X',
        provider: 'openai',
        tools: [
          { tool: 'builtin:calculator', approval: 'never' },
          { tool: 'builtin:calculator', approval: 'always' },
        ],
      },
      { name: 'X', provider: 'openai', knowledge_base_ids: ['not-an-id'] },
      { name: 'X'.repeat(agentLimits.name + 1), provider: 'openai' },
      [],
      null,
    ];
    for (const body of cases) {
      const res = await ann.post<Refusal>('/rest/v1/agents', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code, JSON.stringify(body)).toBe('bad_request:validation');
    }
    const malformed = await ann.request<Refusal>('POST', '/rest/v1/agents', '{"name": ');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('request:malformed_json');

    const patches: unknown[] = [{}, { unknown_field: 1 }, { max_steps: 26 }, { tools: null }];
    for (const body of patches) {
      const res = await ann.patch<Refusal>(`/rest/v1/agents/${researcher.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('bad_request:validation');
    }
  });

  it('ignores fields it does not know', async () => {
    const res = await ann.post<Agent & { owner?: string }>('/rest/v1/agents', {
      name: 'Extra',
      provider: 'openai',
      owner: bob.id,
      version: 99,
      handle: 'someone-else',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ handle: 'extra', version: 1 });
    expect(res.body.owner).toBeUndefined();
    const [row] = await t.db.select().from(agents).where(eq(agents.id, res.body.id));
    expect(row!.user_id).toBe(ann.id);
    await ann.del(`/rest/v1/agents/${res.body.id}`);
  });

  it('refuses tools that are unknown or not the user’s', async () => {
    const missing = 'http:00000000-0000-4000-8000-000000000000';
    for (const tool of [
      'builtin:teleport',
      bobHttpTool,
      missing,
      'mcp:00000000-0000-4000-8000-000000000000',
      `mcp:${'-'.repeat(36)}`,
      `mcp:${annHttpTool.slice('http:'.length)}`,
    ]) {
      const res = await ann.post<Refusal>('/rest/v1/agents', {
        name: 'Sneaky',
        provider: 'openai',
        tools: [{ tool, approval: 'never' }],
      });
      expect(res.status, tool).toBe(400);
      expect(res.body.code).toBe('agents:unknown_tool');
      const patched = await ann.patch<Refusal>(`/rest/v1/agents/${researcher.id}`, {
        tools: [{ tool, approval: 'never' }],
      });
      expect(patched.status, tool).toBe(400);
      expect(patched.body.code).toBe('agents:unknown_tool');
    }
    expect((await ann.get<{ agents: Agent[] }>('/rest/v1/agents')).body.agents).toHaveLength(1);
  });

  it('refuses another user’s knowledge base', async () => {
    const base = await ann.post<KnowledgeBase>('/rest/v1/knowledge-bases', { name: 'Ann only' });
    const sneaky = await bob.post<Refusal>('/rest/v1/agents', {
      name: 'Sneaky',
      provider: 'openai',
      knowledge_base_ids: [base.body.id],
    });
    expect(sneaky.status).toBe(404);
    expect(sneaky.body.code).toBe('knowledge:not_found');
    const theirs = (
      await bob.post<Agent>('/rest/v1/agents', { name: 'Bob agent', provider: 'openai' })
    ).body;
    const patched = await bob.patch<Refusal>(`/rest/v1/agents/${theirs.id}`, {
      knowledge_base_ids: [base.body.id],
    });
    expect(patched.status).toBe(404);
    expect(patched.body.code).toBe('knowledge:not_found');
    await bob.del(`/rest/v1/agents/${theirs.id}`);
  });

  it('refuses a second agent whose name makes the same handle, for that user only', async () => {
    const clash = await ann.post<Refusal>('/rest/v1/agents', {
      name: 'café   RESEARCHER',
      provider: 'openai',
    });
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({
      code: 'agents:handle_taken',
      error: messageFor('agents:handle_taken'),
    });
    const other = (await ann.post<Agent>('/rest/v1/agents', { name: 'Other', provider: 'openai' }))
      .body;
    const renamed = await ann.patch<Refusal>(`/rest/v1/agents/${other.id}`, {
      name: 'Cafe Researcher',
    });
    expect(renamed.status).toBe(409);
    expect(renamed.body.code).toBe('agents:handle_taken');
    // Restoring a version whose handle another agent took since is refused the same way.
    await ann.patch(`/rest/v1/agents/${other.id}`, { name: 'Other two' });
    const freed = await ann.patch<Agent>(`/rest/v1/agents/${researcher.id}`, { name: 'Analyst' });
    expect(freed.body.handle).toBe('analyst');
    await ann.patch(`/rest/v1/agents/${other.id}`, { name: 'Café Researcher' });
    const back = await ann.post<Refusal>(`/rest/v1/agents/${researcher.id}/versions/1/restore`);
    expect(back.status).toBe(409);
    expect(back.body.code).toBe('agents:handle_taken');
    await ann.del(`/rest/v1/agents/${other.id}`);
    // Bob may use the same handle.
    const bobs = await bob.post<Agent>('/rest/v1/agents', { name: 'Analyst', provider: 'openai' });
    expect(bobs.status).toBe(201);
    await bob.del(`/rest/v1/agents/${bobs.body.id}`);
  });

  it('refuses more agents than one may keep', async () => {
    const carol = await t.user('agents-carol@example.com');
    await t.db.insert(agents).values(
      Array.from({ length: agentLimits.perUser }, (_, i) => ({
        user_id: carol.id,
        name: `Agent ${i}`,
        handle: `agent-${i}`,
        provider: 'openai',
      })),
    );
    const res = await carol.post<Refusal>('/rest/v1/agents', {
      name: 'One more',
      provider: 'openai',
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('agents:too_many');
  });

  it('lets no one else list, read, change, restore or delete it', async () => {
    for (const [method, path, body] of [
      ['GET', `/rest/v1/agents/${researcher.id}`],
      ['PATCH', `/rest/v1/agents/${researcher.id}`, { name: 'Mine' }],
      ['DELETE', `/rest/v1/agents/${researcher.id}`],
      ['GET', `/rest/v1/agents/${researcher.id}/versions`],
      ['POST', `/rest/v1/agents/${researcher.id}/versions/1/restore`],
      ['GET', '/rest/v1/agents/not-a-uuid'],
      ['GET', '/rest/v1/agents/not-a-uuid/versions'],
    ] as [string, string, unknown?][]) {
      const res = await bob.request<Refusal>(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.body.code).toBe('agents:not_found');
    }
    expect((await bob.get<{ agents: Agent[] }>('/rest/v1/agents')).body.agents).toEqual([]);
    const mine = (await ann.get<Agent>(`/rest/v1/agents/${researcher.id}`)).body;
    expect(mine.name).not.toBe('Mine');
  });

  it('deletes its versions with it', async () => {
    const temp = (await ann.post<Agent>('/rest/v1/agents', { name: 'Temp', provider: 'openai' }))
      .body;
    await ann.patch(`/rest/v1/agents/${temp.id}`, { description: 'Changed' });
    const rows = () => t.db.select().from(agentVersions).where(eq(agentVersions.agent_id, temp.id));
    expect(await rows()).toHaveLength(2);
    expect((await ann.del(`/rest/v1/agents/${temp.id}`)).status).toBe(204);
    expect(await rows()).toEqual([]);
    expect((await ann.get(`/rest/v1/agents/${temp.id}`)).status).toBe(404);
    expect((await ann.get(`/rest/v1/agents/${temp.id}/versions`)).status).toBe(404);
    expect((await ann.del(`/rest/v1/agents/${temp.id}`)).status).toBe(404);
  });
});

describe('AgentsRepository', () => {
  it("never reads, finds, changes, restores or deletes another user's agent", async () => {
    const annRepo = new AgentsRepository(t.db, ann.id);
    const mine = await annRepo.create({
      name: 'Private',
      description: '',
      avatar: '',
      instructions: 'secret',
      provider: 'openai',
      model: null,
      temperature: null,
      max_steps: 10,
      tools: [],
      knowledge_base_ids: [],
    });
    const theirs = new AgentsRepository(t.db, bob.id);
    expect(await theirs.get(mine.id)).toBeNull();
    expect(await theirs.getByHandle('private')).toBeNull();
    expect(await annRepo.getByHandle('Private')).toMatchObject({ id: mine.id });
    expect((await theirs.list()).map((a) => a.id)).not.toContain(mine.id);
    expect(await theirs.versions(mine.id)).toEqual([]);
    expect(await theirs.version(mine.id, 1)).toBeNull();
    expect(await theirs.update(mine.id, { instructions: 'taken' })).toBeNull();
    expect(await theirs.restore(mine.id, 1)).toBeNull();
    expect(await theirs.remove(mine.id)).toBe(false);
    expect(await theirs.unknownTools([annHttpTool, annMcpTool, 'builtin:calculator'])).toEqual([
      annHttpTool,
      annMcpTool,
    ]);
    expect(await annRepo.get(mine.id)).toEqual(mine);
    expect(await annRepo.remove(mine.id)).toBe(true);
  });
});
