// Bad input never costs a server error. The sweep reads the OpenAPI document and sends every
// operation, as the role it is for, a well-formed request and then the same request with one
// bad part: NUL, a lone surrogate, text past every limit, the wrong type, deeply nested JSON,
// dates the database cannot hold, in path, query, header and body. Any answer of 500 or more
// fails it, listed with its operation and input. Beside it, a property test over every date
// parameter of the document: a real date from 0001 to 9999 is taken, any other is a 400
// `request:bad_date`.
//
// One server and two accounts for the file. Model calls go to the loopback provider simulator,
// and every URL the sweep writes is a loopback one, so nothing leaves the machine. Deletes run
// after everything else, and signing out last of all, so each operation finds what it is about.
// There is no route that deletes an account.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notADate, writtenDate } from '@chorus/shared/api/dates.arbitrary';
import { startTestApp, TEST_APP_URL, type TestApp } from '../test/harness.ts';

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
};
type Parameter = {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
};
type Operation = {
  'x-access'?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
};
type Document = { paths: Record<string, Record<string, Operation>> };

type Caller = ReturnType<TestApp['client']>;
/**
 * An operation, with who sends it: its role, and a guest too when public; or, when `fresh`, a
 * new guest from a new address each time (the auth routes' own rate limits are not the point).
 */
type Op = {
  key: string;
  path: string;
  method: string;
  op: Operation;
  callers: Caller[];
  fresh?: boolean;
};
/** One request, and what it is, for the list of offenders. */
type Attempt = {
  label: string;
  url: string;
  body?: string | Uint8Array;
  headers?: Record<string, string>;
};

let t: TestApp;
let doc: Document;
let root: Caller;
let plain: Caller;

beforeAll(async () => {
  // Job workers too: routes about queues and runs answer as they do in production.
  t = await startTestApp({ providerSim: true, jobs: true });
  // The first account is the super admin: it sends the admin routes.
  root = await t.user('sweep-root@example.com');
  plain = await t.user('sweep-plain@example.com');
  // A key for the simulator, so chats, runs and tests get as far as a model call.
  await plain.request('PUT', '/rest/v1/api-keys/openai', { api_key: 'sk-sweep-0001' });
  doc = (await t.client().get<Document>('/rest/v1/openapi.json')).body;
});
afterAll(() => t.close());

// --- Well-formed values from a schema

/** Ids of what the sweep made, by the path of the operation that made it. */
const created = new Map<string, string>();

/** For `prompt_id`, `custom_ai_id`, `knowledge_base_ids`: one the signed-in user made. */
const createdFor = (name: string) => {
  const collection = `/${name.replace(/_ids?$/, '').replaceAll('_', '-')}s`;
  return [...created].find(([path]) => path.endsWith(collection) && !path.includes('/admin/'))?.[1];
};

const loopbackUrl = 'http://127.0.0.1:9/sweep';

/** A value of the name's kind, for strings whose schema says little. */
const stringByName = (name: string): string => {
  // The page a widget sits in: the app itself, which every widget allows.
  if (/embedder/i.test(name)) return TEST_APP_URL;
  if (/url|uri|endpoint|origin|host|webhook|link|href/i.test(name)) return loopbackUrl;
  if (/email/i.test(name)) return 'sweep-target@example.com';
  if (/cron/i.test(name)) return '0 9 * * *';
  if (/time_?zone/i.test(name)) return 'UTC';
  if (/color/i.test(name)) return '#4f46e5';
  if (/password/i.test(name)) return 'correct-horse-battery-9';
  return 'sweep';
};

const options = (schema: Schema) => schema.anyOf ?? schema.oneOf;
const firstOption = (schema: Schema): Schema | undefined =>
  options(schema)?.find((s) => s.type !== 'null') ?? options(schema)?.[0];

const typeOf = (schema: Schema): string | undefined => {
  const type = Array.isArray(schema.type) ? schema.type.find((x) => x !== 'null') : schema.type;
  if (type) return type;
  if (schema.properties) return 'object';
  const option = firstOption(schema);
  return option ? typeOf(option) : undefined;
};

const matches = (pattern: string | undefined, value: string) => {
  if (!pattern) return true;
  try {
    return new RegExp(pattern).test(value);
  } catch {
    return true;
  }
};

/** A valid value for `schema` as far as the document tells; `name` helps with plain strings. */
const sample = (schema: Schema, name = '', depth = 0): unknown => {
  const option = firstOption(schema);
  if (option && !schema.type) return sample(option, name, depth);
  if (schema.enum?.length) return schema.enum[0];
  switch (typeOf(schema)) {
    case 'string': {
      if (schema.format === 'uuid') return createdFor(name) ?? randomUUID();
      if (schema.format === 'date') return '2025-01-31';
      if (schema.format === 'date-time') return '2025-01-31T09:30:00Z';
      const min = schema.minLength ?? 1;
      const max = schema.maxLength ?? Infinity;
      const fits = [stringByName(name), 'sweep', 'a1', 'x', loopbackUrl].find(
        (c) => c.length >= min && c.length <= max && matches(schema.pattern, c),
      );
      return fits ?? stringByName(name).padEnd(min, 'x');
    }
    case 'integer':
    case 'number':
      return Math.min(Math.max(schema.minimum ?? 1, 1), schema.maximum ?? 1);
    case 'boolean':
      return false;
    case 'array':
      return depth > 4 || !schema.items
        ? []
        : Array.from({ length: schema.minItems ?? 0 }, () =>
            sample(schema.items!, name, depth + 1),
          );
    case 'object': {
      if (depth > 4) return {};
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) {
        const prop = schema.properties?.[key];
        if (prop) out[key] = sample(prop, key, depth + 1);
      }
      // `{ kind: 'prompt', id }` names a thing by its kind.
      if (typeof out.kind === 'string' && schema.properties?.id?.format === 'uuid')
        out.id = createdFor(out.kind) ?? out.id;
      return out;
    }
    default:
      return 'sweep';
  }
};

/**
 * What the document cannot tell: which of two optional targets to pick, which model a step
 * runs, that a provider stays on. Without these the well-formed request would be refused, and
 * its bad variants would stop at the same refusal instead of reaching further.
 */
const completions: Record<string, (body: Record<string, unknown>) => void> = {
  'post /rest/v1/widgets': (body) => {
    body.target = { agent_id: createdFor('agent_id') };
    body.allowed_origins = [TEST_APP_URL];
  },
  'post /rest/v1/workflows': (body) => {
    for (const step of body.steps as Record<string, unknown>[])
      Object.assign(step, { provider: 'openai', model: 'gpt-4o-mini' });
  },
  'patch /rest/v1/admin/providers/{provider}': (body) => {
    body.enabled = true;
  },
  // A wrong current password: the sweep never changes the account's own.
  'post /auth/v1/change-password': (body) => {
    body.currentPassword = 'not-the-password-1';
  },
};

const wellFormed = (key: string, schema: Schema) => {
  const body = sample(schema) as Record<string, unknown>;
  completions[key]?.(body);
  return body;
};

// --- Bad values

/** A bad value as the text to put where the value goes (JSON, or a percent-encoded string). */
type Bad = { label: string; text: string };
const bad = (label: string, value: unknown): Bad => ({ label, text: JSON.stringify(value) });

/** JSON nested deeper than JSON.stringify's stack, in 100 kB. */
const depth = 20_000;
const deepArray: Bad = { label: 'deep array', text: `${'['.repeat(depth)}${']'.repeat(depth)}` };
const deepObject: Bad = {
  label: 'deep object',
  text: `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
};
/** A NUL below the depth a text check might stop looking at. */
const nulDeep: Bad = {
  label: 'NUL 100 levels down',
  text: `${'{"a":'.repeat(100)}"x\\u0000y"${'}'.repeat(100)}`,
};
const nul = bad('NUL', 'a\u0000b');
const loneSurrogate = bad('lone surrogate', 'a\ud800b');
const nulKey = bad('NUL key', { 'a\u0000b': 1 });
const year0 = bad('year 0', '0000-01-01T00:00:00Z');
const hugeObject = bad(
  'huge object',
  Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i])),
);
/** Longer than the field takes, or than any field takes when the schema does not say. */
const hugeText = (schema: Schema) =>
  bad('huge text', 'x'.repeat(schema.maxLength ? schema.maxLength + 1 : 300_000));
const hugeArray = (schema: Schema) =>
  bad(
    'huge array',
    Array.from({ length: schema.maxItems ? schema.maxItems + 1 : 100_000 }, () => 'x'),
  );
const numberBad = [
  bad('text', '12'),
  bad('null', null),
  bad('1e308', 1e308),
  bad('2^63', 2 ** 63),
  bad('-2^63', -(2 ** 63)),
  bad('-1', -1),
  bad('1.5', 1.5),
  { label: '1e999', text: '1e999' },
];

/**
 * What to send in place of one field, by its type: text gets text that cannot be stored, is too
 * long or is a date the database refuses; numbers get numbers no column holds; fields of any
 * JSON get JSON too deep, too wide or with NUL far inside. Each also gets the wrong types.
 */
const badFor = (schema: Schema): Bad[] => {
  switch (typeOf(schema)) {
    case 'string':
      return [
        nul,
        loneSurrogate,
        hugeText(schema),
        year0,
        ...(schema.format?.startsWith('date')
          ? [bad('past 9999', '+275760-09-13T00:00:00.000Z'), bad('Feb 30', '2024-02-30')]
          : []),
        bad('number', 12),
        bad('null', null),
        bad('object', { a: 1 }),
      ];
    case 'integer':
    case 'number':
      return numberBad;
    case 'boolean':
      return [bad('text', 'true'), bad('null', null), bad('number', 1)];
    case 'array':
      return [bad('object', {}), hugeArray(schema), bad('NUL item', ['a\u0000b']), deepArray];
    case 'object':
      if (schema.properties) return [bad('text', 'x'), bad('array', []), nulKey];
      // A record, or any JSON at all: what it holds is the sender's.
      return [bad('text', 'x'), nulKey, nulDeep, deepObject, deepArray, hugeObject];
    default:
      return [nul, loneSurrogate, hugeText(schema), nulKey, nulDeep, deepObject, numberBad[3]!];
  }
};

/** Whole bodies that are no request at all. */
const wholeBodies: Bad[] = [
  { label: 'not JSON', text: '{not json' },
  { label: 'empty', text: '' },
  { label: 'null', text: 'null' },
  { label: 'array', text: '[]' },
  { label: 'text', text: '"text"' },
  { label: 'number', text: '12' },
  deepArray,
  deepObject,
  nulDeep,
  { label: 'over 1 MB', text: JSON.stringify({ x: 'x'.repeat(1024 * 1024 + 10) }) },
  {
    label: 'prototype keys',
    text: '{"__proto__":{"role":"super_admin"},"constructor":{"prototype":{"role":"admin"}}}',
  },
  nulKey,
  bad('lone surrogate key', { '\udc00': 1 }),
];

const forgedCursor = (iso: string) =>
  Buffer.from(`${iso}|00000000-0000-4000-8000-000000000000`).toString('base64url');

/** Values for a path, query or header parameter, percent-encoded, by the parameter's type. */
const paramBadFor = (param: Parameter): Bad[] => {
  const common = [
    { label: 'NUL', text: 'a%00b' },
    { label: 'lone surrogate', text: 'a%ED%A0%80b' },
    { label: 'broken escape', text: 'a%E0%A4%A' },
    { label: 'huge', text: 'x'.repeat(8_000) },
    { label: 'empty', text: '' },
  ];
  const type = typeOf(param.schema);
  if (type === 'integer' || type === 'number' || type === 'boolean') {
    return [
      ...common,
      { label: 'not a number', text: 'abc' },
      { label: '-1', text: '-1' },
      { label: '1.5', text: '1.5' },
      { label: '1e999', text: '1e999' },
      { label: '2^64', text: '18446744073709551616' },
    ];
  }
  return [
    ...common,
    { label: 'dots', text: '..%2F..' },
    { label: 'number', text: '-1' },
    { label: 'year 0', text: '0000-01-01T00:00:00Z' },
    { label: 'Feb 30', text: '2024-02-30' },
    { label: 'past 9999', text: '%2B275760-09-13T00:00:00Z' },
    ...(/cursor|before|after/i.test(param.name)
      ? [
          { label: 'cursor of year 0', text: forgedCursor('0000-01-01T00:00:00.000Z') },
          { label: 'cursor past 9999', text: forgedCursor('+275760-09-13T00:00:00.000Z') },
        ]
      : []),
  ];
};

// --- Requests

/** What a path parameter means, when it is not the id of something the sweep made. */
const fixedParams: Record<string, string> = { provider: 'openai', kind: 'system', version: '1' };

const parametersOf = (op: Operation, where: Parameter['in']) =>
  (op.parameters ?? []).filter((p) => p.in === where);

/** A path parameter's well-formed value: what the sweep made at the path before it, if any. */
const paramValue = (path: string, param: Parameter): string => {
  const owner = path.slice(0, path.indexOf(`{${param.name}}`)).replace(/\/$/, '');
  return created.get(owner) ?? fixedParams[param.name] ?? String(sample(param.schema, param.name));
};

/** Parameters given other values than the well-formed ones, as percent-encoded text. */
type Overrides = Map<Parameter, string>;

const urlOf = (path: string, op: Operation, overrides: Overrides = new Map()) => {
  let url = path;
  for (const p of parametersOf(op, 'path')) {
    url = url.replace(`{${p.name}}`, overrides.get(p) ?? encodeURIComponent(paramValue(path, p)));
  }
  const query = parametersOf(op, 'query').flatMap((p) => {
    const value = overrides.get(p);
    if (value !== undefined) return [`${p.name}=${value}`];
    return p.required ? [`${p.name}=${encodeURIComponent(String(sample(p.schema, p.name)))}`] : [];
  });
  return query.length ? `${url}?${query.join('&')}` : url;
};

/** A widget visitor's session, for the public widget routes (see `makeOneOfEach`). */
let visitorSession: string | undefined;

/** What the widget's iframe sends: the page it sits in, and its visitor's session. */
const widgetHeaders = (): Record<string, string> => ({
  'x-chorus-embedder': TEST_APP_URL,
  ...(visitorSession && { authorization: `Bearer ${visitorSession}` }),
});

const headersOf = (path: string, op: Operation, overrides: Overrides = new Map()) => ({
  ...(path.startsWith('/widget/v1/') && widgetHeaders()),
  ...Object.fromEntries(
    parametersOf(op, 'header').map((p) => [
      p.name,
      overrides.get(p) ?? String(sample(p.schema, p.name)),
    ]),
  ),
});

const jsonSchemaOf = (op: Operation) => op.requestBody?.content['application/json']?.schema;

/** The body's content type when it is not JSON: a file's bytes, or multipart. */
const otherContentType = (op: Operation) =>
  op.requestBody && !jsonSchemaOf(op) ? Object.keys(op.requestBody.content)[0] : undefined;

/** Every value of a body to replace, by its path of keys: top level and nested objects. */
const fieldsOf = (
  schema: Schema,
  at: string[] = [],
  level = 0,
): { at: string[]; schema: Schema }[] => {
  const own = firstOption(schema) && !schema.type ? firstOption(schema)! : schema;
  if (level > 2) return [];
  if (typeOf(schema) === 'object' && own.properties) {
    return Object.entries(own.properties).flatMap(([key, prop]) => [
      { at: [...at, key], schema: prop },
      ...fieldsOf(prop, [...at, key], level + 1),
    ]);
  }
  if (typeOf(schema) === 'array' && own.items && typeOf(own.items) === 'object') {
    return fieldsOf(own.items, [...at, '0'], level + 1);
  }
  return [];
};

/** The well-formed body as JSON text, with the value at `at` replaced by `text` as it is. */
const bodyWith = (key: string, schema: Schema, at: string[], text: string) => {
  const body = wellFormed(key, schema);
  const marker = `"@@sweep-${randomUUID()}@@"`;
  let parent: Record<string, unknown> = body;
  for (const [i, name] of at.entries()) {
    if (i === at.length - 1) {
      parent[name] = JSON.parse(marker);
    } else {
      const next = parent[name];
      parent[name] = next && typeof next === 'object' ? next : /^\d+$/.test(at[i + 1]!) ? [{}] : {};
      parent = parent[name] as Record<string, unknown>;
    }
  }
  return JSON.stringify(body).replace(marker, () => text);
};

/** A multipart body of one file in the field `files`, with the boundary `send` declares. */
const multipartBody = (name: string, text: string) =>
  `--sweep\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n${text}\r\n--sweep--\r\n`;

const wellFormedAttempt = ({ key, path, op }: Op): Attempt => {
  const schema = jsonSchemaOf(op);
  const contentType = otherContentType(op);
  const body = schema
    ? JSON.stringify(wellFormed(key, schema))
    : contentType?.startsWith('multipart/')
      ? multipartBody('a.txt', 'hello')
      : contentType
        ? 'hello\n'
        : undefined;
  return { label: 'well-formed', url: urlOf(path, op), headers: headersOf(path, op), body };
};

const attemptsFor = (o: Op): Attempt[] => {
  const { key, path, op } = o;
  const base = wellFormedAttempt(o);
  const out: Attempt[] = [base];
  for (const where of ['path', 'query', 'header'] as const) {
    for (const param of parametersOf(op, where)) {
      for (const value of paramBadFor(param)) {
        // A header this long is refused by any server before the app sees it.
        if (where === 'header' && value.text.length > 4_000) continue;
        const overrides: Overrides = new Map([[param, value.text]]);
        out.push({
          ...base,
          label: `${where} ${param.name}: ${value.label}`,
          url: where === 'header' ? base.url : urlOf(path, op, overrides),
          headers: where === 'header' ? headersOf(path, op, overrides) : base.headers,
        });
      }
    }
  }
  if (base.headers?.authorization) {
    for (const [label, token] of [
      ['forged', 'x.y.z'],
      ['huge', 'x'.repeat(3_000)],
      ['broken base64', '%%%.%%%.%%%'],
    ]) {
      const headers = { ...base.headers, authorization: `Bearer ${token}` };
      out.push({ ...base, label: `header authorization: ${label}`, headers });
    }
  }
  const schema = jsonSchemaOf(op);
  const contentType = otherContentType(op);
  if (schema) {
    for (const value of wholeBodies) {
      out.push({ ...base, label: `body: ${value.label}`, body: value.text });
    }
    for (const field of fieldsOf(schema)) {
      for (const value of badFor(field.schema)) {
        out.push({
          ...base,
          label: `body ${field.at.join('.')}: ${value.label}`,
          body: bodyWith(key, schema, field.at, value.text),
        });
      }
    }
  } else if (contentType) {
    const json = { ...base.headers, 'content-type': 'application/json' };
    out.push(
      { ...base, label: 'body: empty', body: '' },
      { ...base, label: 'body: JSON instead', body: '{"files":[]}', headers: json },
      { ...base, label: 'body: deep JSON instead', body: deepArray.text, headers: json },
    );
    if (contentType.startsWith('multipart/')) {
      const noBoundary = { ...base.headers, 'content-type': 'multipart/form-data' };
      out.push(
        { ...base, label: 'multipart: no boundary', headers: noBoundary },
        { ...base, label: 'multipart: NUL', body: multipartBody('a.txt', 'a\u0000\ud800b') },
        { ...base, label: 'multipart: NUL file name', body: multipartBody('a\u0000b.txt', 'hi') },
        {
          ...base,
          label: 'multipart: lone surrogate name',
          body: multipartBody('\ud800.txt', 'hi'),
        },
        {
          ...base,
          label: 'multipart: huge file name',
          body: multipartBody(`${'x'.repeat(100_000)}.txt`, 'hi'),
        },
        { ...base, label: 'multipart: truncated', body: multipartBody('a.txt', 'hi').slice(0, 60) },
      );
    } else {
      out.push(
        {
          ...base,
          label: 'file: NUL and broken UTF-8',
          body: new Uint8Array([104, 0, 0xed, 0xa0]),
        },
        {
          ...base,
          label: 'file: unknown type',
          headers: { ...base.headers, 'content-type': 'application/x-sweep' },
        },
      );
    }
  }
  return out;
};

const send = async (caller: Caller, o: Op, attempt: Attempt) => {
  const contentType = otherContentType(o.op);
  const headers: Record<string, string> = {
    ...(attempt.body !== undefined && {
      'content-type': contentType?.startsWith('multipart/')
        ? 'multipart/form-data; boundary=sweep'
        : (contentType ?? 'application/json'),
    }),
    ...attempt.headers,
  };
  const res = await caller.send(o.method.toUpperCase(), attempt.url, {
    body: attempt.body,
    headers,
  });
  return { status: res.status, text: await res.text() };
};

const operations = (): Op[] =>
  Object.entries(doc.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => {
        const access = op['x-access'];
        const signedIn = access === 'admin' || access === 'super_admin' ? root : plain;
        const callers = access === 'public' ? [signedIn, t.client()] : [signedIn];
        return { key: `${method} ${path}`, path, method, op, callers };
      }),
  );

/** The auth routes (better-auth, not in the document), with the bodies they take. */
const authOperations = (): Op[] => {
  const text: Schema = { type: 'string' };
  const body = (properties: Record<string, Schema>): Operation => ({
    'x-access': 'public',
    requestBody: {
      content: {
        'application/json': {
          schema: { type: 'object', properties, required: Object.keys(properties) },
        },
      },
    },
  });
  const email = { email: { ...text, format: 'email' } };
  const routes: [string, Operation, 'guest' | 'user'][] = [
    ['post /auth/v1/sign-up/email', body({ ...email, password: text, name: text }), 'guest'],
    ['post /auth/v1/sign-in/email', body({ ...email, password: text }), 'guest'],
    ['post /auth/v1/request-password-reset', body({ ...email, redirectTo: text }), 'guest'],
    ['post /auth/v1/reset-password', body({ newPassword: text, token: text }), 'guest'],
    [
      'post /auth/v1/change-password',
      body({ currentPassword: text, newPassword: text, revokeOtherSessions: { type: 'boolean' } }),
      'user',
    ],
    ['post /auth/v1/refresh-session', body({}), 'user'],
    ['get /auth/v1/get-session', {}, 'user'],
    ['get /auth/v1/list-sessions', {}, 'user'],
    // Last of all: the sweep's own session ends here.
    ['post /auth/v1/sign-out', body({}), 'user'],
  ];
  return routes.map(([key, op, who]) => {
    const [method, path] = key.split(' ') as [string, string];
    return {
      key,
      path,
      method,
      op,
      callers: who === 'user' ? [plain] : [],
      fresh: who === 'guest',
    };
  });
};

/** The id in a made thing's answer: `{ id }`, `{ thing: { id } }`, `{ files: [{ document }] }`. */
const idIn = (text: string): string | undefined => {
  let level: unknown[];
  try {
    level = [JSON.parse(text)];
  } catch {
    return undefined;
  }
  for (let i = 0; i < 4; i += 1) {
    const next: unknown[] = [];
    for (const value of level) {
      if (!value || typeof value !== 'object') continue;
      const id = (value as { id?: unknown }).id;
      if (typeof id === 'string') return id;
      next.push(...Object.values(value));
    }
    level = next;
  }
  return undefined;
};

/** Makes one of each thing, so requests about a thing reach a real one. */
const makeOneOfEach = async (ops: Op[]) => {
  // Collections twice (a widget needs an agent, a test set a prompt, whichever the document
  // lists first), then what lives inside them (a test set's cases, a knowledge base's files).
  for (const pathParams of [0, 0, 1]) {
    for (const o of ops) {
      if (o.method !== 'post' || !o.op.requestBody || created.has(o.path)) continue;
      if (parametersOf(o.op, 'path').length !== pathParams) continue;
      const res = await send(o.callers[0]!, o, wellFormedAttempt(o));
      const id = res.status < 300 ? idIn(res.text) : undefined;
      if (!id) continue;
      created.set(o.path, id);
      // The public widget routes go by the widget's public id.
      if (o.path === '/rest/v1/widgets') {
        const publicId = (JSON.parse(res.text) as { public_id: string }).public_id;
        created.set('/widget/v1', publicId);
        const session = await t
          .client()
          .request<{ session: string }>(
            'POST',
            `/widget/v1/${publicId}/session`,
            {},
            widgetHeaders(),
          );
        visitorSession = session.body.session;
      }
    }
  }
};

/** Where a date goes in a request: a parameter, or a field of the JSON body. */
type DatePlace = { o: Op; label: string; formats: Set<string>; attempt: (text: string) => Attempt };

const formatsOf = (schema: Schema): string[] =>
  options(schema)?.flatMap(formatsOf) ??
  (schema.format === 'date' || schema.format === 'date-time' ? [schema.format] : []);

/** Every date of the document: its parameters with every date of the operation set alike too. */
const datePlaces = (ops: Op[]): DatePlace[] =>
  ops.flatMap((o) => {
    const params = (o.op.parameters ?? []).filter((p) => formatsOf(p.schema).length > 0);
    const withParams = (chosen: Parameter[], text: string): Attempt => {
      const overrides: Overrides = new Map(chosen.map((p) => [p, encodeURIComponent(text)]));
      return {
        ...wellFormedAttempt(o),
        label: text,
        url: urlOf(o.path, o.op, overrides),
        headers: headersOf(o.path, o.op, overrides),
      };
    };
    const places: DatePlace[] = params.map((param) => ({
      o,
      label: `${o.key} ${param.in}:${param.name}`,
      formats: new Set(formatsOf(param.schema)),
      attempt: (text) => withParams([param], text),
    }));
    if (params.length > 1) {
      const formats = params.map((p) => new Set(formatsOf(p.schema)));
      places.push({
        o,
        label: `${o.key} ${params.map((p) => `${p.in}:${p.name}`).join(' and ')}`,
        formats: new Set([...formats[0]!].filter((f) => formats.every((set) => set.has(f)))),
        attempt: (text) => withParams(params, text),
      });
    }
    const schema = jsonSchemaOf(o.op);
    for (const field of schema ? fieldsOf(schema) : []) {
      if (formatsOf(field.schema).length === 0) continue;
      places.push({
        o,
        label: `${o.key} body:${field.at.join('.')}`,
        formats: new Set(formatsOf(field.schema)),
        attempt: (text) => ({
          ...wellFormedAttempt(o),
          label: text,
          body: bodyWith(o.key, schema!, field.at, JSON.stringify(text)),
        }),
      });
    }
    return places;
  });

describe('bad input', () => {
  // First: the sweep below ends by signing out.
  it('is a 400 request:bad_date in every date of the document unless a real day from 0001 to 9999', async () => {
    const places = datePlaces(operations());
    expect(places.map((p) => p.label)).toEqual(
      expect.arrayContaining([
        'get /rest/v1/admin/audit-logs query:from',
        'get /rest/v1/admin/audit-logs query:to',
        'get /rest/v1/admin/audit-logs query:from and query:to',
        'get /rest/v1/admin/usage-statistics query:from',
        'get /rest/v1/admin/usage-statistics query:to',
      ]),
    );
    const anyText = fc.oneof(
      { weight: 4, arbitrary: writtenDate },
      notADate
        .filter((text) => !text.includes('\u0000'))
        .map((text) => ({ text, kind: null, valid: false })),
    );
    for (const place of places) {
      const caller = place.o.callers[0]!;
      // A date that is taken is answered as the well-formed request is.
      const expected = (await send(caller, place.o, wellFormedAttempt(place.o))).status;
      expect(expected, place.label).toBeLessThan(500);
      await fc.assert(
        fc.asyncProperty(anyText, async (date) => {
          const accepted = date.kind !== null && place.formats.has(date.kind) && date.valid;
          const res = await send(caller, place.o, place.attempt(date.text));
          const { code } = JSON.parse(res.text) as { code?: string };
          if (accepted) expect(res.status, `${place.label} ${date.text}`).toBe(expected);
          else
            expect([res.status, code], `${place.label} ${date.text}`).toEqual([
              400,
              'request:bad_date',
            ]);
        }),
        { numRuns: 50 },
      );
    }
  }, 120_000);

  it(
    'never answers 500, on any operation, whatever part of the request is bad',
    async () => {
      const ops = operations();
      expect(ops.length).toBeGreaterThan(200);
      await makeOneOfEach(ops);
      // Enough was made that most requests about a thing reach one (a guard on the sweep).
      expect(created.size).toBeGreaterThan(20);

      const offenders: string[] = [];
      const reached = new Set<string>();
      let calls = 0;
      const auth = authOperations();
      const order = [
        ...ops.filter((o) => o.method !== 'delete'),
        ...ops.filter((o) => o.method === 'delete'),
        ...auth,
      ];
      for (const o of order) {
        for (const attempt of attemptsFor(o)) {
          for (const caller of o.fresh ? [t.client()] : o.callers) {
            let { status, text } = await send(caller, o, attempt);
            if (status === 429) {
              // The limit did its job. Clear its windows, as an hour passing would, and send
              // again: the bad input behind the limit is judged too.
              await t.db.execute(sql`delete from rate_limits`);
              ({ status, text } = await send(caller, o, attempt));
            }
            calls += 1;
            if (attempt.label === 'well-formed' && status < 300) reached.add(o.key);
            if (status >= 500) {
              offenders.push(
                `${o.key} [${attempt.label}] ${attempt.url.slice(0, 100)} → ${status} ${text.slice(0, 160)}`,
              );
            }
          }
        }
      }
      expect(offenders).toEqual([]);
      // Most operations answered their well-formed request, so the bad ones were judged by the
      // route itself, not refused at its door; and the sweep is the size it means to be.
      expect(reached.size).toBeGreaterThan(100);
      expect(calls).toBeGreaterThan(5_000);
    },
    // A liveness bound only: the sweep takes about 20 s of CPU on either database.
    240_000,
  );
});
