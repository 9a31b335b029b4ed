import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import RemindersView from './RemindersView.svelte';
import Sidebar from './Sidebar.svelte';
import { createApp } from '../lib/app.svelte';
import { listenBackground } from '../lib/background';
import { locale, setLocale } from '../lib/i18n.svelte';
import { createStatusStore } from '../lib/stores/status.svelte';
import { fakeApi, fakeBackgroundSettings } from '../test-fixtures';
import type { Notice } from '../lib/api';
import { timeOfDay } from '../lib/datetime';

// Today 08:00 and 09:00 local: the window words them as times of day.
const today = (h: number) => {
  const d = new Date();
  d.setHours(h, 0, 0, 0);
  return d;
};
const hhmm = (h: number) => timeOfDay(today(h), locale());

const caughtUp = (): Notice =>
  ({
    id: 'n1',
    kind: 'missed',
    at: today(9).toISOString(),
    jobId: 'a1',
    title: 'Morning brief',
    sessionId: 'cron:a1',
    due: today(8).toISOString(),
    outcome: 'done',
    ranAt: today(9).toISOString(),
  }) as Notice;
const skipped = (): Notice =>
  ({ id: 'n2', kind: 'missed', at: today(9).toISOString(), jobId: 'b2', title: 'Water the plants', sessionId: 'cron:b2', due: today(7).toISOString(), outcome: 'skipped', ranAt: '0001-01-01T00:00:00Z' }) as Notice;
const damaged = 'reminders file /home/u/.local/share/hearth/cron/jobs.json is damaged: unexpected end of JSON input (hint: fix the JSON or move the file away)';

function setup(notices: Notice[], over: Parameters<typeof fakeApi>[0] = {}) {
  let list = notices;
  const f = fakeApi({
    backgroundNotices: vi.fn(async () => list),
    dismissNotice: vi.fn(async (id: string) => void (list = list.filter((n) => n.id !== id))),
    ...over,
  });
  const app = createApp(f.api, createStatusStore(f.api.status));
  const off = listenBackground(app);
  return { ...f, app, off, set: (l: Notice[]) => (list = l) };
}

describe('Reminders view: notices of reminders missed while Hearth was closed', () => {
  it('names each job, when it was due and what happened, and opens the chat of a caught-up run', async () => {
    const { app } = setup([caughtUp(), skipped()]);
    render(RemindersView, { props: { app } });
    const box = await screen.findByTestId('missed-notices');
    expect(within(box).getByRole('heading').textContent).toBe('Missed while Hearth was closed');
    const done = within(box).getByTestId('notice-n1');
    expect(done.textContent).toContain('Morning brief');
    expect(done.textContent).toContain(`was due ${hhmm(8)}`);
    expect(done.textContent).toContain(`Caught up at ${hhmm(9)}`);
    const skip = within(box).getByTestId('notice-n2');
    expect(skip.textContent).toContain('Water the plants');
    expect(skip.textContent).toContain(`was due ${hhmm(7)}`);
    expect(skip.textContent).toContain('Skipped');
    // Only a run that happened has a chat to open.
    expect(within(skip).queryByRole('button', { name: 'Open chat' })).toBeNull();
    await fireEvent.click(within(done).getByRole('button', { name: 'Open chat' }));
    expect(app.view).toBe('chat');
    expect(app.chat.sessionId).toBe('cron:a1');
  });

  it('keeps them until dismissed, one or all', async () => {
    const { app, mocks } = setup([caughtUp(), skipped()]);
    render(RemindersView, { props: { app } });
    const box = await screen.findByTestId('missed-notices');
    await fireEvent.click(within(within(box).getByTestId('notice-n2')).getByRole('button', { name: 'Dismiss' }));
    expect(mocks.dismissNotice).toHaveBeenCalledWith('n2');
    await vi.waitFor(() => expect(screen.queryByTestId('notice-n2')).toBeNull());
    expect(screen.getByTestId('notice-n1')).toBeTruthy();
    // With one left, no Dismiss all.
    expect(within(box).queryByRole('button', { name: 'Dismiss all' })).toBeNull();
    await fireEvent.click(within(box).getByRole('button', { name: 'Dismiss' }));
    await vi.waitFor(() => expect(screen.queryByTestId('missed-notices')).toBeNull());
    expect(mocks.dismissNotice).toHaveBeenCalledWith('n1');
  });

  it('Dismiss all dismisses every missed-run notice', async () => {
    const { app, mocks } = setup([caughtUp(), skipped()]);
    render(RemindersView, { props: { app } });
    await fireEvent.click(await screen.findByRole('button', { name: 'Dismiss all' }));
    await vi.waitFor(() => expect(screen.queryByTestId('missed-notices')).toBeNull());
    expect(mocks.dismissNotice.mock.calls.map((c) => c[0]).sort()).toEqual(['n1', 'n2']);
  });

  it('says a run still to come waits for Resume when reminders are paused, why a catch-up failed, and a deleted one', async () => {
    const running = { ...caughtUp(), id: 'n3', outcome: 'running', ranAt: '0001-01-01T00:00:00Z' } as Notice;
    const failed = { ...caughtUp(), id: 'n4', jobId: 'c3', title: 'Backup', outcome: 'failed', error: 'model not found' } as Notice;
    const gone = { ...caughtUp(), id: 'n5', jobId: 'd4', title: 'Old', outcome: 'removed', ranAt: '0001-01-01T00:00:00Z' } as Notice;
    const { app } = setup([running, failed, gone], {
      getBackgroundSettings: vi.fn(async () => fakeBackgroundSettings({ remindersPaused: true })),
    });
    render(RemindersView, { props: { app } });
    await screen.findByTestId('reminders-paused');
    expect(screen.getByTestId('notice-n3').textContent).toContain('Runs once you resume reminders');
    const f = screen.getByTestId('notice-n4');
    expect(f.textContent).toContain(`Caught up at ${hhmm(9)}, but it failed:`);
    expect(f.textContent).toContain('model not found');
    expect(within(f).getByRole('button', { name: 'Open chat' })).toBeTruthy();
    expect(screen.getByTestId('notice-n5').textContent).toContain('Not caught up: the reminder was deleted');
    expect(within(screen.getByTestId('notice-n5')).queryByRole('button', { name: 'Open chat' })).toBeNull();
  });

  it('tells a damaged jobs file once, with its hint, until dismissed', async () => {
    const { app } = setup([{ id: 'f1', kind: 'jobsFile', at: today(9).toISOString(), text: damaged } as Notice], {
      listJobs: vi.fn(async () => Promise.reject(damaged)),
    });
    render(RemindersView, { props: { app } });
    const n = await screen.findByTestId('notice-f1');
    expect(n.textContent).toContain('The reminders file could not be read');
    expect(n.textContent).toContain('hint: fix the JSON');
    await vi.waitFor(() => expect(app.reminders.error).toBe(damaged));
    expect(screen.getAllByText(/is damaged/)).toHaveLength(1);
    await fireEvent.click(within(n).getByRole('button', { name: 'Dismiss' }));
    // The file is still damaged: the view's own error says so from then on.
    await vi.waitFor(() => expect(screen.queryByTestId('notice-f1')).toBeNull());
    expect(screen.getAllByText(/is damaged/)).toHaveLength(1);
  });

  it('words the jobs-file notice in the UI language from its code', async () => {
    setLocale('zh-CN');
    try {
      const { app } = setup([
        {
          id: 'f2',
          kind: 'jobsFile',
          at: today(9).toISOString(),
          text: 'The reminders file /d/jobs.json is damaged: bad (hint: …)',
          code: 'schedule.jobsFile.damaged',
          args: { path: '/d/jobs.json', error: 'bad' },
        } as unknown as Notice,
      ]);
      render(RemindersView, { props: { app } });
      const n = await screen.findByTestId('notice-f2');
      expect(n.textContent).toContain('提醒文件 /d/jobs.json 已损坏：bad');
      expect(n.textContent).not.toContain('is damaged');
    } finally {
      setLocale('en');
    }
  });
});

describe('Reminders nav button: a quiet count of notices', () => {
  it('shows the count at start, follows live notices and dismissals', async () => {
    const { app, emitBackground, set } = setup([caughtUp()]);
    render(Sidebar, { props: { app } });
    const nav = screen.getByRole('navigation', { name: 'Views' });
    const badge = await within(nav).findByTestId('badge-reminders');
    expect(badge.textContent).toBe('1');
    expect(badge.title).toBe('1 waiting for you');
    expect(within(nav).getByRole('button', { name: 'Reminders (1 waiting for you)' })).toBeTruthy();
    // No other view has one.
    expect(within(nav).getAllByTestId(/^badge-/)).toHaveLength(1);

    // A notice arriving while the window is open shows without a reload.
    set([skipped(), caughtUp()]);
    emitBackground({ kind: 'notice', title: 'Hearth reminders', text: 'Skipped 1 reminder(s)…' });
    await vi.waitFor(() => expect(within(nav).getByTestId('badge-reminders').textContent).toBe('2'));

    await app.notices.dismiss('n1', 'n2');
    await vi.waitFor(() => expect(within(nav).queryByTestId('badge-reminders')).toBeNull());
  });
});
