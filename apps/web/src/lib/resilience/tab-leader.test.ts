import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TabLeader } from './tab-leader';

/** A same-process stand-in for BroadcastChannel: delivers to every other open end. */
const createBus = () => {
  type End = { onmessage: ((event: MessageEvent) => void) | null; closed: boolean };
  const ends = new Set<End>();
  const open = () => {
    const end: End & { postMessage: (data: unknown) => void; close: () => void } = {
      onmessage: null,
      closed: false,
      postMessage(data: unknown) {
        for (const other of ends) {
          if (other !== end && !other.closed) {
            queueMicrotask(() => other.onmessage?.({ data } as MessageEvent));
          }
        }
      },
      close() {
        end.closed = true;
        ends.delete(end);
      },
    };
    ends.add(end);
    return end;
  };
  return { open };
};

describe('tab leadership', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it('a lone tab leads after 1 s without an answer', async () => {
    const bus = createBus();
    const tab = new TabLeader(bus.open, 'a');
    tab.start();
    expect(tab.getRole()).toBe('electing');
    await vi.advanceTimersByTimeAsync(999);
    expect(tab.getRole()).toBe('electing');
    await vi.advanceTimersByTimeAsync(1);
    expect(tab.getRole()).toBe('leader');
  });

  it('a new tab that hears the leader follows it, and only one leads', async () => {
    const bus = createBus();
    const first = new TabLeader(bus.open, 'a');
    first.start();
    await vi.advanceTimersByTimeAsync(1000);
    const second = new TabLeader(bus.open, 'b');
    second.start();
    await vi.advanceTimersByTimeAsync(10);
    expect(second.getRole()).toBe('follower');
    await vi.advanceTimersByTimeAsync(30_000);
    expect([first.getRole(), second.getRole()]).toEqual(['leader', 'follower']);
  });

  it('the leader announces itself every 2 s, so followers never ask again', async () => {
    const bus = createBus();
    const leader = new TabLeader(bus.open, 'a');
    leader.start();
    await vi.advanceTimersByTimeAsync(1000);
    const listen = bus.open();
    const heard: string[] = [];
    listen.onmessage = (event) => heard.push((event.data as { type: string }).type);
    await vi.advanceTimersByTimeAsync(6000);
    expect(heard).toEqual(['lead', 'lead', 'lead']);
  });

  it('a follower asks again after 5 s of silence and leads 1 s later', async () => {
    const bus = createBus();
    const leader = new TabLeader(bus.open, 'a');
    leader.start();
    await vi.advanceTimersByTimeAsync(1000);
    const follower = new TabLeader(bus.open, 'b');
    follower.start();
    await vi.advanceTimersByTimeAsync(10);
    // The leader's tab dies without a word: its channel just goes quiet.
    vi.spyOn(leader as unknown as { post: () => void }, 'post').mockImplementation(() => {});
    // Last heard at 1000 ms (the answer to its question): it asks at 6000 and leads at 7000.
    await vi.advanceTimersByTimeAsync(6999 - 1010);
    expect(follower.getRole()).toBe('follower');
    await vi.advanceTimersByTimeAsync(1);
    expect(follower.getRole()).toBe('leader');
  });

  it('a closing leader resigns and a follower takes over within a second', async () => {
    const bus = createBus();
    const leader = new TabLeader(bus.open, 'a');
    leader.start();
    await vi.advanceTimersByTimeAsync(1000);
    const follower = new TabLeader(bus.open, 'b');
    follower.start();
    await vi.advanceTimersByTimeAsync(10);
    leader.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(follower.getRole()).toBe('leader');
  });

  it('a leader steps down when another announces itself, leaving exactly one', async () => {
    const bus = createBus();
    // Two tabs that start together both claim after 1 s, then hear each other.
    const a = new TabLeader(bus.open, 'a');
    const b = new TabLeader(bus.open, 'b');
    a.start();
    b.start();
    await vi.advanceTimersByTimeAsync(1000);
    await vi.advanceTimersByTimeAsync(10);
    expect([a.getRole(), b.getRole()].sort()).toEqual(['follower', 'leader']);
    await vi.advanceTimersByTimeAsync(20_000);
    expect([a.getRole(), b.getRole()].sort()).toEqual(['follower', 'leader']);
  });

  it('a follower delays its work by 1 s; the leader does not', async () => {
    const bus = createBus();
    const leader = new TabLeader(bus.open, 'a');
    leader.start();
    await vi.advanceTimersByTimeAsync(1000);
    const follower = new TabLeader(bus.open, 'b');
    follower.start();
    await vi.advanceTimersByTimeAsync(10);
    let followerDone = false;
    let leaderDone = false;
    void follower.delayIfFollower().then(() => (followerDone = true));
    void leader.delayIfFollower().then(() => (leaderDone = true));
    await vi.advanceTimersByTimeAsync(999);
    expect([leaderDone, followerDone]).toEqual([true, false]);
    await vi.advanceTimersByTimeAsync(1);
    expect(followerDone).toBe(true);
  });

  it('leads alone where BroadcastChannel is missing', () => {
    const tab = new TabLeader(() => null, 'solo');
    tab.start();
    expect(tab.isLeader()).toBe(true);
  });
});
