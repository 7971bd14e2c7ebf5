import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { InboxEntry, ReviewInboxChange } from '../../../shared/jobs/backgroundJobs';

/** Electron's Notification, recording what the app shows. */
const electronMock = vi.hoisted(() => {
  class FakeNotification {
    static supported = true;
    static readonly shown: FakeNotification[] = [];
    readonly listeners = new Map<string, () => void>();
    constructor(readonly options: { title: string; body: string }) {}
    static isSupported(): boolean {
      return FakeNotification.supported;
    }
    on(event: string, listener: () => void): this {
      this.listeners.set(event, listener);
      return this;
    }
    show(): void {
      FakeNotification.shown.push(this);
    }
  }
  return { FakeNotification };
});

vi.mock('electron', () => ({ Notification: electronMock.FakeNotification }));

const { notifyInboxArrivals } = await import('../../../electron/main/inboxNotifier');

function entry(overrides: Partial<InboxEntry> = {}): InboxEntry {
  return {
    jobId: '20260610T120000Z-dream-0123abcd',
    kind: 'dream',
    trigger: 'schedule',
    status: 'ready',
    target: { kind: 'project', configRoot: '/home/me/.claude', slug: '-home-me-shop' },
    label: '/home/me/shop',
    memoryDir: '/home/me/.claude/projects/-home-me-shop/memory',
    createdAt: '2026-06-10T12:00:00.000Z',
    finishedAt: '2026-06-10T12:01:00.000Z',
    summary: 'Merged two notes about the tests.\nAnd more.',
    files: [
      { path: 'feedback_tests.md', kind: 'modify', stale: false },
      { path: 'MEMORY.md', kind: 'modify', stale: false },
    ],
    ...overrides,
  };
}

class FakeInbox {
  readonly listeners = new Set<(change: ReviewInboxChange) => void>();
  onDidChange(listener: (change: ReviewInboxChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  emit(change: ReviewInboxChange): void {
    for (const listener of this.listeners) listener(change);
  }
}

describe('notifyInboxArrivals', () => {
  beforeEach(() => {
    electronMock.FakeNotification.shown.length = 0;
    electronMock.FakeNotification.supported = true;
  });

  it('shows a system notification when background proposals arrive, and shows the window when clicked', () => {
    const inbox = new FakeInbox();
    const showWindow = vi.fn();
    notifyInboxArrivals(inbox, showWindow);
    inbox.emit({ count: 1, arrived: entry() });
    inbox.emit({ count: 2, arrived: entry({ kind: 'extraction', trigger: 'auto-extraction', summary: null, files: [entry().files[0]] }) });
    expect(electronMock.FakeNotification.shown.map((n) => n.options)).toEqual([
      { title: 'A dream is ready for review', body: '/home/me/shop: 2 files to review. Merged two notes about the tests.' },
      { title: 'An extraction replay is ready for review', body: '/home/me/shop: 1 file to review.' },
    ]);
    electronMock.FakeNotification.shown[0].listeners.get('click')?.();
    expect(showWindow).toHaveBeenCalledTimes(1);
  });

  it('stays quiet for jobs the user started, for other inbox changes, where notifications are unsupported, and once unsubscribed', () => {
    const inbox = new FakeInbox();
    const stop = notifyInboxArrivals(inbox, vi.fn());
    inbox.emit({ count: 1, arrived: entry({ trigger: 'user' }) });
    inbox.emit({ count: 0, arrived: null });
    electronMock.FakeNotification.supported = false;
    inbox.emit({ count: 1, arrived: entry() });
    electronMock.FakeNotification.supported = true;
    stop();
    inbox.emit({ count: 1, arrived: entry() });
    expect(electronMock.FakeNotification.shown).toEqual([]);
  });
});
