import { createHash } from 'node:crypto';

/**
 * What an approval "once per conversation" covers (docs/SECURITY.md, "Agents and tools"). It is
 * given to one call, and covers later calls of the same tool with the same *shape*: the same
 * argument names, and the same values of the arguments that decide where the call goes.
 *
 * - web fetch: the site of its `url` (scheme, host and port); another site asks again;
 * - an HTTP tool: the values of the arguments its URL is built from (its method and the rest of
 *   its URL are fixed); the values of its other arguments may differ;
 * - an MCP tool: every argument's value, since Chorus cannot tell which decide what it does;
 * - calculator, date and time, knowledge search: the argument names only (they reach nothing of
 *   the user's outside Chorus).
 */
export type OnceRule =
  | { kind: 'site'; argument: string }
  | { kind: 'arguments'; names: readonly string[] }
  | { kind: 'all' }
  | { kind: 'names' };

const builtinKey = (name: string) => `builtin:${name}`;

/** The rule of a tool by its key; `urlArguments` are an HTTP tool's URL placeholders. */
export const onceRuleOf = (key: string, urlArguments: readonly string[] = []): OnceRule => {
  if (key === builtinKey('web_fetch')) return { kind: 'site', argument: 'url' };
  if (key.startsWith('http:')) return { kind: 'arguments', names: urlArguments };
  if (key.startsWith('mcp:')) return { kind: 'all' };
  return { kind: 'names' };
};

/** JSON with object keys sorted, so equal values write alike. */
const canonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
};

const siteOf = (value: unknown): string => {
  if (typeof value !== 'string') return canonical(value);
  try {
    const url = new URL(value.trim());
    return `${url.protocol}//${url.host}`.toLowerCase();
  } catch {
    return value;
  }
};

/**
 * The shape of one call under its tool's rule, as a short hash: two calls with the same shape are
 * covered by one approval.
 */
export const callShape = (rule: OnceRule, input: unknown): string => {
  const args =
    input !== null && typeof input === 'object' && !Array.isArray(input)
      ? (input as Record<string, unknown>)
      : {};
  const names = Object.keys(args)
    .filter((name) => args[name] !== undefined)
    .sort();
  let decisive: unknown;
  switch (rule.kind) {
    case 'site':
      decisive = siteOf(args[rule.argument]);
      break;
    case 'arguments':
      decisive = Object.fromEntries(rule.names.map((name) => [name, args[name] ?? null]));
      break;
    case 'all':
      decisive = args;
      break;
    case 'names':
      decisive = null;
  }
  return createHash('sha256')
    .update(canonical({ names, decisive }))
    .digest('base64url')
    .slice(0, 22);
};

/** How a grant is kept: its tool and the shape it covers. */
export const grantKey = (tool: string, shape: string) => `${tool} ${shape}`;

/** What the person reads beside Approve for a tool asked "once": what else their yes covers. */
export const scopeText = (rule: OnceRule): string => {
  const lead = 'Approving also lets later calls in this conversation run without asking';
  switch (rule.kind) {
    case 'site':
      return `${lead} when they go to the same site; another site asks again.`;
    case 'arguments':
      return rule.names.length > 0
        ? `${lead} when they have the same ${rule.names.join(', ')} (it decides the address they go to); other values ask again.`
        : `${lead}, whatever the values of their arguments: this tool always goes to the same address.`;
    case 'all':
      return `${lead} only with exactly the same arguments; any other value asks again.`;
    case 'names':
      return `${lead}, whatever the values of their arguments.`;
  }
};
