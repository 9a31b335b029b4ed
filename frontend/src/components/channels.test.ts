import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { tick } from 'svelte';
import SettingsView from './SettingsView.svelte';
import SessionList from './SessionList.svelte';
import ReminderItem from './ReminderItem.svelte';
import RemindersView from './RemindersView.svelte';
import { createApp } from '../lib/app.svelte';
import { createStatusStore } from '../lib/stores/status.svelte';
import { fakeApi, fakeTelegram } from '../test-fixtures';
import type { Api, Job, SessionSummary, TelegramStatus } from '../lib/api';
import { setLocale } from '../lib/i18n.svelte';
import { emptyForm, formFromJob, toSpec } from '../lib/stores/reminderForm';

function mount(tg: Partial<TelegramStatus> | (() => TelegramStatus), over: Partial<Api> = {}) {
  const status = typeof tg === 'function' ? tg : () => fakeTelegram(tg);
  const f = fakeApi({ channelsStatus: vi.fn(async () => ({ telegram: status() })), ...over });
  const app = createApp(f.api, createStatusStore(f.api.status));
  localStorage.setItem('hearth.settingsSection', 'channels');
  const r = render(SettingsView, { props: { app } });
  return { ...f, app, unmount: r.unmount };
}

const stateLine = async () => {
  const el = await screen.findByTestId('channels-state');
  await vi.waitFor(() => expect(el.dataset.state).not.toBe(''));
  return el;
};

afterEach(() => {
  vi.useRealTimers();
  setLocale('en');
});

describe('Settings › Channels', () => {
  it('says which state the channel is in', async () => {
    const cases: [Partial<TelegramStatus>, RegExp][] = [
      [{}, /Off: add a bot token below/],
      [{ hasToken: true }, /Off: switch it on below/],
      [{ hasToken: true, enabled: true, state: 'connecting' }, /Connecting to Telegram/],
      [{ hasToken: true, enabled: true, state: 'ready', bot: 'hearth_home_bot' }, /Ready: answering as @hearth_home_bot/],
      [{ hasToken: true, enabled: true, state: 'localOnly' }, /local-only mode is on, so channels are off/],
      [{ hasToken: true, enabled: true, state: 'elsewhere' }, /another Hearth .* holds the data folder/],
    ];
    for (const [tg, want] of cases) {
      const { unmount } = mount(tg);
      const line = await stateLine();
      expect(line.dataset.state).toBe(tg.state ?? 'off');
      expect(line.textContent).toMatch(want);
      unmount();
    }
  });

  it('shows an error state with its problem and hint in the UI language', async () => {
    mount({ hasToken: true, enabled: true, state: 'error', problem: { text: { code: 'channels.state.errorUnknown' }, hint: [{ code: 'channels.token.how1' }] } });
    const line = await stateLine();
    expect(line.textContent).toContain('Not connected: Telegram did not answer');
    expect(screen.getByTestId('channels-hint').textContent).toContain('@BotFather');
  });

  it('says how to get a token, saves it, never shows it again, and removes it', async () => {
    let tg = fakeTelegram();
    const setTelegramToken = vi.fn(async (token: string) => void (tg = { ...tg, hasToken: !!token }));
    const { mocks } = mount(() => tg, { setTelegramToken } as Partial<Api>);
    expect((await screen.findByTestId('settings-channels')).textContent).toContain('open @BotFather, send /newbot');
    const input = screen.getByTestId('channels-token') as HTMLInputElement;
    expect(input.type).toBe('password');
    await fireEvent.input(input, { target: { value: ' 123:ABC ' } });
    await fireEvent.click(screen.getByTestId('channels-token-save'));
    await vi.waitFor(() => expect(mocks.setTelegramToken).toHaveBeenCalledWith('123:ABC'));
    await vi.waitFor(() => expect(input.value).toBe(''));
    expect(screen.getByTestId('settings-status').dataset.state).toBe('saved');
    expect(input.placeholder).toMatch(/Kept in the keyring/);
    await fireEvent.click(screen.getByTestId('channels-token-remove'));
    expect(mocks.setTelegramToken).toHaveBeenLastCalledWith('');
    await vi.waitFor(() => expect(screen.queryByTestId('channels-token-remove')).toBeNull());
    expect(input.placeholder).toBe('Not set');
  });

  it('shows a refused change as an error where it was made (the stub refuses every change)', async () => {
    const refuse = vi.fn(async () => Promise.reject('channels are not built yet'));
    const { mocks } = mount({}, { setTelegramToken: refuse, setTelegram: refuse, pairingCode: refuse } as Partial<Api>);
    await stateLine();
    await fireEvent.input(screen.getByTestId('channels-token'), { target: { value: 'x' } });
    await fireEvent.click(screen.getByTestId('channels-token-save'));
    expect((await screen.findByTestId('channels-error-token')).textContent).toBe('channels are not built yet');
    expect(screen.getByTestId('settings-status').dataset.state).toBe('failed');
    const on = screen.getByTestId('channels-enabled') as HTMLInputElement;
    await fireEvent.click(on);
    expect(mocks.setTelegram).toHaveBeenCalledWith(true, false, 'desktop');
    expect((await screen.findByTestId('channels-error-switches')).textContent).toBe('channels are not built yet');
    await vi.waitFor(() => expect(on.checked).toBe(false)); // back to what the service says
    await fireEvent.click(screen.getByTestId('channels-pair'));
    expect((await screen.findByTestId('channels-error-pair')).textContent).toBe('channels are not built yet');
    expect(screen.queryByTestId('channels-code')).toBeNull();
  });

  it('saves the switches together: on, group chats, notify in', async () => {
    let tg = fakeTelegram({ hasToken: true, enabled: true, notifyIn: 'desktop' });
    const setTelegram = vi.fn(async (enabled: boolean, groups: boolean, notifyIn: string) => void (tg = { ...tg, enabled, groups, notifyIn }));
    const { mocks } = mount(() => tg, { setTelegram } as Partial<Api>);
    await stateLine();
    await fireEvent.click(screen.getByTestId('channels-groups'));
    expect(mocks.setTelegram).toHaveBeenLastCalledWith(true, true, 'desktop');
    await vi.waitFor(() => expect((screen.getByTestId('channels-groups') as HTMLInputElement).checked).toBe(true));
    await fireEvent.change(screen.getByTestId('channels-notify'), { target: { value: 'both' } });
    expect(mocks.setTelegram).toHaveBeenLastCalledWith(true, true, 'both');
  });

  it('shows the pairing code big with its countdown and the steps, until it expires', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const t0 = new Date('2026-12-07T10:00:00Z');
    vi.setSystemTime(t0);
    let tg = fakeTelegram({ hasToken: true, enabled: true, state: 'ready', bot: 'hearth_home_bot' });
    const pairingCode = vi.fn(async () => {
      tg = { ...tg, code: '482913', codeExpires: new Date(t0.getTime() + 5 * 60_000).toISOString() };
      return '482913';
    });
    mount(() => tg, { pairingCode } as Partial<Api>);
    await stateLine();
    await fireEvent.click(screen.getByTestId('channels-pair'));
    expect((await screen.findByTestId('channels-code')).textContent).toBe('482913');
    const box = screen.getByTestId('channels-code-box');
    expect(box.textContent).toContain('open @hearth_home_bot in Telegram');
    expect(box.textContent).toContain('Send it this code');
    expect(screen.getByTestId('channels-expiry').textContent).toBe('Expires in 5:00');
    expect(screen.getByTestId('channels-pair').textContent).toBe('New code');
    await vi.advanceTimersByTimeAsync(61_000);
    await tick();
    expect(screen.getByTestId('channels-expiry').textContent).toBe('Expires in 3:59');
    await vi.advanceTimersByTimeAsync(4 * 60_000);
    await tick();
    expect(screen.queryByTestId('channels-code')).toBeNull();
    expect(screen.getByTestId('channels-expired').textContent).toMatch(/expired/);
    expect(screen.getByTestId('channels-pair').textContent).toBe('Pair a phone');
  });

  it('polls every 2 s while open and stops when closed', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { mocks, unmount } = mount({});
    await stateLine();
    const first = mocks.channelsStatus.mock.calls.length;
    await vi.advanceTimersByTimeAsync(6_000);
    expect(mocks.channelsStatus.mock.calls.length).toBe(first + 3);
    unmount();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(mocks.channelsStatus.mock.calls.length).toBe(first + 3);
  });

  it('lists paired people and requests; allows, declines, removes after a confirmation, adds by id', async () => {
    const { mocks } = mount({
      hasToken: true,
      paired: [{ id: '42', name: 'Ann', since: '2026-12-01T09:00:00Z' }],
      requests: [{ id: '77', name: 'Bob' }],
    });
    const req = await screen.findByTestId('channels-request-77');
    expect(req.textContent).toContain('Bob');
    await fireEvent.click(within(req).getByRole('button', { name: 'Allow' }));
    expect(mocks.allowPeer).toHaveBeenCalledWith('77');
    await fireEvent.click(within(screen.getByTestId('channels-request-77')).getByRole('button', { name: 'Decline' }));
    expect(mocks.removePeer).toHaveBeenCalledWith('77');

    const ann = screen.getByTestId('channels-peer-42');
    expect(ann.textContent).toMatch(/Ann\s*42/);
    expect(ann.textContent).toContain('since');
    await fireEvent.click(within(ann).getByRole('button', { name: 'Remove' }));
    expect(mocks.removePeer).not.toHaveBeenCalledWith('42');
    expect(ann.textContent).toContain('Remove Ann?');
    await fireEvent.click(within(ann).getByRole('button', { name: 'Remove' }));
    expect(mocks.removePeer).toHaveBeenCalledWith('42');

    const id = screen.getByTestId('channels-add-id');
    await fireEvent.input(id, { target: { value: '@ann' } });
    await fireEvent.click(screen.getByTestId('channels-add'));
    expect(screen.getByTestId('channels-error-add').textContent).toMatch(/user id is a number/);
    expect(mocks.allowPeer).toHaveBeenCalledTimes(1);
    await fireEvent.input(id, { target: { value: '123456789' } });
    await fireEvent.click(screen.getByTestId('channels-add'));
    expect(mocks.allowPeer).toHaveBeenLastCalledWith('123456789');
  });

  it('shows a refused peer change beside the list', async () => {
    const removePeer = vi.fn(async () => Promise.reject(new Error('user 42 is not paired')));
    mount({ paired: [{ id: '42', name: 'Ann' }] }, { removePeer } as Partial<Api>);
    const ann = await screen.findByTestId('channels-peer-42');
    await fireEvent.click(within(ann).getByRole('button', { name: 'Remove' }));
    await fireEvent.click(within(ann).getByRole('button', { name: 'Remove' }));
    expect((await screen.findByTestId('channels-error-peers')).textContent).toBe('user 42 is not paired');
  });

  it('speaks Chinese', async () => {
    setLocale('zh-CN');
    mount({});
    expect((await stateLine()).textContent).toContain('已关闭');
    expect(screen.getByRole('tab', { name: '渠道' })).toBeTruthy();
    expect(screen.getByTestId('channels-pair').textContent).toBe('配对手机');
  });
});

describe('a chat from a channel', () => {
  const chats = [
    { id: 'telegram:5551234', title: 'From the phone', updated: new Date().toISOString() },
    { id: '20261207-101500-abc', title: 'At the desk', updated: new Date().toISOString() },
  ] as unknown as SessionSummary[];

  it('carries a Telegram badge in the list, and opens like any chat', async () => {
    const f = fakeApi({ listSessions: vi.fn(async () => chats) });
    const app = createApp(f.api, createStatusStore(f.api.status));
    await app.sessions.refresh();
    render(SessionList, { props: { app } });
    const badges = await screen.findAllByTestId('session-telegram');
    expect(badges).toHaveLength(1);
    expect(badges[0].getAttribute('title')).toBe('Telegram');
    const row = badges[0].closest('button')!;
    expect(row.textContent).toContain('From the phone');
    await fireEvent.click(row);
    await vi.waitFor(() => expect(f.mocks.loadSession).toHaveBeenCalledWith('telegram:5551234'));
    expect(app.chat.sessionId).toBe('telegram:5551234');
  });
});

describe("a reminder's Notify in", () => {
  it('is sent with the spec, read back for Edit, and shown in the details', async () => {
    const f = { ...emptyForm(), message: 'water the plants', notify: 'telegram' as const };
    expect(toSpec(f).notifyIn).toBe('telegram');
    expect(toSpec({ ...f, notify: '' })).not.toHaveProperty('notifyIn');
    const job = { id: 'j1', message: 'water', schedule: { kind: 'every', everySeconds: 3600 }, notifyIn: 'both' } as unknown as Job;
    expect(formFromJob(job).notify).toBe('both');
    const app = createApp(fakeApi().api);
    render(ReminderItem, { props: { app, job, now: new Date() } });
    expect(screen.getByTestId('reminder-notify-in').textContent).toBe('Notifies in: Both');
  });

  it('is a select in the reminder form, sent as notifyIn when chosen', async () => {
    const f = fakeApi();
    render(RemindersView, { props: { app: createApp(f.api, createStatusStore(f.api.status)) } });
    await screen.findByText(/No reminders yet/);
    const form = screen.getByRole('form', { name: 'New reminder' });
    await fireEvent.input(within(form).getByRole('textbox', { name: 'Message' }), { target: { value: 'water the plants' } });
    const notify = within(form).getByRole('combobox', { name: 'Notify in' }) as HTMLSelectElement;
    expect([...notify.options].map((o) => o.text)).toEqual(['Follow the default', 'Desktop', 'Telegram', 'Both']);
    await fireEvent.change(notify, { target: { value: 'telegram' } });
    await fireEvent.click(within(form).getByRole('button', { name: 'Create' }));
    await vi.waitFor(() => expect(f.mocks.addJob).toHaveBeenCalled());
    expect(f.mocks.addJob.mock.calls[0][0].notifyIn).toBe('telegram');
  });
});
