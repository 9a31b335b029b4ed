// The Activity view's day filter writes dates as the UI language does — year/month/day in
// zh-CN, month/day/year in English — where the engine's <input type=date> followed the
// system's locale (mm/dd/yyyy in a Chinese window).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import DateField from './DateField.svelte';
import ActivityView from './ActivityView.svelte';
import { createApp } from '../lib/app.svelte';
import { createStatusStore } from '../lib/stores/status.svelte';
import { fakeApi, fakeStatus } from '../test-fixtures';
import { setLocale } from '../lib/i18n.svelte';
import { isoDay, numericDateParts } from '../lib/datetime';

afterEach(() => setLocale('en'));

/** The field as a person sees it: placeholders or values, with the separators between. */
function shown(group: HTMLElement): string {
  return [...group.children]
    .map((c) => (c instanceof HTMLInputElement ? c.value || c.placeholder : c.classList.contains('gap') ? ' ' : c.textContent))
    .join('');
}

describe('a date in the UI language', () => {
  it('orders the fields as each language writes a date', () => {
    expect(numericDateParts('zh-CN').map((p) => (p.kind === 'sep' ? p.text : p.kind)).join('')).toBe('year/month/day');
    expect(numericDateParts('en').map((p) => (p.kind === 'sep' ? p.text : p.kind)).join('')).toBe('month/day/year');
  });

  it('accepts only real days', () => {
    expect(isoDay('2026', '3', '9')).toBe('2026-03-09');
    expect(isoDay('2026', '02', '30')).toBe('');
    expect(isoDay('2026', '13', '01')).toBe('');
    expect(isoDay('26', '01', '01')).toBe('');
  });

  it('shows yyyy/mm/dd in zh-CN and mm/dd/yyyy in English', async () => {
    setLocale('zh-CN');
    const zh = render(DateField, { props: { label: '日期', value: '2026-03-09', onchange: () => {} } });
    const g = zh.getByRole('group', { name: '日期' });
    expect(shown(g)).toBe('2026/03/09');
    expect(within(g).getAllByRole('textbox').map((i) => i.getAttribute('aria-label'))).toEqual(['年', '月', '日']);
    zh.unmount();
    setLocale('en');
    const en = render(DateField, { props: { label: 'Day', value: '2026-03-09', onchange: () => {} } });
    expect(shown(en.getByRole('group', { name: 'Day' }))).toBe('03/09/2026');
    en.unmount();
    const empty = render(DateField, { props: { label: 'Day', value: '', onchange: () => {} } });
    expect(shown(empty.getByRole('group', { name: 'Day' }))).toBe('mm/dd/yyyy');
  });

  it('filters Activity by the day typed in zh-CN order, and clears', async () => {
    setLocale('zh-CN');
    const fake = fakeApi();
    fake.mocks.activity.mockResolvedValue([]);
    const app = createApp(fake.api, createStatusStore(async () => fakeStatus()));
    render(ActivityView, { props: { app } });
    const g = await screen.findByRole('group', { name: '日期' });
    expect(g.querySelector('input[type="date"]')).toBeNull();
    const [y, m, d] = within(g).getAllByRole('textbox') as HTMLInputElement[];
    y.focus();
    await fireEvent.input(y, { target: { value: '2026' } });
    expect(document.activeElement).toBe(m); // a full field moves on
    await fireEvent.input(m, { target: { value: '3' } });
    expect(fake.mocks.activity).toHaveBeenCalledTimes(1); // not a day yet
    await fireEvent.input(d, { target: { value: '09' } });
    await vi.waitFor(() => expect(fake.mocks.activity).toHaveBeenCalledTimes(2));
    const filter = fake.mocks.activity.mock.calls[1][0] as { since?: string };
    expect(new Date(filter.since!).getDate()).toBe(9);
    expect(shown(g)).toBe('2026/3/09'); // what was typed stays as typed
    // Clear empties the fields.
    await fireEvent.click(screen.getByRole('button', { name: '清除筛选' }));
    await vi.waitFor(() => expect(shown(g)).toBe('年/月/日'));
  });

  it('says a half-typed day is not one when the field is left', async () => {
    const onchange = vi.fn();
    render(DateField, { props: { label: 'Day', value: '', onchange } });
    const g = screen.getByRole('group', { name: 'Day' });
    const [m] = within(g).getAllByRole('textbox') as HTMLInputElement[];
    await fireEvent.input(m, { target: { value: '14' } });
    await fireEvent.focusOut(g, { relatedTarget: null });
    expect(g.classList.contains('invalid')).toBe(true);
    expect(onchange).not.toHaveBeenCalled();
    await fireEvent.keyDown(m, { key: 'ArrowDown' });
    expect(m.value).toBe('12');
  });

  it('with time: a whole moment on the 24-hour clock, or "" while it is not one', async () => {
    const onchange = vi.fn();
    setLocale('zh-CN');
    const r = render(DateField, { props: { label: '日期和时间', time: true, value: '2026-03-09T14:05:00', onchange } });
    const g = r.getByRole('group', { name: '日期和时间' });
    expect(shown(g)).toBe('2026/03/09 14:05:00');
    const [, , , h, m, sec] = within(g).getAllByRole('textbox') as HTMLInputElement[];
    await fireEvent.input(h, { target: { value: '9' } });
    expect(onchange).toHaveBeenLastCalledWith('2026-03-09T09:05:00');
    await fireEvent.input(m, { target: { value: '' } });
    expect(onchange).toHaveBeenLastCalledWith(''); // no minute: no moment, so the form says so
    await fireEvent.input(m, { target: { value: '30' } });
    await fireEvent.input(sec, { target: { value: '' } });
    expect(onchange).toHaveBeenLastCalledWith('2026-03-09T09:30:00'); // seconds may be left out
    await fireEvent.input(h, { target: { value: '24' } });
    expect(onchange).toHaveBeenLastCalledWith('');
    expect(h.value).toBe('24'); // what the person typed stays, to be mended
    // A new value from outside (the form's suggested time) replaces the fields.
    await r.rerender({ label: '日期和时间', time: true, value: '2026-12-31T23:59:59', onchange });
    expect(shown(g)).toBe('2026/12/31 23:59:59');
  });
});
