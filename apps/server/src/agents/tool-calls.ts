import type { ModelMessage, UIMessageChunk } from 'ai';
import type { StoredToolCall } from '@chorus/shared/api/agents';
import { toolLimits } from '@chorus/shared/api/tools';

/** A stored result is kept to this many characters of JSON; the model saw it whole. */
const storedOutputChars = toolLimits.resultChars;

/** A tool's output as stored with the reply: data, cut to a bounded size. */
const storable = (output: unknown): unknown => {
  let json: string | undefined;
  try {
    json = JSON.stringify(output);
  } catch {
    return String(output);
  }
  if (json === undefined) return null;
  if (json.length <= storedOutputChars) return output;
  return `${json.slice(0, storedOutputChars)}… (cut: ${json.length.toLocaleString('en')} characters in all)`;
};

/**
 * The tool calls of one agent reply, kept from the UI message stream as it passes: each call's
 * arguments, where it stands, its result or error, and how long it ran. The same list is stored
 * with the reply and shown after a reload.
 */
export class ToolCallLog {
  private readonly calls: StoredToolCall[];
  private readonly started = new Map<string, number>();
  /** What approving a call of each "once" tool covers, by tool name (toolset `scopes`). */
  private scopes: ReadonlyMap<string, string> = new Map();

  constructor(
    initial: StoredToolCall[] = [],
    private readonly now: () => number = () => performance.now(),
  ) {
    this.calls = initial.map((call) => ({ ...call }));
  }

  /** Tells each call that comes to wait for approval what approving it also covers. */
  describeApprovals(scopes: ReadonlyMap<string, string>): void {
    this.scopes = scopes;
  }

  private awaitApproval(call: StoredToolCall, approvalId: string) {
    call.state = 'awaiting-approval';
    call.approval_id = approvalId;
    const scope = this.scopes.get(call.name);
    if (scope) call.approval_scope = scope;
    // Waiting for the user is no part of the call's time.
    this.started.delete(call.id);
  }

  get list(): StoredToolCall[] {
    return this.calls;
  }

  get waiting(): StoredToolCall[] {
    return this.calls.filter((call) => call.state === 'awaiting-approval');
  }

  private find(id: string) {
    return this.calls.find((call) => call.id === id);
  }

  private end(call: StoredToolCall) {
    const at = this.started.get(call.id);
    if (at !== undefined) call.duration_ms = Math.round(this.now() - at);
    this.started.delete(call.id);
  }

  /** An approved call runs now (its clock starts); a refused one is denied. */
  decide(approvalId: string, approved: boolean): StoredToolCall | undefined {
    const call = this.calls.find((c) => c.approval_id === approvalId);
    if (!call || call.state !== 'awaiting-approval') return undefined;
    call.state = approved ? 'running' : 'denied';
    call.approval_id = null;
    delete call.approval_scope;
    if (approved) this.started.set(call.id, this.now());
    return call;
  }

  /** Reads one chunk of the stream; answers true when the list changed. */
  apply(chunk: UIMessageChunk): boolean {
    switch (chunk.type) {
      case 'tool-input-available': {
        const known = this.find(chunk.toolCallId);
        if (known) {
          known.input = chunk.input;
          return true;
        }
        this.calls.push({
          id: chunk.toolCallId,
          approval_id: null,
          name: chunk.toolName,
          input: chunk.input,
          state: 'running',
          error: null,
          duration_ms: null,
        });
        this.started.set(chunk.toolCallId, this.now());
        return true;
      }
      case 'tool-input-error': {
        this.calls.push({
          id: chunk.toolCallId,
          approval_id: null,
          name: chunk.toolName,
          input: chunk.input,
          state: 'error',
          error: chunk.errorText,
          duration_ms: 0,
        });
        return true;
      }
      case 'tool-approval-request': {
        const call = this.find(chunk.toolCallId);
        if (!call) return false;
        this.awaitApproval(call, chunk.approvalId);
        return true;
      }
      case 'tool-output-available': {
        const call = this.find(chunk.toolCallId);
        if (!call) return false;
        call.state = 'done';
        call.output = storable(chunk.output);
        this.end(call);
        return true;
      }
      case 'tool-output-error': {
        const call = this.find(chunk.toolCallId);
        if (!call) return false;
        call.state = 'error';
        call.error = chunk.errorText;
        this.end(call);
        return true;
      }
      case 'tool-output-denied': {
        const call = this.find(chunk.toolCallId);
        if (!call) return false;
        call.state = 'denied';
        call.approval_id = null;
        this.started.delete(call.id);
        return true;
      }
      default:
        return false;
    }
  }

  /**
   * Completes the list from what the model call returned, which holds every call of every step
   * whatever the pace at which the stream was read: calls, approval requests and results.
   */
  reconcile(messages: readonly ModelMessage[]): void {
    for (const message of messages) {
      if (typeof message.content === 'string') continue;
      for (const part of message.content) {
        if (part.type === 'tool-call') {
          if (!this.find(part.toolCallId)) {
            this.calls.push({
              id: part.toolCallId,
              approval_id: null,
              name: part.toolName,
              input: part.input,
              state: 'running',
              error: null,
              duration_ms: null,
            });
          }
        } else if (part.type === 'tool-approval-request') {
          const call = this.find(part.toolCallId);
          if (call && call.state === 'running') this.awaitApproval(call, part.approvalId);
        } else if (part.type === 'tool-result') {
          const call = this.find(part.toolCallId);
          if (!call || call.state === 'done' || call.state === 'error' || call.state === 'denied')
            continue;
          const output = part.output;
          call.approval_id = null;
          if (output.type === 'execution-denied') {
            call.state = 'denied';
            this.started.delete(call.id);
          } else if (output.type === 'error-text' || output.type === 'error-json') {
            call.state = 'error';
            call.error =
              typeof output.value === 'string' ? output.value : JSON.stringify(output.value);
            this.end(call);
          } else {
            call.state = 'done';
            call.output = storable('value' in output ? output.value : output);
            this.end(call);
          }
        }
      }
    }
  }

  /** A run that ended (stopped, failed) leaves no call running. */
  settle(reason: string): void {
    for (const call of this.calls) {
      if (call.state !== 'running') continue;
      call.state = 'error';
      call.error = reason;
      this.end(call);
    }
  }
}
