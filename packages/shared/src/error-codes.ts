// Plain data, no zod: the web's first screen imports this list, and an import of a module that
// builds schemas brings the whole of zod with it. The words for each code live apart, in
// error-catalogue.ts, for the same reason: the list must not bring every message with it.

/**
 * Every error code the API answers with, `area:reason`, grouped by area. A code is a stable
 * name for programs (the web picks its words and actions by it); the message beside it is for
 * people. A new failure gets a code here first, and its words in error-catalogue.ts: the
 * server's ApiError accepts no other code, and the catalogue no code without words.
 */
export const errorCodes = [
  // Requests in general
  'bad_request:validation',
  'request:malformed_json',
  'request:too_large',
  'request:invalid_text',
  'request:failed',
  'http:not_found',
  'server:internal',
  'database:unavailable',
  'rate_limit:exceeded',
  // Auth and people
  'auth:required',
  'auth:forbidden',
  'auth:untrusted_origin',
  'profile:not_found',
  'profile:public_name_taken',
  'users:not_found',
  'users:self_role',
  'users:self_suspend',
  'users:last_super_admin',
  'users:super_admin_only',
  'users:suspend_admin',
  'access_requests:not_found',
  'access_requests:decided',
  'access_requests:has_account',
  'audit_logs:bad_range',
  // Keys, providers and model calls
  'keys:missing',
  'keys:not_found',
  'keys:invalid_format',
  'proxy:direct_call',
  'provider:failed',
  'provider:timeout',
  // A provider call that failed after it started: why, so the chat offers the right way out.
  'provider:auth',
  'provider:rate_limited',
  'provider:unavailable',
  'provider:unknown_model',
  'provider:stalled',
  'provider:interrupted',
  'openrouter:unavailable',
  'quota:exceeded',
  'quota:provider_not_allowed',
  'quota:model_not_allowed',
  // Chat
  'conversations:not_found',
  'conversations:bad_cursor',
  'chat:nothing_to_regenerate',
  'chat:message_not_found',
  'chat:already_sent',
  'chat:version_not_found',
  'chat:server_restarting',
  'chat:not_saved',
  'conversations:files_not_deleted',
  'conversations:files_added',
  'shares:not_found',
  'shares:nothing_to_share',
  // Files
  'storage:not_found',
  'storage:unavailable',
  'storage:name_required',
  'storage:unsupported_type',
  'storage:empty',
  'storage:bad_cursor',
  'storage:bad_range',
  'storage:link_invalid',
  'storage:link_expired',
  'storage:file_too_large',
  'storage:quota_exceeded',
  'storage:content_mismatch',
  'storage:upload_incomplete',
  // Knowledge
  'knowledge:no_embedding_model',
  // Plans, usage and billing
  'plans:not_found',
  'plans:name_taken',
  'plans:free_protected',
  'usage:bad_range',
  'usage:range_too_long',
  'billing:not_configured',
  'billing:not_for_sale',
  'billing:bad_signature',
  'billing:stripe_failed',
  // Background jobs
  'jobs:unavailable',
  'jobs:queue_not_found',
  'jobs:failed_job_not_found',
  // Library
  'library:not_found',
  'discover:bad_cursor',
  // Prompt library and scenarios
  'prompts:not_found',
  'prompts:bad_cursor',
  'prompts:missing_variable',
  'prompts:version_not_found',
  'prompts:too_many',
  'prompts:import_invalid',
  'scenarios:not_found',
  'scenarios:bad_cursor',
  'scenarios:run_not_found',
  'scenarios:no_targets',
  'scenarios:bad_target',
  'scenarios:too_many',
  // E-mail
  'email:missing_fields',
  'email:invalid_format',
  'email:one_recipient',
  'email:recipient_not_allowed',
  'email:reset_link',
  'email:run_notification',
  'email:not_found',
  'email:delivery_failed',
  'email:unsubscribed',
  'email:one_time_link',
  'email:unsubscribe_link',
  // Raised by the web app itself, never sent by the server
  'rate_limit:client',
] as const;

export type ErrorCode = (typeof errorCodes)[number];
