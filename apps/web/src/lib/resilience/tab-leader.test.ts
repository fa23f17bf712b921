import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBroadcastBus } from '@/test/broadcast-bus';
import { TabLeader } from './tab-leader';

/** A tab that leads (after its 1 s claim), then a second tab that has heard it and follows. */
const leaderAndFollower = async (open: ReturnType<typeof createBroadcastBus>) => {
  const leader = new TabLeader(open, 'a');
  leader.start();
  await vi.advanceTimersByTimeAsync(1000);
  const follower = new TabLeader(open, 'b');
  follower.start();
  await vi.advanceTimersByTimeAsync(10);
  return { leader, follower };
};

describe('tab leadership', () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  it('a lone tab leads after 1 s without an answer', async () => {
    const open = createBroadcastBus();
    const tab = new TabLeader(open, 'a');
    tab.start();
    expect(tab.getRole()).toBe('electing');
    await vi.advanceTimersByTimeAsync(999);
    expect(tab.getRole()).toBe('electing');
    await vi.advanceTimersByTimeAsync(1);
    expect(tab.getRole()).toBe('leader');
  });

  it('a new tab that hears the leader follows it, and only one leads', async () => {
    const { leader, follower } = await leaderAndFollower(createBroadcastBus());
    expect(follower.getRole()).toBe('follower');
    await vi.advanceTimersByTimeAsync(30_000);
    expect([leader.getRole(), follower.getRole()]).toEqual(['leader', 'follower']);
  });

  it('the leader announces itself every 2 s, so followers never ask again', async () => {
    const open = createBroadcastBus();
    const leader = new TabLeader(open, 'a');
    leader.start();
    await vi.advanceTimersByTimeAsync(1000);
    const listen = open();
    const heard: string[] = [];
    listen.onmessage = (event) => heard.push((event.data as { type: string }).type);
    await vi.advanceTimersByTimeAsync(6000);
    expect(heard).toEqual(['lead', 'lead', 'lead']);
  });

  it('a follower asks again after 5 s of silence and leads 1 s later', async () => {
    // The leader's tab dies without a word: what it posts from then on reaches nobody.
    const bus = createBroadcastBus();
    let leaderGone = false;
    let opened = 0;
    const open = () => {
      const end = bus();
      if ((opened += 1) === 1) {
        const post = end.postMessage;
        end.postMessage = (data) => (leaderGone ? undefined : post(data));
      }
      return end;
    };
    const { follower } = await leaderAndFollower(open);
    leaderGone = true;
    // Last heard at 1000 ms (the answer to its question): it asks at 6000 and leads at 7000.
    await vi.advanceTimersByTimeAsync(6999 - 1010);
    expect(follower.getRole()).toBe('follower');
    await vi.advanceTimersByTimeAsync(1);
    expect(follower.getRole()).toBe('leader');
  });

  it('a closing leader resigns and a follower takes over within a second', async () => {
    const { leader, follower } = await leaderAndFollower(createBroadcastBus());
    leader.stop();
    await vi.advanceTimersByTimeAsync(1000);
    expect(follower.getRole()).toBe('leader');
  });

  it('a leader steps down when another announces itself, leaving exactly one', async () => {
    const open = createBroadcastBus();
    // Two tabs that start together both claim after 1 s, then hear each other.
    const a = new TabLeader(open, 'a');
    const b = new TabLeader(open, 'b');
    a.start();
    b.start();
    await vi.advanceTimersByTimeAsync(1000);
    await vi.advanceTimersByTimeAsync(10);
    expect([a.getRole(), b.getRole()].sort()).toEqual(['follower', 'leader']);
    await vi.advanceTimersByTimeAsync(20_000);
    expect([a.getRole(), b.getRole()].sort()).toEqual(['follower', 'leader']);
  });

  it('a follower delays its work by 1 s; the leader does not', async () => {
    const { leader, follower } = await leaderAndFollower(createBroadcastBus());
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
