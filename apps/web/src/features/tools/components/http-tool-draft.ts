import type { ErrorCode } from '@chorus/shared/error-codes';
import {
  createHttpToolSchema,
  type CreateHttpTool,
  type HttpTool,
  type httpMethods,
} from '@chorus/shared/api/tools';
import { parseJsonObject, prettyJson } from '@/components/forms/json-input';

export type HeaderDraft = {
  /** Who the row is while rows come and go. */
  rowId: number;
  name: string;
  /** For a secret stored before: '' keeps it. */
  value: string;
  secret: boolean;
  /** A stored secret's hint (`••••abcd`); null when there is none to keep. */
  keptHint: string | null;
};

export type HttpToolDraft = {
  name: string;
  description: string;
  method: (typeof httpMethods)[number];
  urlTemplate: string;
  headers: HeaderDraft[];
  /** JSON text. */
  inputSchema: string;
};

export type DraftField = Exclude<keyof HttpToolDraft, 'headers'> | 'headers' | `headers.${number}`;

export type DraftErrors = Partial<Record<DraftField, string>>;

export const emptyInputSchema = prettyJson({ type: 'object', properties: {} });

let nextRowId = 0;
export const newRowId = () => ++nextRowId;

export const draftOf = (tool: HttpTool | null): HttpToolDraft => ({
  name: tool?.name ?? '',
  description: tool?.description ?? '',
  method: tool?.method ?? 'GET',
  urlTemplate: tool?.url_template ?? '',
  headers: (tool?.headers ?? []).map((header) => ({
    rowId: newRowId(),
    name: header.name,
    // A secret's value is never sent back: only its hint, and an empty input meaning "keep".
    value: header.secret ? '' : header.value,
    secret: header.secret,
    keptHint: header.secret ? header.value : null,
  })),
  inputSchema: tool ? prettyJson(tool.input_schema) : emptyInputSchema,
});

/** The `{name}` placeholders of a URL template. */
export const placeholdersOf = (template: string): string[] => [
  ...new Set([...template.matchAll(/\{([^{}]+)\}/g)].map((match) => match[1]!)),
];

/** The server's refusals that are about one field. */
export const fieldOfErrorCode: Partial<Record<ErrorCode, DraftField>> = {
  'tools:name_taken': 'name',
  'tools:bad_url_template': 'urlTemplate',
  'tools:secret_missing': 'headers',
};

const fieldOfPath = (path: PropertyKey[]): DraftField => {
  switch (path[0]) {
    case 'description':
      return 'description';
    case 'method':
      return 'method';
    case 'url_template':
      return 'urlTemplate';
    case 'input_schema':
      return 'inputSchema';
    case 'headers':
      return typeof path[1] === 'number' ? `headers.${path[1]}` : 'headers';
    default:
      return 'name';
  }
};

/**
 * The request body for the draft, checked in the browser first. A stored secret left empty is
 * sent as null: the server keeps it.
 */
export const bodyOf = (
  draft: HttpToolDraft,
): { body: CreateHttpTool; errors: null } | { body: null; errors: DraftErrors } => {
  const errors: DraftErrors = {};
  const schema = parseJsonObject(draft.inputSchema, 'The input schema');
  if (schema.error !== null) errors.inputSchema = schema.error;
  const headers = draft.headers.map((header, index) => {
    const keep = header.secret && header.keptHint !== null && header.value === '';
    if (!keep && header.value === '') {
      errors[`headers.${index}`] ??= header.secret
        ? 'Enter the secret’s value: it is stored encrypted and never shown again'
        : 'Give the header a value';
    }
    return { name: header.name, value: keep ? null : header.value, secret: header.secret };
  });
  const parsed = createHttpToolSchema.safeParse({
    name: draft.name,
    description: draft.description,
    method: draft.method,
    url_template: draft.urlTemplate,
    headers,
    input_schema: schema.value ?? { type: 'object', properties: {} },
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldOfPath(issue.path);
      // A schema that is no JSON already says so.
      if (field === 'inputSchema' && schema.error !== null) continue;
      errors[field] ??= issue.message;
    }
  }
  if (!parsed.success || Object.keys(errors).length > 0) return { body: null, errors };
  return { body: parsed.data, errors: null };
};
