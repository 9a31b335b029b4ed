import { describe, expect, it } from 'vitest';
import type { Job } from '../api';
import {
  applyPreset,
  cronShapeOK,
  formFromJob,
  describe as words,
  describeCron,
  emptyForm,
  fieldForError,
  goTime,
  localInput,
  relative,
  toSpec,
  validateForm,
  type ReminderForm,
} from './reminderForm';

const now = new Date(2026, 10, 23, 9, 0, 0);
const form = (over: Partial<ReminderForm> = {}): ReminderForm => ({ ...emptyForm(now), message: 'stretch', ...over });

describe('reminder form validation', () => {
  it('accepts a fresh form once it has a message: once, an hour from now', () => {
    const f = form();
    expect(f.kind).toBe('at');
    expect(f.at).toBe('2026-11-23T10:00:00');
    expect(validateForm(f, now)).toEqual({});
    expect(validateForm({ ...f, message: '  ' }, now)).toEqual({ message: { key: 'reminders.err.message' } });
  });

  it('wants a one-shot time that exists and lies ahead', () => {
    expect(validateForm(form({ at: '' }), now).at.key).toBe('reminders.err.at');
    expect(validateForm(form({ at: 'tomorrow' }), now).at.key).toBe('reminders.err.at');
    expect(validateForm(form({ at: localInput(now) }), now).at.key).toBe('reminders.err.past');
    expect(validateForm(form({ at: localInput(new Date(now.getTime() + 5000)) }), now)).toEqual({});
  });

  it('holds an interval to the backend minimum of 10 seconds, whole numbers only', () => {
    const every = (n: number, unit: ReminderForm['unit']) => validateForm(form({ kind: 'every', every: n, unit }), now).every;
    expect(every(5, 'seconds')).toEqual({ key: 'reminders.err.every', params: { min: 10 } });
    expect(every(10, 'seconds')).toBeUndefined();
    expect(every(1, 'minutes')).toBeUndefined();
    expect(every(1.5, 'hours')).toBeDefined();
    expect(every(0, 'days')).toBeDefined();
    // The one-shot time is not checked for other kinds.
    expect(validateForm(form({ kind: 'every', every: 2, unit: 'hours', at: '' }), now)).toEqual({});
  });

  it('checks a cron expression has five or six fields and its zone exists', () => {
    expect(cronShapeOK('0 9 * * 1-5')).toBe(true);
    expect(cronShapeOK('*/5 * * * * *')).toBe(true);
    expect(cronShapeOK('0 9 * *')).toBe(false);
    expect(cronShapeOK('at nine')).toBe(false);
    const c = (expr: string, tz: string) => validateForm(form({ kind: 'cron', expr, tz }), now);
    expect(c('0 9 * * 1-5', 'Europe/Berlin')).toEqual({});
    expect(c('0 9 * * 1-5', '')).toEqual({});
    expect(c('nine', 'Mars/Olympus')).toEqual({ expr: { key: 'reminders.err.expr' }, tz: { key: 'reminders.err.tz' } });
  });

  it('takes allowed tools as names separated by commas or spaces', () => {
    expect(validateForm(form({ tools: 'exec, mcp_github_search' }), now)).toEqual({});
    expect(validateForm(form({ tools: 'rm -rf /' }), now).tools.key).toBe('reminders.err.tools');
  });
});

describe('the JobSpec sent to AddJob', () => {
  it('carries only the chosen kind, in the backend units', () => {
    const at = toSpec(form({ name: ' Stretch ', at: '2026-11-23T10:30:00' }));
    expect(at).toEqual({ name: 'Stretch', message: 'stretch', schedule: { kind: 'at', at: new Date(2026, 10, 23, 10, 30).toISOString() } });
    expect(toSpec(form({ kind: 'every', every: 15, unit: 'minutes' })).schedule).toEqual({ kind: 'every', everySeconds: 900 });
    expect(toSpec(form({ kind: 'cron', expr: ' 0 9 * * 1-5 ', tz: 'Asia/Shanghai' })).schedule).toEqual({
      kind: 'cron',
      expr: '0 9 * * 1-5',
      tz: 'Asia/Shanghai',
    });
    expect(toSpec(form({ kind: 'cron', expr: '0 9 * * *', tz: ' ' })).schedule).toEqual({ kind: 'cron', expr: '0 9 * * *' });
    expect(toSpec(form({ tools: 'exec,  mcp_x' })).allowTools).toEqual(['exec', 'mcp_x']);
    expect(toSpec(form()).allowTools).toBeUndefined();
  });
});

describe("the backend's errors", () => {
  it('land on the field they are about, without the "add reminder:" prefix', () => {
    const cases: [string, string][] = [
      ['add reminder: a reminder needs a message (hint: what the agent should do or say when it is due)', 'message'],
      ['add reminder: 2026-11-23T08:00:00Z is already past (hint: give a future time; now is 2026-11-23T09:00:00Z)', 'at'],
      ['add reminder: an at schedule needs a time (hint: ISO 8601, e.g. 2026-11-24T09:00)', 'at'],
      ['add reminder: every 5 seconds is too often (hint: at least 10 seconds)', 'every'],
      ['add reminder: cron expression "x" is not valid (hint: five fields, minute hour day month weekday, e.g. "0 9 * * 1-5")', 'expr'],
      ['add reminder: time zone "Mars/Olympus" is unknown (hint: an IANA name such as Europe/Berlin or America/New_York)', 'tz'],
      ['reminders: no data directory: permission denied', '_form'],
    ];
    for (const [msg, field] of cases) {
      const got = fieldForError(msg);
      expect(got.field, msg).toBe(field);
      expect(got.text.startsWith('add reminder')).toBe(false);
    }
  });
});

describe('schedules in words', () => {
  const fmt = () => 'Mon 23 Nov 10:00';
  it('words every kind', () => {
    expect(words({ kind: 'at', at: '2026-11-23T10:00:00Z' }, fmt)).toEqual([{ key: 'reminders.sched.at', params: { time: 'Mon 23 Nov 10:00' } }]);
    expect(words({ kind: 'every', everySeconds: 3600 }, fmt)).toEqual([{ key: 'reminders.sched.every.hours.one', params: { n: 1 } }]);
    expect(words({ kind: 'every', everySeconds: 5400 }, fmt)).toEqual([{ key: 'reminders.sched.every.minutes', params: { n: 90 } }]);
    expect(words({ kind: 'every', everySeconds: 172800 }, fmt)).toEqual([{ key: 'reminders.sched.every.days', params: { n: 2 } }]);
    expect(words({ kind: 'every', everySeconds: 45 }, fmt)).toEqual([{ key: 'reminders.sched.every.seconds', params: { n: 45 } }]);
    expect(words({ kind: 'cron', expr: '30 7 * * 1-5', tz: 'Europe/Berlin' }, fmt)).toEqual([
      { key: 'reminders.sched.cron.weekdays', params: { time: '07:30' } },
      { key: 'reminders.sched.tz', params: { tz: 'Europe/Berlin' } },
    ]);
  });

  it('words the common cron shapes and shows the rest as they are', () => {
    expect(describeCron('0 9 * * *')).toEqual({ key: 'reminders.sched.cron.daily', params: { time: '09:00' } });
    expect(describeCron('0 18 * * 0,6').key).toBe('reminders.sched.cron.weekends');
    expect(describeCron('15 8 * * 3').key).toBe('reminders.sched.cron.wed');
    expect(describeCron('5 * * * *')).toEqual({ key: 'reminders.sched.cron.hourly', params: { m: '5' } });
    expect(describeCron('* * * * *').key).toBe('reminders.sched.cron.minutely');
    expect(describeCron('0 9 1 * *')).toEqual({ key: 'reminders.sched.cron.expr', params: { expr: '0 9 1 * *' } });
  });

  it("reads Go's zero time as none", () => {
    expect(goTime('0001-01-01T00:00:00Z')).toBeNull();
    expect(goTime(undefined)).toBeNull();
    expect(goTime('2026-11-23T10:00:00Z')?.toISOString()).toBe('2026-11-23T10:00:00.000Z');
  });

  it('says how far away a time is', () => {
    expect(relative(new Date(now.getTime() + 40_000), now, 'en')).toBe('in 40 seconds');
    expect(relative(new Date(now.getTime() + 3 * 3600_000), now, 'en')).toBe('in 3 hours');
    expect(relative(new Date(now.getTime() - 120_000), now, 'en')).toBe('2 minutes ago');
  });
});

describe('edit and presets', () => {
  it('fills the form from a job, each schedule kind', () => {
    const at = new Date(2026, 10, 25, 18, 30, 0);
    const once = formFromJob({ id: 'a', name: 'Tea', message: 'kettle', schedule: { kind: 'at', at: at.toISOString() }, allowTools: ['exec'] } as unknown as Job);
    expect(once).toMatchObject({ name: 'Tea', message: 'kettle', kind: 'at', at: '2026-11-25T18:30:00', tools: 'exec' });
    const every = formFromJob({ id: 'b', name: '', message: 'x', schedule: { kind: 'every', everySeconds: 7200 } } as unknown as Job);
    expect(every).toMatchObject({ kind: 'every', every: 2, unit: 'hours' });
    const cron = formFromJob({ id: 'c', name: '', message: 'x', schedule: { kind: 'cron', expr: '0 9 * * *', tz: 'Asia/Shanghai' } } as unknown as Job);
    expect(cron).toMatchObject({ kind: 'cron', expr: '0 9 * * *', tz: 'Asia/Shanghai' });
  });

  it('presets set the schedule from now and leave the words alone', () => {
    const now = new Date(2026, 10, 25, 22, 55, 30);
    const f = { ...emptyForm(now), name: 'Tea', message: 'kettle' };
    applyPreset(f, 'in10m', now);
    expect(f).toMatchObject({ kind: 'at', at: '2026-11-25T23:05:00', name: 'Tea', message: 'kettle' });
    applyPreset(f, 'tomorrow9', now);
    expect(f.at).toBe('2026-11-26T09:00:00');
    applyPreset(f, 'weekdays830', now);
    expect(f).toMatchObject({ kind: 'cron', expr: '30 8 * * 1-5' });
    applyPreset(f, 'daily9', now);
    expect(f.expr).toBe('0 9 * * *');
  });
});
