import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { createRawSnippet } from 'svelte';
import Message from './Message.svelte';
import StatusBar from './StatusBar.svelte';
import StartOllama from './StartOllama.svelte';
import ModelsView from './ModelsView.svelte';
import { createApp } from '../lib/app.svelte';
import { setLocale } from '../lib/i18n.svelte';
import { createEngineStore } from '../lib/stores/engine.svelte';
import { createStatusStore } from '../lib/stores/status.svelte';
import { newTurn } from '../lib/stores/turn';
import type { Status } from '../lib/api';
import { fakeApi, fakeCheck, fakeStatus } from '../test-fixtures';

const down = (over: Partial<Status> = {}) =>
  fakeStatus({ ollamaReachable: false, ollamaEngine: { startable: true, byHearth: false, managed: true }, ...over });

afterEach(() => setLocale('en'));

describe('Start Ollama wherever the window says it is not running', () => {
  it('sits in the footer, starts Ollama, and the footer then says Hearth started it', async () => {
    let current = down();
    const store = createStatusStore(async () => current);
    await store.refresh();
    const startOllama = vi.fn(async () => {
      current = fakeStatus({ ollamaEngine: { startable: true, byHearth: true, managed: true } });
      return '0.17.4';
    });
    render(StatusBar, { props: { store, engine: createEngineStore({ startOllama }, store) } });
    await fireEvent.click(screen.getByTestId('start-ollama-footer'));
    await vi.waitFor(() => expect(screen.getByTestId('status-by-hearth').textContent).toBe('· started by Hearth'));
    expect(startOllama).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('start-ollama-footer')).toBeNull();
  });

  it('is not offered for another machine’s Ollama or one that is not installed', () => {
    const engine = createEngineStore({ startOllama: vi.fn() }, { refresh: async () => {} });
    render(StartOllama, { props: { engine, status: down({ ollamaEngine: { startable: false, byHearth: false, managed: false } }), where: 'x' } });
    expect(screen.queryByTestId('start-ollama-x')).toBeNull();
  });

  it('keeps a failed start’s reason beside the button', async () => {
    const engine = createEngineStore(
      { startOllama: vi.fn(async () => Promise.reject('start Ollama: `ollama serve` exited (hint: see /s/ollama.log)')) },
      { refresh: async () => {} },
    );
    render(StartOllama, { props: { engine, status: down(), where: 'x' } });
    await fireEvent.click(screen.getByTestId('start-ollama-x'));
    expect((await screen.findByRole('alert')).textContent).toContain('ollama.log');
  });

  it('replaces the terminal command on the error card with the button', () => {
    const turn = newTurn('r1');
    turn.status = 'error';
    turn.parts.push({
      kind: 'error', code: 'unreachable', message: 'cannot reach Ollama at http://h: refused', hint: 'start it',
      worded: { code: 'error.ollama.unreachable', args: { host: 'http://h' } }, hints: [{ code: 'error.hint.ollamaDown' }],
    });
    const start = createRawSnippet((where: () => string) => ({ render: () => `<button data-testid="start-${where()}">Start Ollama</button>` }));
    render(Message, { props: { item: turn, start } });
    const card = screen.getByTestId('error-card');
    expect(within(card).getByTestId('error-hint').textContent).toBe('Ollama is not running.');
    expect(card.textContent).not.toMatch(/ollama serve|`/);
    expect(within(card).getByTestId('start-error')).toBeTruthy();
  });

  it('speaks Chinese, and no window text asks for `ollama serve`', async () => {
    setLocale('zh-CN');
    const engine = createEngineStore({ startOllama: vi.fn() }, { refresh: async () => {} });
    render(StartOllama, { props: { engine, status: down(), where: 'x' } });
    expect(screen.getByTestId('start-ollama-x').textContent).toBe('启动 Ollama');
    const files = import.meta.glob<Record<string, string>>('../i18n/*/*.json', { eager: true, import: 'default' });
    for (const [path, msgs] of Object.entries(files)) {
      for (const [k, v] of Object.entries(msgs)) {
        if (/ollama serve/.test(v)) throw new Error(`${path} ${k} asks for a terminal command: ${v}`);
      }
    }
  });
});

const mute = { name: 'mute:1b', size: 1000, family: 'gemma', contextLength: 4096, capabilities: ['completion', 'tools'] };
const chatOnly = () =>
  fakeCheck({
    model: 'ollama/mute:1b', verdict: 'chat-only', toolCalls: 'none',
    probes: [
      { probe: 'weather', outcome: 'answered', reply: 'text "I cannot check the weather"', tries: 1 },
      { probe: 'read', outcome: 'empty', reply: 'failed: the model returned an empty reply', tries: 2 },
    ],
  });

function models(over = {}, status = fakeStatus()) {
  const fake = fakeApi(over);
  const app = createApp(fake.api, createStatusStore(async () => status));
  void app.status.refresh();
  render(ModelsView, { props: { app } });
  return { fake, app };
}

describe('verdicts a person can see and overrule', () => {
  it('shows each probe’s result and reason on the row', async () => {
    models({ listModels: async () => [{ ...mute, fitness: chatOnly() }] });
    const row = await screen.findByTestId('model-mute:1b');
    const items = within(within(row).getByTestId('fitness-probes')).getAllByRole('listitem');
    expect(items.map((li) => li.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      'A made-up weather tool: answered without a call — text "I cannot check the weather"',
      'Reading a real file (read_file): empty reply (asked twice) — failed: the model returned an empty reply',
    ]);
  });

  it('offers tools anyway, and the row says so', async () => {
    const { fake } = models({ listModels: async () => [{ ...mute, fitness: chatOnly() }] });
    const row = await screen.findByTestId('model-mute:1b');
    await fireEvent.click(within(row).getByRole('button', { name: 'Offer tools anyway' }));
    expect(fake.mocks.setToolsAnyway).toHaveBeenCalledWith('mute:1b', true);
    expect((await within(row).findByTestId('tools-anyway')).textContent).toBe('tools offered anyway');
    await fireEvent.click(within(row).getByRole('button', { name: 'Stop offering tools' }));
    expect(fake.mocks.setToolsAnyway).toHaveBeenLastCalledWith('mute:1b', false);
  });

  it('warns before a chat-only model is chosen for chat', async () => {
    const { fake } = models({ listModels: async () => [{ ...mute, fitness: chatOnly() }] });
    const row = await screen.findByTestId('model-mute:1b');
    await fireEvent.click(within(row).getByRole('button', { name: 'Use for chat' }));
    const warn = within(row).getByTestId('chat-only-warning');
    expect(warn.textContent).toContain('mute:1b was found chat only');
    expect(fake.mocks.saveSettings).not.toHaveBeenCalled();
    await fireEvent.click(within(warn).getByRole('button', { name: 'Use it and offer tools anyway' }));
    await vi.waitFor(() => expect(fake.mocks.saveSettings).toHaveBeenCalled());
    expect(fake.mocks.setToolsAnyway).toHaveBeenCalledWith('mute:1b', true);
    expect(fake.mocks.saveSettings.mock.calls.at(-1)![0].model).toBe('ollama/mute:1b');
  });

  it('marks a failed check as such: tools stay on', async () => {
    models({ listModels: async () => [{ ...mute, fitness: fakeCheck({ model: 'ollama/mute:1b', verdict: 'check-failed', toolCalls: 'unknown' }) }] });
    const row = await screen.findByTestId('model-mute:1b');
    expect(within(row).getByTestId('fitness-badge').textContent).toBe('check failed');
    expect(within(row).queryByRole('button', { name: 'Offer tools anyway' })).toBeNull();
  });

  it('offers Start Ollama when the list cannot be read because Ollama is down', async () => {
    const { fake } = models({ listModels: async () => Promise.reject('cannot reach Ollama') }, down());
    await fireEvent.click(await screen.findByTestId('start-ollama-models'));
    expect(fake.mocks.startOllama).toHaveBeenCalled();
  });
});
