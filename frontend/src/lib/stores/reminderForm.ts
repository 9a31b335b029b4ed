// The Reminders view's create form: its fields, the checks made as it is edited (they
// mirror schedule.JobSpec.Validate and Store.Add), the JobSpec sent to AddJob, and where
// the backend's own errors land. Plus the schedule in words and the time wording.
import type { Job, JobSpec } from '../api';
import type { Errors } from './settings.svelte';

export type Kind = 'at' | 'every' | 'cron';
export type Unit = 'seconds' | 'minutes' | 'hours' | 'days';

export interface ReminderForm {
  name: string;
  message: string;
  kind: Kind;
  /** A datetime-local value: YYYY-MM-DDTHH:mm[:ss], in the window's zone. */
  at: string;
  every: number;
  unit: Unit;
  expr: string;
  /** IANA zone the cron expression is read in; '' is the computer's zone. */
  tz: string;
  /** Tools needing approval this job may use unattended, comma or space separated. */
  tools: string;
  /** If missed while Hearth is closed: '' (the setting), 'ask', 'catchup' or 'skip'. */
  missed: '' | 'ask' | 'catchup' | 'skip';
  /** Where it notifies: '' (the channels' default), 'desktop', 'telegram' or 'both'. */
  notify: '' | 'desktop' | 'telegram' | 'both';
}

/** schedule.MinEvery */
export const MIN_EVERY_SECONDS = 10;

const unitSeconds: Record<Unit, number> = { seconds: 1, minutes: 60, hours: 3600, days: 86400 };

/** The computer's IANA zone, as the browser knows it. */
export function localZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone ?? '';
  } catch {
    return '';
  }
}

/** A datetime-local value for d (seconds included), in the window's zone. */
export function localInput(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** An empty form: once, an hour from now (rounded to the minute). */
export function emptyForm(now = new Date()): ReminderForm {
  const at = new Date(now.getTime() + 3600_000);
  at.setSeconds(0, 0);
  return { name: '', message: '', kind: 'at', at: localInput(at), every: 1, unit: 'hours', expr: '0 9 * * 1-5', tz: localZone(), tools: '', missed: '', notify: '' };
}

/** The form filled from a job, for Edit. */
export function formFromJob(j: Job, now = new Date()): ReminderForm {
  const f = emptyForm(now);
  f.name = j.name ?? '';
  f.message = j.message ?? '';
  f.kind = (j.schedule?.kind as Kind) ?? 'at';
  f.tools = (j.allowTools ?? []).join(', ');
  f.missed = ((j as { missedRuns?: string }).missedRuns ?? '') as ReminderForm['missed'];
  f.notify = (j.notifyIn ?? '') as ReminderForm['notify'];
  if (f.kind === 'at' && j.schedule.at) {
    const at = new Date(j.schedule.at as unknown as string);
    if (!Number.isNaN(at.getTime())) f.at = localInput(at);
  } else if (f.kind === 'every') {
    const secs = Number(j.schedule.everySeconds ?? 0);
    const unit = (['days', 'hours', 'minutes', 'seconds'] as Unit[]).find((u) => secs % unitSeconds[u] === 0) ?? 'seconds';
    f.unit = unit;
    f.every = secs / unitSeconds[unit];
  } else if (f.kind === 'cron') {
    f.expr = j.schedule.expr ?? '';
    f.tz = j.schedule.tz ?? '';
  }
  return f;
}

/** The form's natural presets, beside its exact fields. */
export type Preset = 'in10m' | 'tomorrow9' | 'weekdays830' | 'daily9';
export const presets: Preset[] = ['in10m', 'tomorrow9', 'weekdays830', 'daily9'];

/** Applies a preset to the form's schedule (name and message stay). */
export function applyPreset(f: ReminderForm, p: Preset, now = new Date()): void {
  switch (p) {
    case 'in10m': {
      const at = new Date(now.getTime() + 10 * 60_000);
      at.setSeconds(0, 0);
      f.kind = 'at';
      f.at = localInput(at);
      break;
    }
    case 'tomorrow9': {
      const at = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 9, 0, 0);
      f.kind = 'at';
      f.at = localInput(at);
      break;
    }
    case 'weekdays830':
      f.kind = 'cron';
      f.expr = '30 8 * * 1-5';
      f.tz = localZone();
      break;
    case 'daily9':
      f.kind = 'cron';
      f.expr = '0 9 * * *';
      f.tz = localZone();
      break;
  }
}

export function isValidZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** A cron expression's shape: five fields (or six, with seconds) of cron characters. */
export function cronShapeOK(expr: string): boolean {
  const f = expr.trim().split(/\s+/);
  return (f.length === 5 || f.length === 6) && f.every((x) => /^[\d*,/\-?LW#A-Za-z]+$/.test(x));
}

export function toolList(tools: string): string[] {
  return tools
    .split(/[\s,]+/)
    .map((x) => x.trim())
    .filter(Boolean);
}

/** Client-side checks; the keys are the form's fields, the values i18n keys. */
export function validateForm(f: ReminderForm, now = new Date()): Errors {
  const e: Errors = {};
  if (!f.message.trim()) e.message = { key: 'reminders.err.message' };
  if (f.kind === 'at') {
    const at = new Date(f.at);
    if (!f.at || Number.isNaN(at.getTime())) e.at = { key: 'reminders.err.at' };
    else if (at.getTime() <= now.getTime()) e.at = { key: 'reminders.err.past' };
  } else if (f.kind === 'every') {
    const secs = Number(f.every) * unitSeconds[f.unit];
    if (!Number.isInteger(Number(f.every)) || !(secs >= MIN_EVERY_SECONDS))
      e.every = { key: 'reminders.err.every', params: { min: MIN_EVERY_SECONDS } };
  } else {
    if (!cronShapeOK(f.expr)) e.expr = { key: 'reminders.err.expr' };
    if (f.tz.trim() && !isValidZone(f.tz.trim())) e.tz = { key: 'reminders.err.tz' };
  }
  if (toolList(f.tools).some((x) => !/^[\w.:-]+$/.test(x))) e.tools = { key: 'reminders.err.tools' };
  return e;
}

/** The JobSpec AddJob receives (only the chosen kind's fields). */
export function toSpec(f: ReminderForm): JobSpec {
  const schedule: JobSpec['schedule'] = { kind: f.kind } as JobSpec['schedule'];
  if (f.kind === 'at') schedule.at = new Date(f.at).toISOString();
  else if (f.kind === 'every') schedule.everySeconds = Number(f.every) * unitSeconds[f.unit];
  else {
    schedule.expr = f.expr.trim();
    if (f.tz.trim()) schedule.tz = f.tz.trim();
  }
  const spec = { name: f.name.trim(), message: f.message.trim(), schedule } as JobSpec;
  const tools = toolList(f.tools);
  if (tools.length) spec.allowTools = tools;
  if (f.missed) spec.missedRuns = f.missed;
  if (f.notify) spec.notifyIn = f.notify;
  return spec;
}

/**
 * Which field a backend error belongs to (schedule.JobSpec.Validate, Store.Add). The text is
 * kept as the backend wrote it, less the "add reminder: " prefix.
 */
export function fieldForError(message: string): { field: string; text: string } {
  const text = message.replace(/^add reminder:\s*/, '');
  const rules: [RegExp, string][] = [
    [/needs a message/, 'message'],
    [/time zone/, 'tz'],
    [/cron expression|^cron "/, 'expr'],
    [/seconds is too often/, 'every'],
    [/at schedule needs a time|already past/, 'at'],
  ];
  for (const [re, field] of rules) if (re.test(text)) return { field, text };
  return { field: '_form', text };
}

/** A schedule.Schedule as JSON (the generated class without its methods). */
export type ScheduleShape = Pick<Job['schedule'], 'kind' | 'everySeconds' | 'expr' | 'tz'> & { at?: unknown };

export interface Words {
  key: string;
  params: Record<string, string | number>;
}

/** i18n keys and params describing a job's schedule; fmt words a one-shot's time, time a
 * cron schedule's time of day. */
export function describe(s: ScheduleShape, fmt: (d: Date) => string, time?: (h: number, m: number) => string): Words[] {
  const out: Words[] = [];
  if (s.kind === 'at') {
    const at = goTime(s.at);
    out.push({ key: 'reminders.sched.at', params: { time: at ? fmt(at) : '?' } });
  }
  else if (s.kind === 'every') {
    const secs = s.everySeconds ?? 0;
    const unit = (['days', 'hours', 'minutes'] as Unit[]).find((u) => secs % unitSeconds[u] === 0) ?? 'seconds';
    const n = secs / unitSeconds[unit];
    out.push({ key: `reminders.sched.every.${unit}${n === 1 ? '.one' : ''}`, params: { n } });
  } else {
    out.push(describeCron(s.expr ?? '', time));
    if (s.tz) out.push({ key: 'reminders.sched.tz', params: { tz: s.tz } });
  }
  return out;
}

const weekdays: Record<string, string> = {
  '*': 'daily',
  '1-5': 'weekdays',
  '0,6': 'weekends',
  '6,0': 'weekends',
  '0': 'sun',
  '7': 'sun',
  '1': 'mon',
  '2': 'tue',
  '3': 'wed',
  '4': 'thu',
  '5': 'fri',
  '6': 'sat',
};

const num = (x: string) => /^\d+$/.test(x);

/** The common cron shapes in words (as schedule.describeCron); others show the expression. */
export function describeCron(expr: string, time?: (h: number, m: number) => string): Words {
  const f = expr.trim().split(/\s+/);
  if (f.length === 5 && f[2] === '*' && f[3] === '*') {
    if (num(f[0]) && num(f[1]) && weekdays[f[4]]) {
      const at = time ? time(Number(f[1]), Number(f[0])) : `${f[1].padStart(2, '0')}:${f[0].padStart(2, '0')}`;
      return { key: `reminders.sched.cron.${weekdays[f[4]]}`, params: { time: at } };
    }
    if (num(f[0]) && f[1] === '*' && f[4] === '*') return { key: 'reminders.sched.cron.hourly', params: { m: f[0] } };
    if (f.every((x) => x === '*')) return { key: 'reminders.sched.cron.minutely', params: {} };
  }
  return { key: 'reminders.sched.cron.expr', params: { expr: expr.trim() } };
}

/** A Go time from JSON as a Date, or null for the zero time / none. */
export function goTime(v: unknown): Date | null {
  if (typeof v !== 'string' || !v || v.startsWith('0001-01-01')) return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d;
}

// The window's one way of saying a moment (lib/datetime), kept importable from here.
export { clock, relative } from '../datetime';
