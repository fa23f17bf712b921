import type { ClientErrorKind, ClientErrorReport } from '@chorus/shared/api/client-errors';
import { clientErrorMaxBytes } from '@chorus/shared/limits';
import { diagnostics } from './diagnostics';

export type ReportOutcome =
  { state: 'sending' } | { state: 'reported'; id: string } | { state: 'failed'; reason: string };

export type SentReport = { key: number; kind: ClientErrorKind; message: string } & ReportOutcome;

const clientErrorsPath = '/rest/v1/client-errors';

/** At most this many reports a minute leave one tab, so an error loop cannot flood the server. */
const reportsPerMinute = 10;

const truncate = (text: string | undefined, max: number) =>
  text === undefined || text.length <= max ? text : text.slice(0, max);

/** Keeps a report within the schema's fields and the server's byte cap. */
export const shapeReport = (report: ClientErrorReport): ClientErrorReport => {
  const shaped: ClientErrorReport = {
    kind: report.kind,
    message: truncate(report.message.trim() || 'Unknown error', 2000)!,
  };
  const stack = truncate(report.stack, 8000);
  const url = truncate(report.url, 2000);
  if (stack) shaped.stack = stack;
  if (url) shaped.url = url;
  if (report.details) shaped.details = report.details;
  const encoder = new TextEncoder();
  if (encoder.encode(JSON.stringify(shaped)).length > clientErrorMaxBytes) {
    delete shaped.details;
    if (shaped.stack) shaped.stack = shaped.stack.slice(0, 4000);
  }
  return shaped;
};

const describe = (error: unknown): { message: string; stack?: string } => {
  if (error instanceof Error)
    return { message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  if (typeof error === 'string') return { message: error };
  try {
    return { message: JSON.stringify(error) ?? String(error) };
  } catch {
    return { message: String(error) };
  }
};

/**
 * Sends what went wrong in this tab to `POST /rest/v1/client-errors`: rendering errors (from
 * the crash boundary), uncaught errors and unhandled rejections (window events), and failed
 * requests a page chooses to report. Its own failures are never reported again.
 */
export class ErrorReporter {
  private sent: SentReport[] = [];
  private readonly listeners = new Set<() => void>();
  private nextKey = 1;
  private windowStart = 0;
  private countInWindow = 0;
  private enabled = false;

  snapshot = (): readonly SentReport[] => this.sent;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Starts listening to the window's uncaught errors; returns how to stop. */
  install(target: Window = window): () => void {
    this.enabled = true;
    const onError = (event: ErrorEvent) =>
      void this.report('async', event.error ?? event.message, { source: 'window.error' });
    const onRejection = (event: PromiseRejectionEvent) =>
      void this.report('async', event.reason, { source: 'unhandledrejection' });
    target.addEventListener('error', onError);
    target.addEventListener('unhandledrejection', onRejection);
    return () => {
      this.enabled = false;
      target.removeEventListener('error', onError);
      target.removeEventListener('unhandledrejection', onRejection);
    };
  }

  /** Reports one error; resolves what became of it. A no-op until installed. */
  async report(
    kind: ClientErrorKind,
    error: unknown,
    details?: Record<string, unknown>,
  ): Promise<ReportOutcome> {
    if (!this.enabled) return { state: 'failed', reason: 'reporting is off' };
    const { message, stack } = describe(error);
    diagnostics.record('error', `${kind}: ${message}`);
    const now = Date.now();
    if (now - this.windowStart >= 60_000) {
      this.windowStart = now;
      this.countInWindow = 0;
    }
    if (this.countInWindow >= reportsPerMinute)
      return { state: 'failed', reason: 'too many reports' };
    this.countInWindow += 1;
    const key = this.nextKey++;
    this.update({ key, kind, message, state: 'sending' });
    const body = shapeReport({
      kind,
      message,
      ...(stack ? { stack } : {}),
      url: window.location.href,
      ...(details ? { details } : {}),
    });
    let outcome: ReportOutcome;
    try {
      const response = await fetch(clientErrorsPath, {
        method: 'POST',
        credentials: 'include',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(body),
        keepalive: true,
      });
      if (response.ok) {
        const receipt = (await response.json()) as { id?: unknown };
        outcome = { state: 'reported', id: String(receipt.id ?? '') };
      } else {
        outcome = { state: 'failed', reason: `${response.status} ${response.statusText}`.trim() };
      }
    } catch (cause) {
      outcome = { state: 'failed', reason: describe(cause).message };
    }
    this.update({ key, kind, message, ...outcome });
    return outcome;
  }

  private update(report: SentReport): void {
    const others = this.sent.filter((item) => item.key !== report.key);
    this.sent = [...others, report].sort((a, b) => a.key - b.key).slice(-50);
    for (const listener of this.listeners) listener();
  }
}

export const errorReporter = new ErrorReporter();
