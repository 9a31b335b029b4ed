// Dates in the UI language, not the system's: the same moment in en and zh-CN.
import { afterEach, describe, expect, it } from 'vitest';
import { clock, dateTime, hourMinute, logStamp, relative, shortStamp, timeOfDay, toDate } from './datetime';
import { setLocale } from './i18n.svelte';

afterEach(() => setLocale('en'));

const at = new Date(2025, 10, 24, 17, 5, 7); // Monday 24 November 2025, 17:05:07 local
const sameDay = new Date(2025, 10, 24, 8, 0, 0);
const dayBefore = new Date(2025, 10, 25, 8, 0, 0);
const nextYear = new Date(2026, 0, 2, 8, 0, 0);

describe('the window says a moment in its language', () => {
  it('en', () => {
    expect(dateTime(at, 'en')).toBe('Nov 24, 2025, 17:05');
    expect(timeOfDay(at, 'en')).toBe('17:05');
    expect(timeOfDay(at, 'en', true)).toBe('17:05:07');
    expect(hourMinute(9, 30, 'en')).toBe('09:30');
    expect(clock(at, sameDay, 'en')).toBe('17:05');
    expect(clock(at, dayBefore, 'en')).toBe('Mon, Nov 24, 17:05');
    expect(clock(at, nextYear, 'en')).toBe('Mon, Nov 24, 2025, 17:05');
    expect(shortStamp(at, sameDay, 'en')).toBe('17:05');
    expect(shortStamp(at, dayBefore, 'en')).toBe('Nov 24');
    expect(logStamp(at, sameDay, 'en')).toBe('17:05:07');
    expect(logStamp(at, dayBefore, 'en')).toBe('Nov 24, 17:05');
    expect(relative(at, new Date(at.getTime() - 5 * 60_000), 'en')).toBe('in 5 minutes');
  });

  it('zh-CN', () => {
    expect(dateTime(at, 'zh-CN')).toBe('2025年11月24日 17:05');
    expect(timeOfDay(at, 'zh-CN')).toBe('17:05');
    expect(clock(at, dayBefore, 'zh-CN')).toBe('11月24日周一 17:05');
    expect(shortStamp(at, dayBefore, 'zh-CN')).toBe('11月24日');
    expect(logStamp(at, dayBefore, 'zh-CN')).toBe('11月24日 17:05');
    expect(relative(at, new Date(at.getTime() - 5 * 60_000), 'zh-CN')).toBe('5分钟后');
  });

  it('follows the UI language when none is given, whatever the system says', () => {
    setLocale('zh-CN');
    expect(dateTime(at)).toBe('2025年11月24日 17:05');
    setLocale('en');
    expect(dateTime(at)).toBe('Nov 24, 2025, 17:05');
  });

  it('reads what bindings send, and no moment from the zero time or junk', () => {
    expect(toDate('2025-11-24T17:05:07+01:00')?.getTime()).toBe(Date.parse('2025-11-24T17:05:07+01:00'));
    expect(toDate('0001-01-01T00:00:00Z')).toBeNull();
    expect(toDate('not a date')).toBeNull();
    expect(toDate('')).toBeNull();
    expect(toDate(undefined)).toBeNull();
  });
});
