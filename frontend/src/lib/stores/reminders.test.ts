import { describe, expect, it, vi } from 'vitest';
import { createRemindersStore, jobSession } from './reminders.svelte';
import { localInput } from './reminderForm';
import { fakeApi, fakeBackgroundSettings } from '../../test-fixtures';
import type { Job } from '../api';

const now = new Date(2026, 10, 23, 9, 0, 0);
const job = (over: Partial<Job> = {}) =>
  ({ id: 'a1', name: 'stretch', message: 'remind me to stretch', schedule: { kind: 'every', everySeconds: 3600 }, ...over }) as Job;

function setup(over: Parameters<typeof fakeApi>[0] = {}) {
  const f = fakeApi(over);
  return { ...f, store: createRemindersStore(f.api, () => now) };
}

describe('reminders store', () => {
  it('reads the jobs, damaged entries and the global pause', async () => {
    const { store, mocks } = setup({
      listJobs: vi.fn(async () => [job(), job({ id: 'b2' })]),
      jobProblems: vi.fn(async () => [{ index: 2, error: 'bad kind' }]),
      getBackgroundSettings: vi.fn(async () => fakeBackgroundSettings({ remindersPaused: true })),
    });
    expect(store.loaded).toBe(false);
    await store.refresh();
    expect(store.list.map((j) => j.id)).toEqual(['a1', 'b2']);
    expect(store.problems).toEqual([{ index: 2, error: 'bad kind' }]);
    expect(store.paused).toBe(true);
    expect(store.loaded).toBe(true);
    expect(mocks.listJobs).toHaveBeenCalledTimes(1);
  });

  it('shows a damaged jobs.json as an error and keeps nothing stale', async () => {
    const { store } = setup({ listJobs: vi.fn(async () => Promise.reject('jobs.json is damaged (hint: fix or move it)')) });
    await store.refresh();
    expect(store.error).toBe('jobs.json is damaged (hint: fix or move it)');
    expect(store.list).toEqual([]);
  });

  it('folds a burst of refreshes into one more read', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const listJobs = vi.fn(async () => {
      await gate;
      return [job()];
    });
    const { store } = setup({ listJobs });
    const first = store.refresh();
    void store.refresh();
    void store.refresh();
    const last = store.refresh();
    release();
    await Promise.all([first, last]);
    expect(listJobs).toHaveBeenCalledTimes(2);
    expect(store.loading).toBe(false);
  });

  it('does not send a form the client finds wrong, and then shows every problem', async () => {
    const { store, mocks } = setup();
    expect(store.errors).toEqual({}); // nothing edited yet: no red on a fresh form
    expect(store.valid).toBe(false); // …but it cannot be sent without a message
    expect(await store.add()).toBe(false);
    expect(mocks.addJob).not.toHaveBeenCalled();
    expect(store.errors.message).toEqual({ key: 'reminders.err.message' });
  });

  it('shows a problem on an edited field at once', () => {
    const { store } = setup();
    store.form.kind = 'every';
    store.form.every = 5;
    store.form.unit = 'seconds';
    expect(store.errors.every?.key).toBe('reminders.err.every');
    expect(store.errors.message).toBeUndefined();
  });

  it('sends the spec, resets the form and reads the list again', async () => {
    const { store, mocks } = setup();
    store.form.name = 'Stretch';
    store.form.message = 'remind me to stretch';
    store.form.at = localInput(new Date(now.getTime() + 30_000));
    expect(await store.add()).toBe(true);
    expect(mocks.addJob).toHaveBeenCalledWith({
      name: 'Stretch',
      message: 'remind me to stretch',
      schedule: { kind: 'at', at: new Date(now.getTime() + 30_000).toISOString() },
    });
    expect(store.form.message).toBe('');
    expect(mocks.listJobs).toHaveBeenCalled();
  });

  it("puts the backend's error on its field until that form changes", async () => {
    const { store } = setup({
      addJob: vi.fn(async () =>
        Promise.reject('add reminder: time zone "Mars/Base" is unknown (hint: an IANA name such as Europe/Berlin or America/New_York)'),
      ),
    });
    store.form.message = 'water the plants';
    store.form.kind = 'cron';
    store.form.expr = '0 9 * * *';
    store.form.tz = 'UTC';
    expect(await store.add()).toBe(false);
    expect(store.errors.tz?.text).toMatch(/^time zone "Mars\/Base" is unknown \(hint:/);
    expect(store.form.message).toBe('water the plants'); // nothing lost
    store.form.tz = 'Europe/Berlin';
    expect(store.errors.tz).toBeUndefined();
  });

  it('marks a job running while Run now waits for its turn, then reads the list', async () => {
    let finish!: () => void;
    const runJobNow = vi.fn(() => new Promise<void>((r) => (finish = r)));
    const { store, mocks } = setup({ runJobNow });
    const run = store.runNow('a1');
    expect(store.isRunning('a1')).toBe(true);
    void store.runNow('a1'); // a second click does not run it twice
    expect(runJobNow).toHaveBeenCalledTimes(1);
    finish();
    await run;
    expect(store.isRunning('a1')).toBe(false);
    expect(mocks.listJobs).toHaveBeenCalled();
  });

  it("keeps a failed action's reason beside its job", async () => {
    const { store } = setup({ removeJob: vi.fn(async () => Promise.reject('reminder "a1" not found (hint: `hearth cron list` shows the ids)')) });
    await store.remove('a1');
    expect(store.jobErrors.a1).toMatch(/not found/);
    const ok = setup();
    await ok.store.pause('a1', true);
    expect(ok.mocks.pauseJob).toHaveBeenCalledWith('a1', true);
    expect(ok.store.jobErrors.a1).toBeUndefined();
  });

  it('pauses and resumes all reminders', async () => {
    const { store, mocks } = setup({
      getBackgroundSettings: vi.fn(async () => fakeBackgroundSettings({ remindersPaused: true })),
    });
    await store.setPaused(true);
    expect(mocks.setRemindersPaused).toHaveBeenCalledWith(true);
    expect(store.paused).toBe(true);
  });

  it("knows a job's chat", () => {
    expect(jobSession(job())).toBe('cron:a1');
    expect(jobSession(job({ sessionId: 'desktop:42' }))).toBe('desktop:42');
  });
});
