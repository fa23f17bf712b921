import {
  errorCatalogue,
  type CatalogueEntry,
  type DetailedErrorCode,
  type DetailParams,
} from './error-catalogue.ts';
import { errorCodes, type ErrorCode } from './error-codes.ts';

/**
 * Particulars for every code whose message names some, as the server passes them: the tests of
 * the catalogue (shared, server and web) render every message with these. Each variant a
 * `detail` words differently has an example of its own.
 */
export const errorExamples: {
  [C in DetailedErrorCode]: readonly [DetailParams<C>, ...DetailParams<C>[]];
} = {
  'bad_request:validation': [
    {
      issues: [{ path: 'provider', message: 'Invalid option: expected one of "openai"|"ollama"' }],
    },
    {
      issues: [
        { path: 'name', message: 'A name is at most 100 characters. Use a shorter one.' },
        { path: 'id', message: 'Not a job id' },
        { path: '', message: 'Unrecognized key: "extra"' },
      ],
    },
    { issues: [] },
  ],
  'request:too_deep': [{ max: 64 }],
  'request:bad_date': [
    { issues: [{ path: 'from', message: 'Use a date from 0001-01-01 to 9999-12-31' }] },
    {
      issues: [
        { path: 'from', message: 'Use a date such as 2025-01-31' },
        { path: 'to', message: 'Use a date from 0001-01-01 to 9999-12-31' },
      ],
    },
  ],
  'request:too_large': [
    { subject: 'The request body', limit: '1 MB', fix: 'Send less at once' },
    { subject: 'The error report', limit: '16 KB', fix: 'Shorten the stack or details.' },
  ],
  'http:not_found': [{ endpoint: 'GET /rest/v1/nothing' }, { file: '/assets/index-old.js' }],
  'database:unavailable': [{ seconds: 5 }],
  'rate_limit:exceeded': [{ operation: 'Data request', seconds: 10 }],
  'auth:forbidden': [{ action: 'log admin action' }],
  'access_requests:decided': [{ status: 'approved' }, { status: 'rejected' }],
  'widgets:tool_arguments': [
    { tool: 'weather', problem: 'missing' },
    { tool: 'weather', problem: 'unknown', argument: 'town' },
    { tool: 'weather', problem: 'both', argument: 'city' },
    { tool: 'weather', problem: 'required', argument: 'city' },
  ],
  'keys:missing': [{ provider: 'OpenAI' }],
  'keys:not_found': [
    { provider: 'Mistral' },
    { provider: 'Anthropic', kind: 'default' },
    { provider: 'OpenAI', toTest: true },
  ],
  'keys:invalid_format': [{ provider: 'OpenAI' }, { provider: 'Perplexity', prefix: 'pplx-' }],
  'proxy:direct_call': [{ provider: 'Gemini' }],
  'provider:failed': [{ provider: 'DeepSeek' }],
  'provider:timeout': [{ provider: 'Anthropic' }, { provider: 'OpenAI', seconds: 60 }],
  'provider:auth': [{ provider: 'Mistral' }],
  'provider:rate_limited': [{ provider: 'OpenAI' }],
  'provider:unavailable': [{ provider: 'Gemini', status: 503 }],
  'provider:unknown_model': [{ provider: 'OpenRouter' }],
  'provider:stalled': [{ provider: 'Ollama' }],
  'provider:interrupted': [{ provider: 'Perplexity' }],
  'quota:exceeded': [{ limit: 20, plan: 'Free', wait: '5 h 12 min' }],
  'quota:provider_not_allowed': [{ provider: 'OpenAI', plan: 'Search' }],
  'quota:model_not_allowed': [{ model: 'gpt-4.1', plan: 'Mini' }],
  'conversations:bad_cursor': [{ inConversation: true }],
  'storage:unsupported_type': [{ type: 'application/x-msdownload' }, { type: '' }],
  'storage:file_too_large': [{ limit: '10 MB', plan: 'Free' }],
  'storage:quota_exceeded': [{ used: '99.5 MB', quota: '100 MB', plan: 'Free' }],
  'storage:content_mismatch': [{ label: 'PDF' }],
  'knowledge:no_embedding_model': [{ provider: 'Anthropic' }],
  'knowledge:unsupported_type': [{ name: 'slides.pptx' }],
  'knowledge:too_many_pages': [{ pages: 812, max: 500 }],
  'knowledge:unknown_embedding_model': [
    { provider: 'OpenAI', models: 'text-embedding-3-small, text-embedding-3-large' },
  ],
  'workflows:unknown_reference': [
    {
      step: 'summarize',
      reference: '{{steps.fetch.output}}',
      why: 'no earlier step is called fetch',
    },
  ],
  'workflows:duplicate_step': [{ step: 'fetch' }],
  'workflows:bad_condition': [{ step: 'check', reason: 'Unexpected character: (' }],
  'workflows:bad_step': [
    { step: 'ask', reason: 'pick a provider and model, a custom AI or an agent' },
  ],
  'workflows:missing_input': [{ input: 'topic' }],
  'test_sets:bad_import': [
    { count: 1, first: 'row 3: the assertions column is not a JSON array' },
    { count: 4, first: 'row 2: a name is missing' },
  ],
  'workflows:bad_input': [{ input: 'count', type: 'a number' }],
  'prompts:missing_variable': [{ names: ['topic'] }, { names: ['topic', 'tone'] }],
  'prompts:too_many': [{ max: 5000 }],
  'scenarios:too_many': [{ max: 2000 }],
  'schedules:too_many': [
    { max: 20, plan: 'Free' },
    { max: 1, plan: 'Starter' },
    { max: 0, plan: 'Chat only' },
  ],
  'schedules:bad_cron': [
    { reason: 'the minute field holds 61, and minutes go from 0 to 59' },
    { reason: 'it has 4 fields instead of 5' },
  ],
  'schedules:bad_time_zone': [{ zone: 'Mars/Olympus' }],
  'schedules:too_frequent': [{ minutes: 1 }, { minutes: 15 }, { minutes: 60, plan: 'Starter' }],
  'plans:name_taken': [{ name: 'Team' }],
  'plans:free_protected': [{ change: 'delete' }, { change: 'rename' }],
  'usage:range_too_long': [{ max: 366, start: '2025-01-01', end: '2026-06-30' }],
  'billing:not_for_sale': [{ plan: 'Partner' }],
  'library:not_found': [{ kind: 'prompt' }, { kind: 'scenario' }],
  'email:invalid_format': [{ email: 'bad@nodot' }],
  'email:recipient_not_allowed': [
    { support: 'support@chorus.test', refused: 'someone@elsewhere.test' },
  ],
  'email:reset_link': [{ appUrl: 'https://chorus.test' }],
  'email:run_notification': [
    { problem: 'missingData' },
    { problem: 'invalidFormat' },
    { problem: 'noResponseText' },
  ],
  'email:delivery_failed': [{ support: 'support@chorus.test' }],
  'email:unsubscribed': [
    { recipients: ['ann@chorus.test'] },
    { recipients: ['a@x.test', 'b@x.test'] },
  ],
  'rate_limit:client': [{ seconds: 1 }, { seconds: 30 }],
};

export type RenderedErrorMessage = {
  code: ErrorCode;
  /** `default`, or which example of the code's detail it was rendered with. */
  variant: string;
  text: string;
  /** Quoted in the product spec, so it may lack a final mark (see CatalogueEntry.spec). */
  spec: boolean;
};

/** Every message of the catalogue: each code's default, then its detail with every example. */
export const everyErrorMessage = (): RenderedErrorMessage[] =>
  errorCodes.flatMap((code) => {
    const entry: CatalogueEntry = errorCatalogue[code];
    const spec = entry.spec === true;
    const rendered: RenderedErrorMessage[] = [
      { code, variant: 'default', text: entry.message, spec },
    ];
    const examples = (errorExamples as Partial<Record<ErrorCode, readonly unknown[]>>)[code];
    const detail = entry.detail as ((params: unknown) => string) | undefined;
    if (detail && examples) {
      examples.forEach((params, i) =>
        rendered.push({ code, variant: `example ${i + 1}`, text: detail(params), spec }),
      );
    }
    return rendered;
  });
