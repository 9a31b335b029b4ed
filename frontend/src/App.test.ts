import { describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, fireEvent, within } from '@testing-library/svelte';
import { tick } from 'svelte';

// The real bindings need the Wails runtime; App gets a fake API and a status store built
// on a fake fetcher.
import App from './App.svelte';
import { createStatusStore } from './lib/stores/status.svelte';
import { setLocale } from './lib/i18n.svelte';
import { fakeApi, fakeStatus } from './test-fixtures';
import type { Status } from './lib/api';

async function renderWith(status: Status | (() => Promise<Status>), firstRunDone = true) {
  localStorage.setItem('hearth.firstRunDone', firstRunDone ? '1' : '');
  localStorage.removeItem('hearth.firstRunStep');
  const fetch = vi.fn(typeof status === 'function' ? status : async () => status);
  const store = createStatusStore(fetch);
  const fake = fakeApi();
  render(App, { props: { store, api: fake.api } });
  await store.refresh();
  await tick();
  return { store, fetch, fake };
}

describe('App shell', () => {
  it('shows sidebar, chat and a footer with workspace, model and Ollama', async () => {
    await renderWith(fakeStatus());
    expect(screen.getByRole('heading', { name: 'New chat' })).toBeTruthy();
    expect(screen.getByTestId('status-workspace').textContent).toContain('/home/u/.local/share/hearth/workspace');
    expect(screen.getByTestId('status-model').textContent).toContain('ollama/qwen3:4b');
    expect(screen.getByTestId('status-ollama').textContent).toContain('Ollama 0.17.4 at http://127.0.0.1:11434');
  });

  it('shows the first-run guide above the chat, and Skip hides it for good', async () => {
    await renderWith(fakeStatus(), false);
    const guide = await screen.findByTestId('first-run');
    // Ollama answers and the model is installed: the guide moves on to its last step by itself.
    await within(guide).findByText('Your workspace');
    expect(localStorage.getItem('hearth.firstRunStep')).toBe('2');
    expect((screen.getByRole('textbox', { name: 'Message Hearth…' }) as HTMLTextAreaElement).disabled).toBe(false);
    await fireEvent.click(within(guide).getByRole('button', { name: 'Skip setup' }));
    expect(screen.queryByTestId('first-run')).toBeNull();
    expect(localStorage.getItem('hearth.firstRunDone')).toBe('1');
  });

  it('folds the sidebar into a rail with Ctrl+B and remembers it', async () => {
    localStorage.removeItem('hearth.sidebarCollapsed');
    await renderWith(fakeStatus());
    const aside = screen.getByRole('complementary', { name: 'Sidebar' });
    expect(aside.dataset.collapsed).toBe('false');
    await fireEvent.keyDown(window, { key: 'b', ctrlKey: true });
    expect(aside.dataset.collapsed).toBe('true');
    expect(localStorage.getItem('hearth.sidebarCollapsed')).toBe('1');
    expect(screen.queryByRole('tablist', { name: 'Sidebar sections' })).toBeNull();
    // The views stay one click away.
    await fireEvent.click(within(aside).getByRole('button', { name: 'Models' }));
    expect(screen.getByRole('heading', { name: 'Models' })).toBeTruthy();
    await fireEvent.click(within(aside).getByRole('button', { name: 'Show the sidebar' }));
    expect(aside.dataset.collapsed).toBe('false');
    expect(localStorage.getItem('hearth.sidebarCollapsed')).toBe('0');
  });

  it('shows local-only mode in the footer; the chip opens the setting, in the UI language', async () => {
    await renderWith(fakeStatus());
    expect(screen.queryByTestId('status-localonly')).toBeNull();
    cleanup();
    localStorage.setItem('hearth.settingsSection', 'general');
    await renderWith(fakeStatus({ localOnly: true }));
    const chip = screen.getByTestId('status-localonly');
    expect(chip.textContent).toContain('Local only');
    expect(chip.getAttribute('title')).toContain('Settings › Tools & approvals');
    await fireEvent.click(chip);
    const tab = document.getElementById('settings-tab-tools');
    expect(tab?.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('Local-only mode: nothing leaves this machine except to Ollama')).toBeTruthy();
    cleanup();
    await renderWith(fakeStatus({ localOnly: true }));
    try {
      setLocale('zh-CN');
      await tick();
      expect(screen.getByTestId('status-localonly').textContent).toContain('仅本地');
    } finally {
      setLocale('en');
    }
  });

  it('opens Models and Settings from the sidebar and comes back with Ctrl+N', async () => {
    await renderWith(fakeStatus());
    // Buttons are looked for among the views', not the whole window's: a role query computes
    // each candidate's name through jsdom's getComputedStyle, ~10 ms a call.
    const views = () => within(screen.getByRole('navigation', { name: 'Views' }));
    await fireEvent.click(views().getByRole('button', { name: 'Models' }));
    expect(screen.getByRole('heading', { name: 'Models' })).toBeTruthy();
    await fireEvent.click(views().getByRole('button', { name: 'Settings' }));
    expect(screen.getByRole('tablist', { name: 'Settings sections' })).toBeTruthy();
    await fireEvent.keyDown(window, { key: 'n', ctrlKey: true });
    expect(screen.getByRole('heading', { name: 'New chat' })).toBeTruthy();
  });

  it('a view left another way (a notice opens a chat) no longer looks selected: its button lets go of the focus', async () => {
    const { fake } = await renderWith(fakeStatus());
    const views = () => within(screen.getByRole('navigation', { name: 'Views' }));
    const models = views().getByRole('button', { name: 'Models' });
    models.focus();
    await fireEvent.click(models);
    expect(models.getAttribute('aria-current')).toBe('page');
    expect(document.activeElement).toBe(models);
    fake.emitOpenSession('s1');
    await tick();
    expect(models.getAttribute('aria-current')).toBeNull();
    expect(models.classList.contains('active')).toBe(false);
    // Focus left there would draw the focus ring on the next key press.
    expect(document.activeElement).not.toBe(models);
  });

  it('keeps the composer usable with a line that says what to fix first', async () => {
    await renderWith(fakeStatus({ ollamaReachable: false }));
    const box = screen.getByRole('textbox') as HTMLTextAreaElement;
    // Typing is never blocked: a message sent now fails with the reason and a Retry.
    expect(box.disabled).toBe(false);
    const hint = document.getElementById('composer-hint')!;
    // Not installed here: the hint says what to do, and asks for no terminal command.
    expect(hint.textContent).toContain('install or start it');
    expect(hint.textContent).not.toContain('ollama serve');
    expect(screen.queryByTestId('start-ollama-composer')).toBeNull();
    expect(screen.getByTestId('status-ollama').textContent).toContain('not reachable');
  });

  it('offers Start Ollama in the footer and under the composer when Hearth can start it', async () => {
    const { fake } = await renderWith(fakeStatus({ ollamaReachable: false, ollamaEngine: { startable: true, byHearth: false, managed: false } }));
    const hint = document.getElementById('composer-hint')!;
    expect(hint.textContent).toContain('Hearth will chat through Ollama, which is not running.');
    expect(hint.textContent).not.toMatch(/ollama serve|`/);
    const start = screen.getByTestId('start-ollama-composer');
    expect(screen.getByTestId('start-ollama-footer').textContent).toBe('Start Ollama');
    await fireEvent.click(start);
    expect(fake.mocks.startOllama).toHaveBeenCalledTimes(1);
  });

  it('switches the sidebar between chats and the memory files', async () => {
    await renderWith(fakeStatus());
    await screen.findByText('No chats yet');
    await fireEvent.click(screen.getByRole('tab', { name: 'Memory' }));
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).getByText('No memory files yet', { exact: false })).toBeTruthy();
    expect(within(panel).getByText('In /home/u/.local/share/hearth/workspace')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Memory' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.queryByText('No chats yet')).toBeNull();
  });

  it('shows a broken config as an alert and says the file is kept', async () => {
    await renderWith(
      fakeStatus({ configError: "config.json:3:15: invalid character '}' looking for beginning of value" }),
    );
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('config.json:3:15');
    expect(alert.textContent).toContain('it will not be overwritten');
  });

  it('lists what config.json needs looked at, in the UI language, and hides it until it changes', async () => {
    localStorage.removeItem('hearth.configWarnings.closed');
    const unset = {
      key: 'tools.mcpServers.search.headers.Authorization',
      line: 7,
      column: 9,
      msg: 'the environment variable SEARCH_TOKEN is not set, so this value is empty',
      why: {
        text: { code: 'config.warn.envUnset', args: { name: 'SEARCH_TOKEN' } },
        hint: [{ code: 'config.warn.envUnset.hint', args: { name: 'SEARCH_TOKEN' } }],
      },
    };
    const unknown = {
      key: 'UI',
      line: 2,
      column: 3,
      msg: 'Hearth does not know this setting',
      why: { text: { code: 'config.warn.caseKey', args: { known: 'ui' } }, hint: [{ code: 'config.warn.caseKey.hint', args: { known: 'ui' } }] },
    };
    await renderWith(fakeStatus({ configWarnings: [unset] as never }));
    let box = screen.getByTestId('config-warnings');
    expect(box.textContent).toContain('Worth a look in config.json (1)');
    expect(box.textContent).toContain('tools.mcpServers.search.headers.Authorization');
    expect(box.textContent).toContain('line 7, column 9');
    expect(box.textContent).toContain('SEARCH_TOKEN is not set');
    expect(box.textContent).toContain('~/.config/environment.d/');
    expect(box.textContent).not.toContain('Unknown settings');
    await fireEvent.click(within(box).getByRole('button', { name: 'Hide these until they change' }));
    expect(screen.queryByTestId('config-warnings')).toBeNull();
    cleanup();
    // The same warnings after a restart stay hidden; a new one brings the box back, in Chinese too.
    await renderWith(fakeStatus({ configWarnings: [unset] as never }));
    expect(screen.queryByTestId('config-warnings')).toBeNull();
    cleanup();
    await renderWith(fakeStatus({ configWarnings: [unset, unknown] as never }));
    try {
      setLocale('zh-CN');
      await tick();
      box = screen.getByTestId('config-warnings');
      expect(box.textContent).toContain('config.json 中有 2 处需要留意');
      expect(box.textContent).toContain('环境变量 SEARCH_TOKEN 未设置');
      expect(box.textContent).toContain('请写成 "ui"');
    } finally {
      setLocale('en');
    }
  });

  it('checks Ollama again when the status is clicked', async () => {
    let up = false;
    const { fetch } = await renderWith(async () => fakeStatus({ ollamaReachable: up }));
    expect(screen.getByTestId('status-ollama').textContent).toContain('not reachable');
    up = true;
    await fireEvent.click(screen.getByTestId('status-ollama'));
    await vi.waitFor(() => expect(screen.getByTestId('status-ollama').textContent).toContain('Ollama 0.17.4'));
    expect(fetch.mock.calls.length).toBeGreaterThanOrEqual(2);
  });

  it('says when the backend cannot be asked', async () => {
    await renderWith(async () => {
      throw new Error('bindings missing');
    });
    expect(screen.getByText('Status unavailable: bindings missing')).toBeTruthy();
  });

  it('opens on the chat a notification clicked before the page loaded asked for', async () => {
    localStorage.setItem('hearth.firstRunDone', '1');
    const fake = fakeApi();
    fake.mocks.takeNavigation.mockResolvedValueOnce({ kind: 'openChat', sessionId: 'cron:a1' } as never);
    fake.mocks.listSessions.mockResolvedValue([
      { id: 'cron:a1', title: 'Stretch reminder' },
      { id: 's2', title: 'Garden plans' },
    ] as never);
    render(App, { props: { store: createStatusStore(vi.fn(async () => fakeStatus())), api: fake.api } });
    expect(await screen.findByRole('heading', { name: 'Stretch reminder' })).toBeTruthy();
    expect(fake.mocks.loadSession).toHaveBeenCalledWith('cron:a1');
    expect(fake.mocks.takeNavigation).toHaveBeenCalledTimes(1);
  });
});
