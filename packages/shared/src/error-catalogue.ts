// Plain data, no zod, like the list of codes, but apart from it: the web's first screen imports
// the list, and a bundle that imports this module keeps every message object it reads (about
// 3 KB of gzip), used or not.
import { emailMessages } from './email.ts';
import type { ErrorCode } from './error-codes.ts';
import {
  chatMessages,
  keyMessages,
  messages,
  peopleMessages,
  planMessages,
  serviceMessages,
  storageMessages,
} from './messages.ts';
import { joinSentences } from './sentences.ts';
import { shareMessages } from './share-messages.ts';

/** Every list's answer to a page cursor it did not write. */
const badCursor = {
  message: 'The page cursor is not valid; start again from the first page.',
};

const invalidRequest = 'The request is not valid. Check what was sent and try again.';

const badDate =
  'A date in the request is not a real date from 0001-01-01 to 9999-12-31. Fix it and try again.';

/** One code's words: what happened and what to try. */
export type CatalogueEntry = {
  /** What a person reads when nothing more particular is known. */
  message: string;
  /** The same failure told with its particulars: a provider's name, a limit, a date. */
  detail?: (params: never) => string;
  /**
   * The wording is quoted in the product spec and sent exactly as written there, even where the
   * spec leaves off the final full stop; text that joins it to more words adds one (asSentence).
   */
  spec?: true;
};

/**
 * THE catalogue of error messages: every code's default message, and for codes whose message
 * names something (a provider, a plan, a limit) the function that words it. The server builds
 * its ApiError from here (`new ApiError(404, 'jobs:queue_not_found')`), and a test renders every
 * entry and checks its punctuation.
 */
export const errorCatalogue = {
  // Requests in general
  'bad_request:validation': {
    message: invalidRequest,
    /** One sentence per problem zod found, each led by the field it is about. */
    detail: ({ issues }: { issues: readonly { path: string; message: string }[] }) =>
      joinSentences(
        ...issues.map(({ path, message }) => (path ? `Field ${path}: ${message}` : message)),
      ) || invalidRequest,
  },
  'request:malformed_json': {
    message: 'The request body is not valid JSON. Fix it and try again.',
  },
  'request:too_large': {
    message: 'The request is too large. Send less at once.',
    detail: ({ subject, limit, fix }: { subject: string; limit: string; fix: string }) =>
      joinSentences(`${subject} is larger than ${limit}`, fix),
  },
  'request:invalid_text': {
    message:
      'The request holds a character that is not text (a NUL or a broken Unicode sequence). Remove it and try again.',
  },
  'request:bad_date': {
    message: badDate,
    /** Like a failed validation: one sentence per date, led by its field. */
    detail: ({ issues }: { issues: readonly { path: string; message: string }[] }) =>
      joinSentences(
        ...issues.map(({ path, message }) => (path ? `Field ${path}: ${message}` : message)),
      ) || badDate,
  },
  'request:too_deep': {
    message: 'The request nests its JSON too deeply. Send it with fewer levels.',
    detail: ({ max }: { max: number }) =>
      `The request nests its JSON more than ${max} levels deep. Send it with fewer levels.`,
  },
  'request:failed': { message: 'The request failed. Try again in a moment.' },
  'http:not_found': {
    message: 'There is nothing at this address. Check the link.',
    detail: ({ endpoint, file }: { endpoint?: string; file?: string }) =>
      file
        ? `There is no file "${file}". Reload the page to get the current version.`
        : `There is no endpoint "${endpoint ?? ''}". Check the method and the path.`,
  },
  'server:internal': {
    message: 'Something went wrong on our side. Please try again in a moment.',
  },
  'database:unavailable': {
    message:
      'The database is not answering right now, so nothing was changed. Try again in a moment.',
    detail: ({ seconds }: { seconds: number }) => serviceMessages.databaseUnavailable(seconds),
  },
  'server:starting': {
    message: 'Chorus is starting. Try again in a few seconds.',
  },
  'rate_limit:exceeded': {
    message: 'Too many requests. Wait a moment, then try again.',
    detail: ({ operation, seconds }: { operation: string; seconds: number }) =>
      messages.rateLimit.operation(operation, seconds),
    spec: true,
  },
  // Auth and people
  'auth:required': { message: messages.auth.required, spec: true },
  'auth:forbidden': {
    message: 'This area is for administrators only.',
    /** Spec §5: `{ action: 'log admin action' }` is the audit log's refusal. */
    detail: ({ action }: { action: string }) => `Not authorized to ${action}`,
    spec: true,
  },
  'auth:untrusted_origin': {
    message:
      'This request did not come from a Chorus page, so it was refused. Reload Chorus and try again.',
  },
  'profile:not_found': { message: messages.profile.notFound, spec: true },
  'profile:public_name_taken': {
    message: 'That public name is already taken. Please choose another.',
  },
  'users:not_found': { message: peopleMessages.userNotFound },
  'users:self_role': { message: peopleMessages.cannotChangeOwnRole },
  'users:self_suspend': { message: peopleMessages.cannotSuspendSelf },
  'users:last_super_admin': { message: peopleMessages.lastSuperAdmin },
  'users:super_admin_only': { message: peopleMessages.superAdminOnly },
  'users:suspend_admin': { message: peopleMessages.cannotSuspendAdmin },
  'access_requests:not_found': { message: peopleMessages.accessRequestNotFound },
  'access_requests:decided': {
    message: 'This request was already decided. Reload the page to see its current state.',
    detail: ({ status }: { status: string }) => peopleMessages.accessRequestDecided(status),
  },
  'access_requests:has_account': { message: peopleMessages.userAlreadyExists },
  'audit_logs:bad_range': {
    message: 'The start of the range is after its end. Pick a start on or before the end.',
  },
  // Keys, providers and model calls
  'keys:missing': {
    message:
      'No API key for this provider is available to you. Add one on the API keys page, or pick another provider.',
    detail: ({ provider }: { provider: string }) =>
      `No ${provider} API key is available to you. Add one on the API keys page, or pick another provider.`,
  },
  'keys:not_found': {
    message: 'There is no such API key. Reload the page to see the keys saved.',
    /** `kind`: an admin's default or system key; `toTest`: the key test found none to test. */
    detail: ({ provider, kind, toTest }: { provider: string; kind?: string; toTest?: boolean }) =>
      kind
        ? `There is no ${kind} key for ${provider}.`
        : toTest
          ? keyMessages.noSavedKey(provider)
          : `You have no ${provider} key saved.`,
  },
  'keys:invalid_format': {
    message: 'This API key does not have the format its provider uses. Check that it is whole.',
    /** Spec §5's words, as apiKeyFormatError (api/keys.ts) picks them: empty, or a wrong prefix. */
    detail: ({ provider, prefix }: { provider: string; prefix?: string }) =>
      prefix === undefined
        ? keyMessages.emptyKey(provider)
        : keyMessages.mustStartWith(provider, prefix),
    spec: true,
  },
  'proxy:direct_call': {
    message: 'Direct provider API calls are not allowed. Use the provider selection instead.',
    detail: ({ provider }: { provider: string }) => keyMessages.directCallNotAllowed(provider),
    spec: true,
  },
  'provider:failed': {
    message: 'The reply from the provider failed. Try again, or switch to another provider.',
    detail: ({ provider }: { provider: string }) =>
      `The reply from ${provider} failed. Try again, or switch to another provider.`,
  },
  'provider:timeout': {
    message: 'The provider took too long to answer. Try again, or pick a faster model.',
    /** `seconds`: the whole call's time limit, when the call had one of its own. */
    detail: ({ provider, seconds }: { provider: string; seconds?: number }) =>
      seconds === undefined
        ? `${provider} took too long to answer. Try again, or pick a faster model.`
        : `${provider} did not answer within ${seconds} s. Try again or raise the timeout.`,
  },
  'provider:auth': {
    message: 'The provider rejected the API key. Check it on the API keys page.',
    detail: ({ provider }: { provider: string }) =>
      `${provider} rejected the API key. Check it on the API keys page.`,
  },
  'provider:rate_limited': {
    message: 'The provider is rate limiting requests right now. Wait a moment and try again.',
    detail: ({ provider }: { provider: string }) =>
      `${provider} is rate limiting requests right now. Wait a moment and try again.`,
  },
  'provider:unavailable': {
    message: 'The provider had a problem answering. Try again in a moment.',
    detail: ({ provider, status }: { provider: string; status: number }) =>
      `${provider} had a problem answering (HTTP ${status}). Try again in a moment.`,
  },
  'provider:unknown_model': {
    message: 'The provider does not know this model. Pick another model and try again.',
    detail: ({ provider }: { provider: string }) =>
      `${provider} does not know this model. Pick another model and try again.`,
  },
  'provider:stalled': {
    message: 'The provider stopped responding, so the reply was cut off. Try again.',
    detail: ({ provider }: { provider: string }) =>
      chatMessages.providerStoppedResponding(provider),
  },
  'provider:interrupted': {
    message: 'The connection to the provider broke before the reply ended. Try again.',
    detail: ({ provider }: { provider: string }) =>
      `The connection to ${provider} broke before the reply ended. Try again.`,
  },
  'openrouter:unavailable': {
    message:
      'The OpenRouter model list could not be loaded. Try again in a moment; you can still type a model id.',
  },
  'quota:exceeded': {
    message:
      'You have used all the prompts your plan allows for today. The limit resets at 00:00 UTC.',
    detail: ({ limit, plan, wait }: { limit: number; plan: string; wait: string }) =>
      planMessages.quotaExceeded(limit, plan, wait),
  },
  'quota:provider_not_allowed': {
    message:
      'Your plan does not include this provider. Pick another provider, or ask an admin for a plan that includes it.',
    detail: ({ provider, plan }: { provider: string; plan: string }) =>
      planMessages.providerNotAllowed(provider, plan),
  },
  'quota:model_not_allowed': {
    message:
      'Your plan does not include this model. Pick another model, or ask an admin for a plan that includes it.',
    detail: ({ model, plan }: { model: string; plan: string }) =>
      planMessages.modelNotAllowed(model, plan),
  },
  // Chat
  'conversations:not_found': { message: storageMessages.conversationNotFound },
  'conversations:bad_cursor': {
    message: 'The page cursor is not valid; start again from the first page.',
    detail: (_: { inConversation: true }) =>
      'The page cursor is not valid; open the conversation again.',
  },
  'chat:nothing_to_regenerate': { message: 'There is no message to answer again yet.' },
  'chat:message_not_found': {
    message: 'The message to edit does not exist in this conversation.',
  },
  'chat:already_sent': {
    message:
      'This message was sent already; it is in the conversation. Reload it to see its reply.',
  },
  'chat:version_not_found': {
    message: 'This answer does not exist or is not yours. Reload the conversation.',
  },
  'chat:server_restarting': { message: chatMessages.serverRestarting },
  'chat:not_saved': { message: chatMessages.replyNotSaved },
  'conversations:files_not_deleted': { message: storageMessages.conversationFilesNotDeleted },
  'conversations:files_added': { message: storageMessages.conversationChanged },
  'shares:not_found': { message: shareMessages.unavailable },
  'shares:nothing_to_share': { message: shareMessages.nothingToShare },
  // Files
  'storage:not_found': { message: storageMessages.notFound },
  'storage:unavailable': { message: storageMessages.unavailable },
  'storage:name_required': { message: storageMessages.nameRequired },
  'storage:unsupported_type': {
    message: `Files of this type cannot be uploaded. Accepted types: ${storageMessages.acceptedTypes}.`,
    detail: ({ type }: { type: string }) => storageMessages.unsupportedType(type),
  },
  'storage:empty': { message: storageMessages.emptyFile },
  'storage:bad_cursor': badCursor,
  'storage:bad_range': {
    message: 'The asked range lies outside the file. Ask for bytes within its size.',
  },
  'storage:link_invalid': { message: storageMessages.linkInvalid },
  'storage:link_expired': { message: storageMessages.linkExpired },
  'storage:file_too_large': {
    message:
      'This file is larger than your plan allows. Upload a smaller file, or ask an admin for a plan with a higher limit.',
    detail: ({ limit, plan }: { limit: string; plan: string }) =>
      storageMessages.fileTooLarge(limit, plan),
  },
  'storage:quota_exceeded': {
    message:
      'Not enough storage left on your plan. Delete files you no longer need, or ask an admin for a plan with more storage.',
    detail: ({ used, quota, plan }: { used: string; quota: string; plan: string }) =>
      storageMessages.quotaExceeded(used, quota, plan),
  },
  'storage:content_mismatch': {
    message: `The file's contents are not of the type it was sent as. Check the file, or send it with its real type. Accepted types: ${storageMessages.acceptedTypes}.`,
    detail: ({ label }: { label: string }) => storageMessages.contentMismatch(label),
  },
  'storage:upload_incomplete': { message: storageMessages.uploadIncomplete },
  // Knowledge
  'knowledge:no_embedding_model': {
    message:
      'This provider has no embedding model. Use OpenAI, Gemini, Mistral or Ollama for embeddings.',
    detail: ({ provider }: { provider: string }) =>
      `${provider} has no embedding model. Use OpenAI, Gemini, Mistral or Ollama for embeddings.`,
  },
  'knowledge:not_found': {
    message:
      'This knowledge base does not exist, or it is not yours. Open the knowledge base page to see yours.',
  },
  'knowledge:document_not_found': {
    message: 'This document does not exist in the knowledge base. Reload the list of documents.',
  },
  'knowledge:unsupported_type': {
    message:
      'A knowledge base reads text, Markdown, PDF, Word (docx), HTML, CSV and JSON files. Convert the file to one of these and upload it again.',
    detail: ({ name }: { name: string }) =>
      `The file "${name}" is not of a type a knowledge base reads. Upload text, Markdown, PDF, Word (docx), HTML, CSV or JSON files.`,
  },
  'knowledge:no_files': {
    message:
      'Choose at least one file to upload: text, Markdown, PDF, Word (docx), HTML, CSV or JSON.',
  },
  'knowledge:too_many_files': {
    message: 'Too many files in one upload. Upload at most 20 files at a time.',
  },
  'knowledge:too_many_pages': {
    message: 'This PDF has more pages than a document may have. Split it, and upload the parts.',
    detail: ({ pages, max }: { pages: number; max: number }) =>
      `This PDF has ${pages.toLocaleString('en')} pages; a document may have at most ${max.toLocaleString('en')}. Split it, and upload the parts.`,
  },
  'knowledge:too_many': {
    message: 'You have as many knowledge bases as you may keep. Delete one you no longer use.',
  },
  'knowledge:unknown_embedding_model': {
    message: 'Pick an embedding model from the list of the provider you chose.',
    detail: ({ provider, models }: { provider: string; models: string }) =>
      `Pick one of ${provider}'s embedding models: ${models}.`,
  },
  'knowledge:vectors_unavailable': {
    message:
      'This server has no vector search (its PostgreSQL lacks the vector extension), so knowledge bases search by full text alone. Create it without an embedding model.',
  },
  'custom_ais:not_found': {
    message: 'This custom AI does not exist, or it is not yours. Open Custom AIs to see yours.',
  },
  'custom_ais:too_many': {
    message: 'You have as many custom AIs as you may keep. Delete one you no longer use.',
  },
  'custom_ais:already_published': {
    message:
      'This custom AI is already published in Discover. To change its category, stop sharing it, then share it again.',
  },
  'custom_ais:not_shared': {
    message:
      'This custom AI is not waiting for review or published: its owner stopped sharing it, or it is gone. Reload the list.',
  },
  'agents:not_found': {
    message: 'This agent does not exist, or it is not yours. Open Agents to see yours.',
  },
  'agents:too_many': {
    message: 'You have as many agents as you may keep. Delete one you no longer use.',
  },
  'agents:handle_taken': {
    message: 'You have an agent whose name makes the same @handle. Give this one another name.',
  },
  'agents:version_not_found': {
    message: 'This agent has no such version. Open its history to see the versions it has.',
  },
  'agents:unknown_tool': {
    message:
      'One of the tools is not yours or no longer exists. Remove it from the agent, or add it again under Tools.',
  },
  'agents:run_not_found': {
    message: 'This agent run does not exist, or it is not yours. Reload the conversation.',
  },
  'agents:run_not_waiting': {
    message:
      'This run is not waiting for an approval any more: it was answered already. Reload the conversation to see where it stands.',
  },
  'agents:too_many_runs': {
    message:
      'You have as many agent runs going as you may at once. Wait for one to finish, or stop one, then try again.',
  },
  'agents:interrupted': {
    message: 'The server stopped while the agent was working. Send your message again.',
  },
  'workflows:not_found': {
    message: 'This workflow does not exist, or it is not yours. Open Workflows to see yours.',
  },
  'workflows:too_many': {
    message: 'You have as many workflows as you may keep. Delete one you no longer use.',
  },
  'workflows:version_not_found': {
    message: 'This workflow has no such version. Open its history to see the versions it has.',
  },
  'workflows:unknown_reference': {
    message:
      'A step uses a variable that is neither an input nor an earlier step. Fix the reference, or add the input or step it names.',
    detail: ({ step, reference, why }: { step: string; reference: string; why: string }) =>
      `Step “${step}” uses ${reference}, but ${why}. Fix the reference, or add what it names.`,
  },
  'workflows:duplicate_step': {
    message: 'Two steps have the same id. Give each step an id of its own.',
    detail: ({ step }: { step: string }) =>
      `More than one step is called “${step}”. Give each step an id of its own.`,
  },
  'workflows:bad_condition': {
    message:
      'A condition is not a valid CEL expression. Fix it, for example steps.check.output == "yes".',
    detail: ({ step, reason }: { step: string; reason: string }) =>
      `The condition of step “${step}” is not a valid CEL expression (${reason}). Fix it, for example steps.check.output == "yes".`,
  },
  'workflows:bad_step': {
    message: 'A step is not set up completely. Open it and fill in what it asks for.',
    detail: ({ step, reason }: { step: string; reason: string }) =>
      `Step “${step}” is not set up completely: ${reason}. Open it and fill in what it asks for.`,
  },
  'workflows:missing_input': {
    message: 'The workflow needs an input that was not given. Fill in every required input.',
    detail: ({ input }: { input: string }) =>
      `The workflow needs the input “${input}”. Fill it in, then run it again.`,
  },
  'workflows:bad_input': {
    message: 'An input has the wrong type. Give text, a number or true/false as the workflow asks.',
    detail: ({ input, type }: { input: string; type: string }) =>
      `The input “${input}” must be ${type}. Change it, then run it again.`,
  },
  'workflows:bad_cursor': {
    message: 'This page position is not valid. Reload the run history from its first page.',
  },
  'workflows:run_not_found': {
    message:
      'This workflow run does not exist, or it is not yours. Open the workflow to see its runs.',
  },
  'workflows:run_not_failed': {
    message: 'Only a failed run can be retried. Start a new run instead.',
  },
  'workflows:run_finished': {
    message:
      'This run has ended already, so there is nothing to cancel. Reload it to see how it ended.',
  },
  'workflows:step_failed': {
    message: 'A step of the workflow failed. Read its reason, fix the step, then retry the run.',
  },
  'workflows:run_timeout': {
    message: 'The run took longer than a run may. Make its steps shorter, then retry it.',
  },
  'workflows:token_budget': {
    message:
      'The run used more tokens than a run may. Shorten its prompts or outputs, then retry it.',
  },
  'workflows:cost_budget': {
    message:
      'The run cost more than a run may. Use a cheaper model or shorter prompts, then retry it.',
  },
  'workflows:needs_approval': {
    message:
      'A tool of this step needs approval, and unattended runs never approve tools. Set the tool to need no approval, or leave it out, then retry.',
  },
  'workflows:interrupted': {
    message: 'The server stopped during the run. Retry it.',
  },
  'schedules:not_found': {
    message: 'This schedule does not exist, or it is not yours. Open Scheduled runs to see yours.',
  },
  'schedules:too_many': {
    message: 'You have as many schedules as you may keep. Delete one you no longer use.',
    /** `max` is the plan's limit (or the instance default), `plan` its name. */
    detail: ({ max, plan }: { max: number; plan: string }) =>
      max === 0
        ? joinSentences(
            `Your ${plan} plan includes no schedules`,
            'Ask an admin for a plan that includes them',
          )
        : joinSentences(
            `Your ${plan} plan keeps at most ${max === 1 ? 'one schedule' : `${max.toLocaleString('en')} schedules`}`,
            'Delete one you no longer use, or ask an admin for a plan with more',
          ),
  },
  'schedules:bad_cron': {
    message:
      'The cron expression is not valid. Write five fields: minute, hour, day of month, month and day of week, such as 0 9 * * 1-5.',
    detail: ({ reason }: { reason: string }) =>
      joinSentences(
        `The cron expression is not valid: ${reason}`,
        'Write five fields: minute, hour, day of month, month and day of week, such as 0 9 * * 1-5',
      ),
  },
  'schedules:bad_time_zone': {
    message: 'The time zone is not known. Pick an IANA time zone, such as Europe/Berlin.',
    detail: ({ zone }: { zone: string }) =>
      joinSentences(
        `The time zone “${zone}” is not one this server knows`,
        'Pick an IANA time zone, such as Europe/Berlin',
      ),
  },
  'schedules:too_frequent': {
    message: 'The schedule would run more often than a schedule may. Make it run less often.',
    /** `plan` names the plan the minimum comes from, when it is the user's plan's. */
    detail: ({ minutes, plan }: { minutes: number; plan?: string }) => {
      const every = minutes === 1 ? 'minute' : `${minutes.toLocaleString('en')} minutes`;
      return joinSentences(
        plan === undefined
          ? `A schedule may run at most once every ${every}`
          : `On your ${plan} plan, a schedule may run at most once every ${every}`,
        'Make it run less often',
      );
    },
  },
  'schedules:bad_cursor': badCursor,
  'schedules:needs_approval': {
    message:
      'The agent asked to use a tool that needs approval, and scheduled runs never approve tools. Set the tool to need no approval, or run the task yourself in a chat.',
  },
  'schedules:interrupted': {
    message: 'The server stopped during this run. It runs again at its next time, or run it now.',
  },
  'test_sets:not_found': {
    message: 'This test set does not exist, or it is not yours. Open the test runner to see yours.',
  },
  'test_sets:too_many': {
    message: 'You have as many test sets as you may keep (200). Delete one you no longer use.',
  },
  'test_sets:case_not_found': {
    message:
      'This test case does not exist, or it is not in this set. Reload the set to see its cases.',
  },
  'test_sets:too_many_cases': {
    message: 'A test set holds at most 500 cases. Delete some, or start a new set for the rest.',
  },
  'test_sets:subject_not_found': {
    message:
      'The prompt, scenario, custom AI or agent under test does not exist, or it is not yours. Pick another one for this set.',
  },
  'test_sets:bad_import': {
    message: 'The file could not be imported. Fix the rows it names, then import it again.',
    detail: ({ count, first }: { count: number; first: string }) =>
      `${count === 1 ? 'One row' : `${count} rows`} could not be imported, so nothing was: ${first}. Fix ${count === 1 ? 'it' : 'them'}, then import the file again.`,
  },
  'test_runs:not_found': {
    message: 'This test run does not exist, or it is not yours. Open the test runner to see yours.',
  },
  'test_runs:too_many_runs': {
    message:
      'You have as many test runs going as you may at once (2). Wait for one to finish, or cancel one, then start again.',
  },
  'test_runs:too_large': {
    message:
      'This run would make more than 6,000 model calls (cases × models × repeats). Pick fewer models or repeats, or split the set.',
  },
  'test_runs:finished': {
    message:
      'This run has ended already, so there is nothing to cancel. Reload it to see how it ended.',
  },
  'test_runs:no_cases': {
    message: 'This test set has no cases yet. Add a case, or import some, then run it.',
  },
  'test_runs:bad_cursor': {
    message: 'This page position is not valid. Reload the list of runs from its first page.',
  },
  'test_runs:other_set': {
    message:
      'A run can only be compared with a run of the same test set. Pick one of its own runs.',
  },
  'test_runs:active': {
    message:
      'This run is still going, so it cannot be deleted. Cancel it, or wait for it to end, then delete it.',
  },
  'access_tokens:not_found': {
    message: 'This access token does not exist, or it is not yours. Reload the list of tokens.',
  },
  'access_tokens:too_many': {
    message: 'You have as many access tokens as you may hold (20). Revoke one you no longer use.',
  },
  'access_tokens:invalid': {
    message:
      'This access token is not valid: it is mistyped, expired or revoked. Create a new one in the test runner and use it instead.',
  },
  'access_tokens:wrong_scope': {
    message:
      'An access token can start, read and cancel test runs only. Sign in to the app for everything else.',
  },
  'widgets:not_found': {
    message: 'This widget does not exist, or it is not yours. Open Agent embed chat to see yours.',
  },
  'widgets:too_many': {
    message: 'You have as many widgets as you may keep (20). Delete one you no longer use.',
  },
  'widgets:target_not_found': {
    message:
      'The agent or custom AI for this widget does not exist, or it is not yours. Pick one of yours.',
  },
  'widgets:unknown_tool': {
    message:
      'A tool allowed for the widget is not one of the agent’s tools, or it needs approval, which visitors can never give. Pick from the agent’s tools that need no approval.',
  },
  'widgets:tool_arguments': {
    message:
      'Choose, for each HTTP or MCP tool the widget allows, which arguments visitors may set; fix the others, or leave them out.',
    detail: ({
      tool,
      problem,
      argument,
    }: {
      tool: string;
      problem: 'missing' | 'unknown' | 'both' | 'required';
      argument?: string;
    }) => {
      const arg = `“${argument ?? ''}”`;
      switch (problem) {
        case 'missing':
          return `Choose which arguments of “${tool}” visitors may set. It calls out with your credentials, so visitors set none unless you say so.`;
        case 'unknown':
          return `The tool “${tool}” has no argument ${arg}. Pick from the arguments in its input schema.`;
        case 'both':
          return `The argument ${arg} of “${tool}” is either set by visitors or fixed by you, not both.`;
        case 'required':
          return `The tool “${tool}” needs ${arg}: let visitors set it, or give it a fixed value.`;
      }
    },
  },
  'widgets:origin_not_allowed': {
    message:
      'This website is not allowed to show this chat. The widget’s owner can add it to the allowed origins.',
  },
  'widgets:unavailable': {
    message: 'This assistant is unavailable right now. Please try again later.',
  },
  'widgets:budget_exhausted': {
    message: 'This assistant is unavailable right now. Please try again later.',
  },
  'widgets:busy': {
    message: 'This assistant is answering many visitors right now. Wait a moment, then try again.',
  },
  'widgets:signed_visitor_required': {
    message:
      'This chat is for signed-in visitors only. Sign in on this website, then open it again.',
  },
  'widgets:bad_visitor_token': {
    message:
      'Your sign-in for this chat could not be checked: it is expired or not valid. Reload the page and try again.',
  },
  'widgets:session_invalid': {
    message: 'Your chat session has expired. Reload the page to start a new one.',
  },
  'widgets:visitor_blocked': {
    message: 'You can no longer use this chat.',
  },
  'widgets:rate_limited': {
    message:
      'You are sending messages faster than this chat allows. Wait a little, then try again.',
  },
  'widgets:conversation_not_found': {
    message: 'This conversation does not exist, or it is not yours. Start a new one.',
  },
  'widgets:visitor_not_found': {
    message: 'This visitor does not exist, or not for this widget. Reload the list of sessions.',
  },
  'widgets:bad_cursor': {
    message: 'This page position is not valid. Reload the list of sessions from its first page.',
  },
  'tools:not_found': {
    message: 'This tool does not exist, or it is not yours. Open Tools to see yours.',
  },
  'tools:too_many': {
    message: 'You have as many HTTP tools as you may keep. Delete one you no longer use.',
  },
  'tools:name_taken': {
    message: 'You have a tool with this name already. Give this one another name.',
  },
  'tools:bad_url_template': {
    message:
      'The URL must be an http or https address; placeholders in braces, like {city}, must name properties of the input schema.',
  },
  'tools:secret_missing': {
    message: 'A secret header needs a value when it is first saved. Enter it, then save.',
  },
  'mcp:not_found': {
    message: 'This MCP server does not exist, or it is not yours. Open Tools to see yours.',
  },
  'mcp:tool_not_found': {
    message: 'This MCP server has no such tool. Refresh its tools, then try again.',
  },
  'mcp:too_many': {
    message: 'You have as many MCP servers as you may add. Remove one you no longer use.',
  },
  'mcp:connect_failed': {
    message:
      'The MCP server could not be reached, or it did not answer as an MCP server. Check its URL and token, then try again.',
  },
  'mcp:tool_disabled': {
    message:
      'This tool is turned off: enable it, or approve its changed definition, under Tools first.',
  },
  'mcp:stale_approval': {
    message:
      'The tool changed again while you looked at it. Review the new definition, then approve it.',
  },
  'mcp:nothing_to_approve': {
    message: 'This tool has no changed definition waiting for approval.',
  },
  'mcp:authorization_required': {
    message:
      'This MCP server needs you to sign in to it. Open Tools and choose “Sign in” on the server, then try again.',
  },
  'mcp:oauth_state_invalid': {
    message:
      'This sign-in link has expired or was already used. Open Tools and sign in to the MCP server again.',
  },
  'outbound:bad_allow_entry': {
    message:
      'Each allowed private host is a host name, an IP address or a range like 10.0.0.0/8. Fix the entry, then save.',
  },
  // Outbound requests to user-supplied URLs (web fetch, HTTP tools, MCP)
  'outbound:refused': {
    message:
      'Chorus does not fetch private or local addresses. Use a public address, or ask an admin to allow this host.',
  },
  'outbound:timeout': {
    message: 'The site did not answer in time. Try again later, or try another address.',
  },
  'outbound:too_many_redirects': {
    message: 'The site redirected too many times. Use the final address of the page instead.',
  },
  'outbound:failed': {
    message: 'The request to the site failed. Check the address and try again.',
  },
  'chat:attachment_not_found': {
    message:
      'A file you attached is no longer there. Remove it from the message and attach it again.',
  },
  // Prompt library and scenarios
  'prompts:not_found': {
    message:
      'This prompt does not exist, or it is not yours. Open the prompt library to see yours.',
  },
  'prompts:bad_cursor': badCursor,
  'prompts:missing_variable': {
    message: 'A variable has no value. Fill in every variable that has no default.',
    detail: ({ names }: { names: string[] }) =>
      names.length === 1
        ? `The variable {{${names[0]}}} has no value. Fill it in, or give it a default as {{${names[0]}|default}}.`
        : `The variables ${names.map((n) => `{{${n}}}`).join(', ')} have no value. Fill them in, or give them defaults.`,
  },
  'prompts:version_not_found': {
    message: 'This version of the prompt does not exist. Pick one from its list of versions.',
  },
  'prompts:too_many': {
    message: 'You have as many prompts as a library can hold. Delete some you no longer use.',
    detail: ({ max }: { max: number }) =>
      `A library holds at most ${max.toLocaleString('en')} prompts. Delete some you no longer use.`,
  },
  'prompts:import_invalid': {
    message:
      'This file is not a prompt export. Export prompts from Chorus to see the format, then import that file.',
  },
  'scenarios:not_found': {
    message: 'This scenario does not exist, or it is not yours. Open Scenarios to see yours.',
  },
  'scenarios:bad_cursor': badCursor,
  'scenarios:run_not_found': {
    message: 'This run does not exist, or it is not yours. Open the scenario to see its runs.',
  },
  'scenarios:no_targets': {
    message: 'Add at least one model to compare, at most eight.',
  },
  'scenarios:bad_target': {
    message: 'This column does not exist in the run. Pick one of its columns.',
  },
  'scenarios:too_many': {
    message: 'You have as many scenarios as you can keep. Delete some you no longer use.',
    detail: ({ max }: { max: number }) =>
      `You can keep at most ${max.toLocaleString('en')} scenarios. Delete some you no longer use.`,
  },
  // Plans, usage and billing
  'plans:not_found': { message: peopleMessages.planNotFound },
  'plans:name_taken': {
    message: 'A plan with this name already exists. Choose another name.',
    detail: ({ name }: { name: string }) => planMessages.planNameTaken(name),
  },
  'plans:free_protected': {
    message: planMessages.freePlanUndeletable,
    detail: ({ change }: { change: 'delete' | 'rename' }) =>
      change === 'delete' ? planMessages.freePlanUndeletable : planMessages.freePlanNotRenamable,
  },
  'usage:bad_range': { message: 'The start date must be on or before the end date.' },
  'usage:range_too_long': {
    message: 'The range is too long. Pick fewer days.',
    detail: ({ max, start, end }: { max: number; start: string; end: string }) =>
      `Pick at most ${max} days; ${start} to ${end} is longer.`,
  },
  'billing:not_configured': { message: planMessages.paymentsNotConfigured },
  'billing:not_for_sale': {
    message: 'This plan is not sold through Stripe; an admin assigns it.',
    detail: ({ plan }: { plan: string }) =>
      `The ${plan} plan is not sold through Stripe; an admin assigns it.`,
  },
  'billing:bad_signature': {
    message: 'The Stripe-Signature header is missing or does not match this body.',
  },
  'billing:stripe_failed': {
    message: 'Stripe could not start the checkout. Please try again in a moment.',
  },
  // Background jobs
  'jobs:unavailable': {
    message: 'Background jobs are not running on this server. Restart it, or check its log.',
  },
  'jobs:queue_not_found': { message: 'There is no such queue. Reload the list.' },
  'jobs:failed_job_not_found': {
    message: 'That job is no longer failed: it was retried already, or has been cleaned up.',
  },
  // Library
  'library:not_found': {
    message: 'That item does not exist or is not shared any more. Reload the list.',
    detail: ({ kind }: { kind: 'prompt' | 'scenario' }) =>
      `That ${kind} does not exist or is not shared any more. Reload the list.`,
  },
  'discover:bad_cursor': badCursor,
  // E-mail
  'email:missing_fields': { message: emailMessages.missingFields, spec: true },
  'email:invalid_format': {
    message: emailMessages.invalidFormat,
    detail: ({ email }: { email: string }) => emailMessages.invalidRecipient(email),
    spec: true,
  },
  'email:one_recipient': {
    message: 'A templated e-mail goes to one recipient. Send one request per recipient.',
  },
  'email:recipient_not_allowed': {
    message: 'You can send e-mail only to your own address or to support.',
    detail: ({ support, refused }: { support: string; refused: string }) =>
      `You can send e-mail only to your own address or to ${support}; ${refused} is not allowed.`,
  },
  'email:reset_link': {
    message: 'The reset link must be a link on this Chorus site.',
    detail: ({ appUrl }: { appUrl: string }) =>
      `The reset link must be a link on ${appUrl}. Send the link Chorus made for this reset.`,
  },
  'email:run_notification': {
    message: emailMessages.missingData,
    /** Spec §5's words for what the notification lacks. */
    detail: ({ problem }: { problem: 'missingData' | 'invalidFormat' | 'noResponseText' }) =>
      emailMessages[problem],
    spec: true,
  },
  'email:not_found': { message: 'There is no such e-mail in the outbox. Reload the list.' },
  'email:delivery_failed': {
    message: 'Your message could not be sent right now. Please try again later.',
    detail: ({ support }: { support: string }) =>
      `Your message could not be sent right now. Please try again later, or write to ${support}.`,
  },
  'email:unsubscribed': {
    message: 'Not resent: the recipient unsubscribed from this kind of e-mail.',
    detail: ({ recipients }: { recipients: readonly string[] }) =>
      `Not resent: ${recipients.join(', ')} unsubscribed from this kind of e-mail.`,
  },
  'email:one_time_link': {
    message:
      'This e-mail held a one-time link and was delivered already, so it is not kept to resend. Ask the person to request a new link.',
  },
  'email:unsubscribe_link': {
    message:
      'This unsubscribe link is not valid. Use the link from the e-mail exactly as it was sent.',
  },
  // Raised by the web app itself, never sent by the server
  'rate_limit:client': {
    message: 'Too many requests. Wait a moment, then try again.',
    detail: ({ seconds }: { seconds: number }) => messages.rateLimit.waitSeconds(seconds),
    spec: true,
  },
} satisfies Record<ErrorCode, CatalogueEntry>;

/** The particulars a code's `detail` words, or never for a code that has one message only. */
export type DetailParams<C extends ErrorCode> = (typeof errorCatalogue)[C] extends {
  detail: (params: infer P) => string;
}
  ? P
  : never;

/** The codes whose message can name particulars. */
export type DetailedErrorCode = {
  [C in ErrorCode]: [DetailParams<C>] extends [never] ? never : C;
}[ErrorCode];

/**
 * A code's message: the default one, or with `params` the one that names the particulars
 * (`messageFor('keys:missing', { provider: 'OpenAI' })`).
 */
export const messageFor = <C extends ErrorCode>(
  code: C,
  ...params: [DetailParams<C>] extends [never] ? [] : [params?: DetailParams<C>]
): string => {
  const entry: CatalogueEntry = errorCatalogue[code];
  const given: unknown = params[0];
  return given !== undefined && entry.detail
    ? (entry.detail as (params: unknown) => string)(given)
    : entry.message;
};
