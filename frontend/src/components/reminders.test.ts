import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import RemindersView from './RemindersView.svelte';
import SettingsView from './SettingsView.svelte';
import { createApp } from '../lib/app.svelte';
import { createStatusStore } from '../lib/stores/status.svelte';
import { fakeApi, fakeBackgroundSettings } from '../test-fixtures';
import type { Job } from '../lib/api';
import { clock, timeOfDay } from '../lib/datetime';
import { setLocale } from '../lib/i18n.svelte';

const soon = () => new Date(Date.now() + 90_000).toISOString();
const jobs = (): Job[] =>
  [
    {
      id: 'a1',
      name: 'Stand-up',
      message: 'Remind me of the stand-up',
      schedule: { kind: 'cron', expr: '30 9 * * 1-5', tz: 'Europe/Berlin' },
      nextRun: soon(),
      lastRun: new Date(Date.now() - 86400_000).toISOString(),
      lastStatus: 'error',
      lastError: 'model not found',
      history: [
        { at: new Date(Date.now() - 2 * 86400_000).toISOString(), status: 'ok', durationMs: 2100 },
        { at: new Date(Date.now() - 86400_000).toISOString(), status: 'error', error: 'model not found' },
      ],
    },
    { id: 'b2', name: '', message: 'Water the plants', schedule: { kind: 'every', everySeconds: 7200 }, paused: true, nextRun: '0001-01-01T00:00:00Z' },
  ] as unknown as Job[];

function mount(over: Parameters<typeof fakeApi>[0] = {}) {
  const f = fakeApi({ listJobs: vi.fn(async () => jobs()), ...over });
  const app = createApp(f.api, createStatusStore(f.api.status));
  render(RemindersView, { props: { app } });
  return { ...f, app };
}

describe('RemindersView', () => {
  it('lists each job with its schedule in words, next run, last status and history', async () => {
    mount();
    const a = await screen.findByTestId('job-a1');
    expect(within(a).getByTestId('reminder-schedule').textContent).toBe('Weekdays at 09:30 (Europe/Berlin)');
    expect(within(a).getByTestId('reminder-next').textContent).toMatch(/in 2 minutes/);
    expect(within(a).getByTestId('reminder-last').textContent).toMatch(/Failed/);
    expect(within(a).getAllByRole('alert')[0].textContent).toBe('model not found');
    expect(within(a).getByText('History (2)')).toBeTruthy();
    const b = screen.getByTestId('job-b2');
    expect(within(b).getByText('Water the plants')).toBeTruthy();
    expect(within(b).getByTestId('reminder-schedule').textContent).toBe('Every 2 hours');
    expect(within(b).getByTestId('reminder-next').textContent?.trim()).toBe('Paused');
    expect(within(b).getByRole('button', { name: 'Resume' })).toBeTruthy();
  });

  it('shows a skipped missed run as skipped, with when it was due, and no error', async () => {
    const due = new Date(Date.now() - 3 * 3600_000);
    const at = new Date(Date.now() - 3600_000).toISOString();
    const skipped = {
      id: 'c3',
      name: 'Brief',
      message: 'brief me',
      schedule: { kind: 'every', everySeconds: 86400 },
      nextRun: soon(),
      lastRun: at,
      lastStatus: 'skipped',
      history: [{ at, status: 'skipped', due: due.toISOString() }],
    } as unknown as Job;
    mount({ listJobs: vi.fn(async () => [skipped]) });
    const c = await screen.findByTestId('job-c3');
    expect(within(c).getByTestId('reminder-last').textContent).toMatch(/Skipped/);
    expect(within(c).queryByRole('alert')).toBeNull();
    expect(within(c).getByText(/^was due /).textContent).toContain(
      timeOfDay(due, 'en'),
    );
  });

  it('says every date and time in the UI language with one clock (zh-CN)', async () => {
    setLocale('zh-CN');
    try {
      const inThreeDays = new Date(Date.now() + 3 * 86400_000);
      inThreeDays.setHours(18, 0, 0, 0);
      const once = {
        id: 'd4',
        name: '牙医',
        message: '去看牙医',
        schedule: { kind: 'at', at: inThreeDays.toISOString() },
        nextRun: inThreeDays.toISOString(),
      } as unknown as Job;
      mount({ listJobs: vi.fn(async () => [jobs()[0], once]) });
      const a = await screen.findByTestId('job-a1');
      // The cron's time of day, the next run and the history all use the same 24-hour clock.
      expect(within(a).getByTestId('reminder-schedule').textContent).toContain('09:30');
      expect(within(a).getByTestId('reminder-next').textContent).toMatch(/分钟后/);
      const d = screen.getByTestId('job-d4');
      const said = clock(inThreeDays, new Date(), 'zh-CN');
      expect(said).toMatch(/^\d+月\d+日周. 18:00$/);
      expect(within(d).getByTestId('reminder-schedule').textContent).toContain(said);
      expect(within(d).getByTestId('reminder-next').textContent).toContain(said);
      expect(d.textContent).not.toMatch(/AM|PM|Mon|Tue|Wed|Thu|Fri|Sat|Sun/);
    } finally {
      setLocale('en');
    }
  });

  it("the form's date field follows the UI language, not the system's", async () => {
    setLocale('zh-CN');
    try {
      mount({ listJobs: vi.fn(async () => []) });
      // Hearth's own field (WebKitGTK's datetime-local writes the system's form): year/month/day
      // then the 24-hour clock, each part named in Chinese.
      const g = (await screen.findByRole('group', { name: '日期和时间' })) as HTMLElement;
      expect(g.querySelector('input[type="datetime-local"]')).toBeNull();
      expect(within(g).getAllByRole('textbox').map((i) => i.getAttribute('aria-label'))).toEqual(['年', '月', '日', '时', '分', '秒']);
      expect(g.textContent).toBe('//::');
    } finally {
      setLocale('en');
    }
  });

  it('runs, pauses and deletes (after a confirmation)', async () => {
    const { mocks } = mount();
    const a = await screen.findByTestId('job-a1');
    await fireEvent.click(within(a).getByRole('button', { name: 'Run now' }));
    expect(mocks.runJobNow).toHaveBeenCalledWith('a1');
    await fireEvent.click(within(a).getByRole('button', { name: 'Pause' }));
    expect(mocks.pauseJob).toHaveBeenCalledWith('a1', true);
    await fireEvent.click(within(a).getByRole('button', { name: 'Delete' }));
    expect(mocks.removeJob).not.toHaveBeenCalled();
    expect(within(a).getByText('Delete “Stand-up”?')).toBeTruthy();
    await fireEvent.click(within(a).getByRole('button', { name: 'Delete' }));
    expect(mocks.removeJob).toHaveBeenCalledWith('a1');
  });

  it('opens with the form when there is no reminder and shows inline errors', async () => {
    const { mocks } = mount({ listJobs: vi.fn(async () => []) });
    await screen.findByText(/No reminders yet/);
    const form = screen.getByRole('form', { name: 'New reminder' });
    await fireEvent.click(within(form).getByRole('radio', { name: 'Every' }));
    await fireEvent.input(within(form).getByRole('spinbutton', { name: 'Interval' }), { target: { value: '5' } });
    await fireEvent.change(within(form).getByRole('combobox', { name: 'Unit' }), { target: { value: 'seconds' } });
    expect(within(form).getByText('At least every 10 seconds, a whole number.')).toBeTruthy();
    await fireEvent.click(within(form).getByRole('button', { name: 'Create' }));
    expect(mocks.addJob).not.toHaveBeenCalled();
    expect(within(form).getByText('Write what the reminder should do or say.')).toBeTruthy();
  });

  it('names the damaged entries of jobs.json that are kept but not run', async () => {
    mount({ jobProblems: vi.fn(async () => [{ index: 1, id: 'c3', error: 'schedule kind "weekly" is unknown (hint: at, every or cron)' }]) });
    const box = await screen.findByText(/1 damaged entries in jobs.json/);
    expect(box.parentElement?.textContent).toMatch(/c3 schedule kind "weekly" is unknown/);
  });

  it('shows a jobs.json that cannot be read, with its hint, and no form', async () => {
    mount({ listJobs: vi.fn(async () => Promise.reject('reminders: jobs.json is not valid JSON (hint: fix it by hand; it is kept as is)')) });
    expect((await screen.findByRole('alert')).textContent).toMatch(/jobs.json is not valid JSON/);
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('says when all reminders are paused and resumes them', async () => {
    const { mocks } = mount({ getBackgroundSettings: vi.fn(async () => fakeBackgroundSettings({ remindersPaused: true })) });
    const banner = await screen.findByTestId('reminders-paused');
    await fireEvent.click(within(banner).getByRole('button', { name: 'Resume all' }));
    expect(mocks.setRemindersPaused).toHaveBeenCalledWith(false);
  });
});

describe('Settings: in the background', () => {
  it('shows the heartbeat, missed runs, tray and login settings and saves a change at once', async () => {
    const f = fakeApi({ getBackgroundSettings: vi.fn(async () => fakeBackgroundSettings({ heartbeatMinutes: 45 })) });
    const app = createApp(f.api, createStatusStore(f.api.status));
    localStorage.setItem('hearth.settingsSection', 'background');
    render(SettingsView, { props: { app } });
    const section = await screen.findByTestId('background-settings');
    const interval = await within(section).findByRole('spinbutton', { name: 'Every (minutes)' });
    expect((interval as HTMLInputElement).value).toBe('45');
    await fireEvent.click(within(section).getByRole('checkbox', { name: /Start Hearth in the tray/ }));
    expect(f.mocks.setLaunchAtLogin).toHaveBeenCalledWith(true);
    await vi.waitFor(() => expect(screen.getByTestId('settings-status').textContent).toBe('Saved'));
    await fireEvent.change(within(section).getByRole('combobox'), { target: { value: 'skip' } });
    expect(f.mocks.setMissedRuns).toHaveBeenCalledWith('skip');
  });
});
