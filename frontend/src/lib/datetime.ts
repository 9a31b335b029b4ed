// Dates and times as the window shows them: in the UI language (Settings › Language), never
// the system's locale, and in few shapes, so a view does not mix three clocks. Every view
// formats a moment through here. The clock is the 24-hour one in both languages, as the tray
// and the notifications (Go's "15:04") say it.
import { locale } from './i18n.svelte';

const h23 = { hourCycle: 'h23' } as const;

/** A moment from a binding (an RFC 3339 string, a Date), or null for none or Go's zero time. */
export function toDate(v: unknown): Date | null {
  if (v === null || v === undefined || v === '') return null;
  const d = v instanceof Date ? v : new Date(String(v));
  return Number.isNaN(d.getTime()) || d.getFullYear() < 2000 ? null : d;
}

const sameDay = (a: Date, b: Date) => a.toDateString() === b.toDateString();

/** "Nov 24, 2025, 09:05" / "2025年11月24日 09:05": a full date and time. */
export function dateTime(d: Date, loc: string = locale()): string {
  return new Intl.DateTimeFormat(loc, { dateStyle: 'medium', timeStyle: 'short', ...h23 }).format(d);
}

/** One part of a numeric date as the UI language writes it: a field, or the text between. */
export type DatePart = { kind: 'year' | 'month' | 'day' } | { kind: 'sep'; text: string };

/**
 * The order and separators of a numeric date in the UI language — "2026/12/07" in zh-CN,
 * "12/07/2026" in English — for a date field that, unlike the engine's own <input
 * type=date>, follows the UI language rather than the system's.
 */
export function numericDateParts(loc: string = locale()): DatePart[] {
  const out: DatePart[] = [];
  for (const p of new Intl.DateTimeFormat(loc, { year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(2026, 11, 7))) {
    if (p.type === 'year' || p.type === 'month' || p.type === 'day') out.push({ kind: p.type });
    else if (p.type === 'literal' && out.length && out.length < 5) out.push({ kind: 'sep', text: p.value });
  }
  return out;
}

/** "YYYY-MM-DD" for a real calendar day, else '' (month 13, 31 April, a short year). */
export function isoDay(year: string, month: string, day: string): string {
  const [y, m, d] = [year, month, day].map(Number);
  if (!/^\d{4}$/.test(year) || !Number.isInteger(m) || !Number.isInteger(d) || m < 1 || d < 1) return '';
  const at = new Date(y, m - 1, d);
  if (at.getFullYear() !== y || at.getMonth() !== m - 1 || at.getDate() !== d) return '';
  return `${year}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** "09:05" in both languages; with seconds for logs read to the second. */
export function timeOfDay(d: Date, loc: string = locale(), seconds = false): string {
  const opts: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', ...h23 };
  if (seconds) opts.second = '2-digit';
  return new Intl.DateTimeFormat(loc, opts).format(d);
}

/** A time of day given as hours and minutes (a cron schedule's "0 9 * * *"). */
export function hourMinute(h: number, m: number, loc: string = locale()): string {
  return timeOfDay(new Date(2000, 0, 1, h, m), loc);
}

/** The time alone today, else the weekday and date with it: "17:05", "Tue, Nov 24, 09:00". */
export function clock(d: Date, now: Date = new Date(), loc: string = locale()): string {
  if (sameDay(d, now)) return timeOfDay(d, loc);
  const opts: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', ...h23 };
  if (d.getFullYear() !== now.getFullYear()) opts.year = 'numeric';
  return new Intl.DateTimeFormat(loc, opts).format(d);
}

/** A list's short stamp: the time today, the day otherwise ("Nov 24" / "11月24日"). */
export function shortStamp(d: Date, now: Date = new Date(), loc: string = locale()): string {
  if (sameDay(d, now)) return timeOfDay(d, loc);
  const opts: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric' };
  if (d.getFullYear() !== now.getFullYear()) opts.year = 'numeric';
  return new Intl.DateTimeFormat(loc, opts).format(d);
}

/** A log line's stamp: the time to the second today, the day and minute otherwise. */
export function logStamp(d: Date, now: Date = new Date(), loc: string = locale()): string {
  if (sameDay(d, now)) return timeOfDay(d, loc, true);
  return new Intl.DateTimeFormat(loc, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', ...h23 }).format(d);
}

/** "in 5 minutes" / "3 hours ago" / "5分钟后". */
export function relative(d: Date, now: Date = new Date(), loc: string = locale()): string {
  const secs = Math.round((d.getTime() - now.getTime()) / 1000);
  const abs = Math.abs(secs);
  const rtf = new Intl.RelativeTimeFormat(loc, { numeric: 'auto' });
  if (abs < 60) return rtf.format(secs, 'second');
  if (abs < 3600) return rtf.format(Math.round(secs / 60), 'minute');
  if (abs < 86400) return rtf.format(Math.round(secs / 3600), 'hour');
  return rtf.format(Math.round(secs / 86400), 'day');
}
