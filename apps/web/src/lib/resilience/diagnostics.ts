import { diagnosticsBufferSize } from '@chorus/shared/limits';

export type DiagnosticKind = 'request' | 'error' | 'auth' | 'rate-limit' | 'tab';

export type DiagnosticEntry = {
  id: number;
  at: number;
  kind: DiagnosticKind;
  message: string;
};

type Listener = () => void;

/** The last `capacity` things that happened in this tab (spec §9: 300), oldest first. */
export class DiagnosticsBuffer {
  private entries: DiagnosticEntry[] = [];
  private nextId = 1;
  private readonly listeners = new Set<Listener>();

  constructor(readonly capacity = diagnosticsBufferSize) {}

  record(kind: DiagnosticKind, message: string): void {
    const entry = { id: this.nextId++, at: Date.now(), kind, message };
    const kept = this.entries.length >= this.capacity ? this.entries.slice(1) : this.entries;
    this.entries = [...kept, entry];
    for (const listener of this.listeners) listener();
  }

  /** A new array after every change, so React can compare snapshots by identity. */
  snapshot = (): readonly DiagnosticEntry[] => this.entries;

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  clear(): void {
    this.entries = [];
    for (const listener of this.listeners) listener();
  }
}

export const diagnostics = new DiagnosticsBuffer();
