import { describe, expect, it, vi } from 'vitest';
import { createApp } from './app.svelte';
import { listenBackground } from './background';
import { createStatusStore } from './stores/status.svelte';
import { fakeApi } from '../test-fixtures';

function setup() {
  const f = fakeApi();
  const app = createApp(f.api, createStatusStore(f.api.status));
  const off = listenBackground(app);
  return { ...f, app, off };
}

describe('background events in the window', () => {
  it('refreshes the Reminders view on "jobs" once it has been opened', async () => {
    const { app, mocks, emitBackground } = setup();
    emitBackground({ kind: 'jobs' });
    expect(mocks.listJobs).not.toHaveBeenCalled();
    await app.reminders.refresh();
    emitBackground({ kind: 'jobs' });
    await vi.waitFor(() => expect(mocks.listJobs).toHaveBeenCalledTimes(2));
    expect(mocks.listSessions).not.toHaveBeenCalled();
  });

  it('reads the jobs again when they change during the view\'s first read', async () => {
    const { app, mocks, emitBackground } = setup();
    let answer: (v: []) => void = () => {};
    mocks.listJobs.mockImplementationOnce(() => new Promise((r) => (answer = r)));
    const first = app.reminders.refresh();
    await vi.waitFor(() => expect(mocks.listJobs).toHaveBeenCalledTimes(1));
    // A skip is recorded while that read is on its way: its answer may be older.
    emitBackground({ kind: 'jobs' });
    answer([]);
    await first;
    expect(mocks.listJobs).toHaveBeenCalledTimes(2);
  });

  it('lists the chat a reminder reached and reloads it when it is open', async () => {
    const { app, mocks, emitBackground } = setup();
    await app.chat.open('cron:a1');
    mocks.loadSession.mockClear();
    emitBackground({ kind: 'reminder', title: 'stretch', text: 'Time to stretch', sessionId: 'cron:a1' });
    await vi.waitFor(() => expect(mocks.loadSession).toHaveBeenCalledWith('cron:a1'));
    expect(mocks.listSessions).toHaveBeenCalled();
    // Another chat's news only refreshes the list.
    mocks.loadSession.mockClear();
    for (const kind of ['message', 'heartbeat', 'subagent'] as const) emitBackground({ kind, sessionId: 'other' });
    await vi.waitFor(() => expect(mocks.listSessions).toHaveBeenCalledTimes(4));
    expect(mocks.loadSession).not.toHaveBeenCalled();
    // A notice reaches no chat.
    emitBackground({ kind: 'notice', text: '2 missed reminders were run' });
    expect(mocks.listSessions).toHaveBeenCalledTimes(4);
  });

  it('leaves an open chat alone while its own reply streams', async () => {
    const { app, mocks, emitBackground } = setup();
    await app.chat.open('s1');
    await app.chat.send('hello');
    mocks.loadSession.mockClear();
    emitBackground({ kind: 'message', sessionId: 's1' });
    await vi.waitFor(() => expect(mocks.listSessions).toHaveBeenCalled());
    expect(mocks.loadSession).not.toHaveBeenCalled();
  });

  it('opens the chat of a clicked notification and starts a new one from the tray', async () => {
    const { app, mocks, emitOpenSession, emitNewSession, off } = setup();
    app.go('reminders');
    emitOpenSession('cron:a1');
    expect(app.view).toBe('chat');
    await vi.waitFor(() => expect(mocks.loadSession).toHaveBeenCalledWith('cron:a1'));
    expect(app.chat.sessionId).toBe('cron:a1');
    app.go('settings');
    emitNewSession();
    expect(app.view).toBe('chat');
    expect(app.chat.sessionId).toBe('');
    off();
    emitOpenSession('cron:b2');
    expect(app.chat.sessionId).toBe('');
  });

  it('makes the move a click before the page listened asked for, once it listens', async () => {
    const f = fakeApi();
    f.mocks.takeNavigation.mockResolvedValueOnce({ kind: 'openChat', sessionId: 'cron:a1' } as never);
    const app = createApp(f.api, createStatusStore(f.api.status));
    app.go('reminders');
    const off = listenBackground(app);
    await vi.waitFor(() => expect(f.mocks.loadSession).toHaveBeenCalledWith('cron:a1'));
    expect(app.view).toBe('chat');
    expect(app.chat.sessionId).toBe('cron:a1');
    expect(f.mocks.takeNavigation).toHaveBeenCalledTimes(1);
    off();

    const g = fakeApi();
    g.mocks.takeNavigation.mockResolvedValueOnce({ kind: 'newChat' } as never);
    const other = createApp(g.api, createStatusStore(g.api.status));
    other.go('settings');
    listenBackground(other);
    await vi.waitFor(() => expect(other.view).toBe('chat'));
    expect(other.chat.sessionId).toBe('');
  });

  it('takes nothing more than it was asked, and forgets a move it followed from its event', async () => {
    const { app, mocks, emitOpenSession, emitNewSession } = setup();
    await vi.waitFor(() => expect(mocks.takeNavigation).toHaveBeenCalledTimes(1));
    expect(app.view).toBe('chat');
    expect(mocks.loadSession).not.toHaveBeenCalled();
    emitOpenSession('cron:b2');
    expect(mocks.takeNavigation).toHaveBeenCalledTimes(2);
    emitNewSession();
    expect(mocks.takeNavigation).toHaveBeenCalledTimes(3);
  });
});
