import { and, eq, inArray } from 'drizzle-orm';
import type { AgentTool } from '@chorus/shared/api/agents';
import type { Subject, SubjectKind } from '@chorus/shared/api/test-runs';
import { isProviderId, type ProviderId } from '@chorus/shared/providers';
import { fillTemplate } from '@chorus/shared/template';
import type { Db } from '../db/client.ts';
import { AgentsRepository } from '../db/repositories/agents.ts';
import { CustomAisRepository } from '../db/repositories/custom-ais.ts';
import { PromptsRepository } from '../db/repositories/prompts.ts';
import { ScenariosRepository, scenarioPrompt } from '../db/repositories/scenarios.ts';
import { agents, customAis, prompts, scenarios } from '../db/schema/index.ts';

/**
 * What a test set runs against, read once when a run starts and stored in its plan: plain JSON,
 * so a run resumed after a restart runs what it started with.
 */
export type ResolvedSubject = {
  kind: SubjectKind;
  id: string;
  name: string;
  /** Instructions: a scenario's system prompt, a custom AI's system prompt, an agent's instructions; '' for a saved prompt. */
  system: string;
  /** The message template ({{var}}) of a prompt (its content) or scenario (its user_prompt); null for custom_ai/agent, whose cases' `input` is the message. */
  template: string | null;
  /** Default variable values (a scenario's `variables`), overridden by a case's. */
  variables: Record<string, string>;
  provider: ProviderId | null;
  model: string | null;
  temperature: number | null;
  topP: number | null;
  maxOutputTokens: number | null;
  /** Agents only: what buildAgentToolset (apps/server/src/agents/toolset.ts) needs. */
  agent: { tools: AgentTool[]; knowledge_base_ids: string[]; max_steps: number } | null;
};

const providerOf = (value: string | null | undefined): ProviderId | null =>
  isProviderId(value) ? value : null;

const numberOrNull = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** Only string values: a variables column is data a person typed, never trusted to be clean. */
const stringRecord = (value: unknown): Record<string, string> => {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return out;
  for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
};

const base = {
  system: '',
  template: null,
  variables: {},
  provider: null,
  model: null,
  temperature: null,
  topP: null,
  maxOutputTokens: null,
  agent: null,
} satisfies Partial<ResolvedSubject>;

/** The subject as it is now; null when it was deleted or is not the user's. */
export const resolveSubject = async (
  db: Db,
  userId: string,
  subject: Subject,
): Promise<ResolvedSubject | null> => {
  switch (subject.kind) {
    case 'prompt': {
      const row = await new PromptsRepository(db, userId).get(subject.id);
      if (!row) return null;
      return { ...base, kind: 'prompt', id: row.id, name: row.title, template: row.content };
    }
    case 'scenario': {
      const row = await new ScenariosRepository(db, userId).get(subject.id);
      if (!row) return null;
      return {
        ...base,
        kind: 'scenario',
        id: row.id,
        name: row.title,
        system: row.system_prompt,
        template: scenarioPrompt(row),
        variables: stringRecord(row.variables),
        temperature: numberOrNull(row.parameters?.temperature),
        maxOutputTokens: numberOrNull(row.parameters?.max_tokens),
      };
    }
    case 'custom_ai': {
      const row = await new CustomAisRepository(db, userId).get(subject.id);
      if (!row) return null;
      return {
        ...base,
        kind: 'custom_ai',
        id: row.id,
        name: row.name,
        system: row.system_prompt,
        provider: providerOf(row.provider),
        model: row.model ?? null,
        temperature: numberOrNull(row.temperature),
        topP: numberOrNull(row.top_p),
        maxOutputTokens: numberOrNull(row.max_tokens),
      };
    }
    case 'agent': {
      const row = await new AgentsRepository(db, userId).get(subject.id);
      if (!row) return null;
      return {
        ...base,
        kind: 'agent',
        id: row.id,
        name: row.name,
        system: row.instructions,
        provider: providerOf(row.provider),
        model: row.model ?? null,
        temperature: numberOrNull(row.temperature),
        agent: {
          tools: row.tools.map((t) => ({ tool: t.tool, approval: t.approval })) as AgentTool[],
          knowledge_base_ids: [...row.knowledge_base_ids],
          max_steps: row.max_steps,
        },
      };
    }
  }
};

export const subjectKey = (subject: { kind: SubjectKind; id: string }) =>
  `${subject.kind}:${subject.id}`;

/**
 * The names of the user's subjects that still exist, keyed `${kind}:${id}`: one query per kind
 * present. A subject gone (or someone else's) has no entry.
 */
export const subjectNames = async (
  db: Db,
  userId: string,
  subjects: Subject[],
): Promise<Map<string, string>> => {
  const idsOf = (kind: SubjectKind) => [
    ...new Set(subjects.filter((s) => s.kind === kind).map((s) => s.id)),
  ];
  const found = new Map<string, string>();
  const read = async (
    kind: SubjectKind,
    query: (ids: string[]) => Promise<{ id: string; name: string }[]>,
  ) => {
    const ids = idsOf(kind);
    if (ids.length === 0) return;
    for (const row of await query(ids)) found.set(subjectKey({ kind, id: row.id }), row.name);
  };
  await Promise.all([
    read('prompt', (ids) =>
      db
        .select({ id: prompts.id, name: prompts.title })
        .from(prompts)
        .where(and(eq(prompts.user_id, userId), inArray(prompts.id, ids))),
    ),
    read('scenario', (ids) =>
      db
        .select({ id: scenarios.id, name: scenarios.title })
        .from(scenarios)
        .where(and(eq(scenarios.user_id, userId), inArray(scenarios.id, ids))),
    ),
    read('custom_ai', (ids) =>
      db
        .select({ id: customAis.id, name: customAis.name })
        .from(customAis)
        .where(and(eq(customAis.user_id, userId), inArray(customAis.id, ids))),
    ),
    read('agent', (ids) =>
      db
        .select({ id: agents.id, name: agents.name })
        .from(agents)
        .where(and(eq(agents.user_id, userId), inArray(agents.id, ids))),
    ),
  ]);
  return found;
};

/** The subject's defaults, then the case's values; a blank case value keeps the default. */
const mergedVariables = (
  defaults: Record<string, string>,
  own: Record<string, string>,
): Record<string, string> => {
  // No prototype: a variable named `__proto__` stays a plain entry.
  const merged: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of Object.entries(defaults)) merged[name] = value;
  for (const [name, value] of Object.entries(own)) {
    if (typeof value === 'string' && value.trim() !== '') merged[name] = value;
  }
  return merged;
};

/**
 * The message a case sends: a prompt's or scenario's template filled with the subject's default
 * variables, then the case's; for a custom AI or agent (or a template left empty), the case's
 * input filled with the same values. Nothing in it is evaluated.
 */
export const caseMessage = (
  subject: ResolvedSubject,
  testCase: { input: string; variables: Record<string, string> },
): string => {
  const values = mergedVariables(subject.variables, testCase.variables);
  const template =
    subject.template !== null && subject.template.trim() !== '' ? subject.template : null;
  return fillTemplate(template ?? testCase.input, values);
};
