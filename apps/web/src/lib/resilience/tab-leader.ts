import { tabLeadership } from '@chorus/shared/limits';
import { diagnostics } from './diagnostics';
import { sleep } from './sleep';

export type TabRole = 'electing' | 'leader' | 'follower';

type LeaderMessage = { type: 'ask' | 'lead' | 'resign'; from: string };

type ChannelLike = Pick<BroadcastChannel, 'postMessage' | 'close'> & {
  onmessage: ((event: MessageEvent<LeaderMessage>) => void) | null;
};

const newTabId = (): string =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

/**
 * Spec §4: one tab leads. A new tab asks and leads after 1 s without an answer; the leader
 * announces itself every 2 s and answers every question; followers ask again after 5 s of
 * silence; a leader that hears another announce itself steps down. When two leaders hear each
 * other at once, the one with the smaller id steps down, so exactly one remains.
 */
export class TabLeader {
  readonly id: string;
  private role: TabRole = 'electing';
  private channel: ChannelLike | null = null;
  private claimTimer: ReturnType<typeof setTimeout> | undefined;
  private silenceTimer: ReturnType<typeof setTimeout> | undefined;
  private heartbeat: ReturnType<typeof setInterval> | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly openChannel: () => ChannelLike | null = () =>
      typeof BroadcastChannel === 'undefined'
        ? null
        : (new BroadcastChannel('chorus-tab-leader') as ChannelLike),
    id: string = newTabId(),
  ) {
    this.id = id;
  }

  getRole = (): TabRole => this.role;

  isLeader = (): boolean => this.role === 'leader';

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  start(): void {
    if (this.channel) return;
    this.channel = this.openChannel();
    if (!this.channel) {
      // No other tab can be heard: this one leads alone.
      this.setRole('leader');
      return;
    }
    this.channel.onmessage = (event) => this.receive(event.data);
    this.ask();
  }

  /** Leaves the election; a leader tells the others so one of them takes over at once. */
  stop(): void {
    if (this.role === 'leader') this.post('resign');
    this.clearTimers();
    this.channel?.close();
    this.channel = null;
    this.setRole('electing');
  }

  /** Spec §4: tabs that do not lead start auth and data work 1 s later. */
  async delayIfFollower(): Promise<void> {
    if (this.role === 'follower') await sleep(tabLeadership.followerDelayMs);
  }

  private ask(): void {
    clearTimeout(this.claimTimer);
    clearTimeout(this.silenceTimer);
    this.post('ask');
    this.claimTimer = setTimeout(() => this.lead(), tabLeadership.claimAfterMs);
  }

  private lead(): void {
    this.clearTimers();
    this.setRole('leader');
    this.post('lead');
    this.heartbeat = setInterval(() => this.post('lead'), tabLeadership.heartbeatMs);
  }

  private follow(): void {
    if (this.role === 'leader') clearInterval(this.heartbeat);
    clearTimeout(this.claimTimer);
    clearTimeout(this.silenceTimer);
    this.setRole('follower');
    this.silenceTimer = setTimeout(() => this.ask(), tabLeadership.silenceMs);
  }

  private receive(message: LeaderMessage): void {
    if (!message || message.from === this.id) return;
    switch (message.type) {
      case 'ask':
        if (this.role === 'leader') this.post('lead');
        return;
      case 'lead':
        if (this.role !== 'leader' || message.from > this.id) this.follow();
        // The other leader hears this and steps down.
        else this.post('lead');
        return;
      case 'resign':
        if (this.role !== 'leader') this.ask();
        return;
    }
  }

  private post(type: LeaderMessage['type']): void {
    this.channel?.postMessage({ type, from: this.id } satisfies LeaderMessage);
  }

  private clearTimers(): void {
    clearTimeout(this.claimTimer);
    clearTimeout(this.silenceTimer);
    clearInterval(this.heartbeat);
  }

  private setRole(role: TabRole): void {
    if (role === this.role) return;
    this.role = role;
    diagnostics.record('tab', `this tab is now ${role}`);
    for (const listener of this.listeners) listener();
  }
}

export const tabLeader = new TabLeader();
