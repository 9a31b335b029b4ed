// Settings: an API key stored in plain text in config.json gets a warning and, when the
// system keyring answers, a Move to keyring button (docs/design/safety-defaults.md#secrets).
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import SettingsView from './SettingsView.svelte';
import { createApp } from '../lib/app.svelte';
import { createStatusStore } from '../lib/stores/status.svelte';
import { fakeApi, fakeSettings, fakeStatus } from '../test-fixtures';
import type { PlainKeyReport } from '../lib/api';

const all: PlainKeyReport['plain'] = [
  { provider: 'openai', key: 'providers.openai.apiKey' },
  { provider: 'custom.groq', key: 'providers.custom.groq.apiKey' },
  { provider: 'web.search', key: 'tools.web.search.apiKey' },
];

function setup(first: PlainKeyReport, ...later: PlainKeyReport[]) {
  return setupIn('models', first, ...later);
}

/** Settings opened at a section: the providers' keys are under Models & providers, web search's under Tools. */
function setupIn(section: string, first: PlainKeyReport, ...later: PlainKeyReport[]) {
  localStorage.setItem('hearth.settingsSection', section);
  const fake = fakeApi();
  fake.mocks.getSettings.mockResolvedValue({
    ...fakeSettings(),
    openai: { name: '', apiBase: 'https://api.openai.com/v1', apiKey: '', keySet: true, clearKey: false },
    custom: [{ name: 'groq', apiBase: 'https://api.groq.com/openai/v1', apiKey: '', keySet: true, clearKey: false }],
  } as unknown as Awaited<ReturnType<typeof fake.api.getSettings>>);
  fake.mocks.plainKeys.mockResolvedValueOnce(first);
  for (const r of later) fake.mocks.plainKeys.mockResolvedValueOnce(r);
  const app = createApp(fake.api, createStatusStore(async () => fakeStatus()));
  render(SettingsView, { props: { app } });
  return fake;
}

// The sections' tabs are picked by test id: a role query with a name computes the name of
// every tab through jsdom's getComputedStyle (~10 ms a call), seconds under load, and
// components.test.ts already checks the tabs' roles and names.
const byProvider = (p: string) => screen.getAllByTestId('plain-key').find((el) => el.dataset.provider === p)!;

describe('Settings › API keys in plain text', () => {
  it('warns beside each key and moves one when asked', async () => {
    const fake = setup({ plain: all, keyring: true, fileMode: '0600', private: true, configFile: '/c/config.json' }, { plain: all.slice(1), keyring: true, fileMode: '0600', private: true, configFile: '/c/config.json' });
    await vi.waitFor(() => expect(screen.getAllByTestId('plain-key')).toHaveLength(2));
    expect(byProvider('openai').textContent).toContain('providers.openai.apiKey is stored in plain text in config.json.');
    expect(byProvider('custom.groq').textContent).toContain('providers.custom.groq.apiKey');
    await fireEvent.click(screen.getByTestId('settings-tab-tools'));
    await vi.waitFor(() => expect(byProvider('web.search').textContent).toContain('tools.web.search.apiKey'));
    expect(fake.mocks.moveKeyToKeyring).not.toHaveBeenCalled(); // never on its own

    await fireEvent.click(screen.getByTestId('settings-tab-models'));
    const openai = await vi.waitFor(() => byProvider('openai'));
    await fireEvent.click(within(openai).getByRole('button', { name: 'Move to keyring' }));
    expect(fake.mocks.moveKeyToKeyring).toHaveBeenCalledWith('openai');
    await vi.waitFor(() => expect(screen.getAllByTestId('plain-key')).toHaveLength(1));
    expect(screen.getByTestId('key-moved').textContent).toContain('Moved to the system keyring');
    expect(fake.mocks.plainKeys).toHaveBeenCalledTimes(2);
  });

  it('shows why a move failed and keeps the warning', async () => {
    const fake = setup({ plain: all.slice(0, 1), keyring: true, fileMode: '0600', private: true, configFile: '/c/config.json' });
    fake.mocks.moveKeyToKeyring.mockRejectedValueOnce(
      new Error('move the openai key to the OS keyring: store key openai in the OS keyring: the collection is locked (hint: config.json was not changed; unlock the keyring and try again)'),
    );
    const openai = await screen.findByTestId('plain-key');
    await fireEvent.click(within(openai).getByRole('button', { name: 'Move to keyring' }));
    const alert = await within(openai).findByRole('alert');
    expect(alert.textContent).toContain('Not moved, config.json is unchanged');
    expect(alert.textContent).toContain('the collection is locked');
    expect(within(openai).getByRole('button', { name: 'Move to keyring' }).hasAttribute('disabled')).toBe(false);
    expect(screen.queryByTestId('key-moved')).toBeNull();
  });

  it('offers no move without a keyring and says who can read the file', async () => {
    setup({ plain: all.slice(0, 1), keyring: false, fileMode: '0600', private: true, configFile: '/c/config.json' });
    const openai = await screen.findByTestId('plain-key');
    expect(within(openai).queryByRole('button')).toBeNull();
    expect(openai.textContent).toContain('No system keyring answers; only you can read the file (0600).');
  });

  it('tells how to close a file others can read', async () => {
    setupIn('tools', { plain: all.slice(2), keyring: false, fileMode: '0644', private: false, configFile: '/home/u/.config/hearth/config.json' });
    const web = await screen.findByTestId('plain-key');
    expect(web.textContent).toContain('other users can read the file (mode 0644): run chmod 600 /home/u/.config/hearth/config.json');
  });

  it('looks again after a key is saved (without a keyring it lands in the file)', async () => {
    const fake = setup({ plain: [], keyring: false, fileMode: '0600', private: true, configFile: '/c/config.json' }, { plain: all.slice(0, 1), keyring: false, fileMode: '0600', private: true, configFile: '/c/config.json' });
    const key = (await screen.findAllByPlaceholderText('stored — type to replace'))[0] as HTMLInputElement;
    expect(screen.queryByTestId('plain-key')).toBeNull();
    await fireEvent.input(key, { target: { value: 'sk-new' } });
    await fireEvent.change(key);
    await vi.waitFor(() => expect(fake.mocks.saveSettings).toHaveBeenCalled());
    await screen.findByTestId('plain-key');
    expect(fake.mocks.plainKeys).toHaveBeenCalledTimes(2);
  });
});
