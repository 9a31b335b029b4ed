import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import FirstRun from './FirstRun.svelte';
import { createApp } from '../lib/app.svelte';
import type { FirstRunInfo, ModelEntry } from '../lib/api';
import { setLocale } from '../lib/i18n.svelte';
import { chatOrder } from '../lib/stores/models.svelte';
import { createStatusStore } from '../lib/stores/status.svelte';
import { fakeApi, fakeCheck, fakeStatus } from '../test-fixtures';

const GB = 1_000_000_000;
const entry = (name: string, size: number, capabilities: string[], over: Partial<ModelEntry> = {}) =>
  ({ name, size, family: '', parameterSize: '', quantization: '', contextLength: 8192, capabilities, toolsAnyway: false, ...over }) as ModelEntry;

// Installed as a test machine might have them: alphabetically, the worst first.
const installed = [
  entry('all-minilm:latest', 45 * 1_000_000, ['embedding']),
  entry('gemma3:1b', 0.8 * GB, ['completion']),
  entry('llama3.2:3b', 2 * GB, ['completion', 'tools'], { fitness: fakeCheck({ model: 'ollama/llama3.2:3b', verdict: 'chat-only', toolCalls: 'none' }) }),
  entry('mistral:7b', 4.1 * GB, ['completion', 'tools']),
  entry('nomic-embed-text:latest', 274 * 1_000_000, []),
  entry('qwen2.5:7b', 4.7 * GB, ['completion', 'tools', 'thinking'], { fitness: fakeCheck({ model: 'ollama/qwen2.5:7b' }) }),
  entry('smollm:135m', 90 * 1_000_000, ['completion']),
];

function guide(info: Partial<FirstRunInfo>, list: ModelEntry[], over = {}) {
  const fake = fakeApi({ listModels: vi.fn(async () => list), ...over });
  const base = fake.mocks.firstRun.getMockImplementation()!;
  fake.mocks.firstRun.mockImplementation(async () => ({ ...(await base()), ...info }) as FirstRunInfo);
  const app = createApp(fake.api, createStatusStore(async () => fakeStatus()));
  render(FirstRun, { props: { app, onDone: () => {} } });
  return fake;
}

beforeEach(() => localStorage.setItem('hearth.firstRunStep', '1'));
afterEach(() => {
  localStorage.removeItem('hearth.firstRunStep');
  setLocale('en');
});

describe('the first run, step 2 (a model)', () => {
  it('orders the models fit for chat first: good with tools, then unchecked tools, chat-only, tiny; embedders left out', () => {
    expect(chatOrder(installed).map((m) => m.name)).toEqual(['qwen2.5:7b', 'mistral:7b', 'gemma3:1b', 'llama3.2:3b', 'smollm:135m']);
    // Tools allowed anyway count as good with tools.
    const anyway = entry('llama3.2:3b', 2 * GB, ['completion'], { toolsAnyway: true });
    expect(chatOrder([entry('a:1b', GB, ['completion']), anyway]).map((m) => m.name)).toEqual(['llama3.2:3b', 'a:1b']);
    // An Ollama that reports no capabilities: the name decides.
    expect(chatOrder([entry('x', GB, []), entry('bge-embed', GB, [])]).map((m) => m.name)).toEqual(['x']);
  });

  it('lists the installed models as the picker does, with badges and sizes, and Download for the suggested model', async () => {
    const fake = guide({ modelInstalled: false, model: 'ollama/qwen3:4b', models: installed.map((m) => m.name), chatModels: installed.map((m) => m.name) }, installed);
    const list = await screen.findByTestId('firstrun-models');
    const rows = within(list).getAllByRole('button');
    expect(rows.map((r) => r.dataset.testid)).toEqual(['qwen2.5:7b', 'mistral:7b', 'gemma3:1b', 'llama3.2:3b', 'smollm:135m'].map((n) => `firstrun-model-${n}`));
    const best = screen.getByTestId('firstrun-model-qwen2.5:7b');
    expect(best.textContent).toContain('4.7 GB');
    expect(best.textContent).toContain('tools');
    expect(best.textContent).toContain('thinking');
    expect(within(best).getByTestId('fitness-qwen2.5:7b').textContent).toBe('good for tools');
    expect(within(screen.getByTestId('firstrun-model-llama3.2:3b')).getByTestId('fitness-llama3.2:3b').textContent).toBe('chat only');
    expect(screen.queryByTestId('firstrun-model-all-minilm:latest')).toBeNull();

    // The suggested model is not installed: Download, with progress, through the picker's path.
    const suggest = screen.getByTestId('firstrun-suggest');
    expect(suggest.textContent).toContain('Or download qwen3:4b');
    await fireEvent.click(within(suggest).getByRole('button', { name: 'Download qwen3:4b' }));
    expect(fake.mocks.pullModel).toHaveBeenCalledWith('qwen3:4b');
    await vi.waitFor(() => expect(fake.mocks.followPull).toHaveBeenCalled());
    fake.emitPull('p1', { model: 'qwen3:4b', status: 'pulling', total: 2 * GB, completed: GB });
    const bar = await within(suggest).findByTestId('download-progress');
    expect(bar.getAttribute('aria-valuenow')).toBe('50');

    // A failure shows the picker's error, with a new try.
    fake.emitPull('p1', { model: 'qwen3:4b', done: true, error: 'pull model manifest: file does not exist', why: { code: 'models.pull.notFound', params: { model: 'qwen3:4b' } } as never });
    await vi.waitFor(() => expect(within(suggest).getByRole('button', { name: 'Download qwen3:4b' })).toBeTruthy());
    expect(within(suggest).getByRole('alert')).toBeTruthy();

    // Picking a row makes it the model.
    await fireEvent.click(best);
    await vi.waitFor(() => expect(fake.mocks.saveSettings).toHaveBeenCalled());
    expect(JSON.stringify(fake.mocks.saveSettings.mock.calls.at(-1))).toContain('ollama/qwen2.5:7b');
  });

  it('offers no Download when the suggested model is installed, and downloads it when nothing is', async () => {
    guide({ modelInstalled: false, model: 'ollama/llama3.2:3b' }, [entry('qwen3:4b', 2.5 * GB, ['completion', 'tools'])]);
    await screen.findByTestId('firstrun-model-qwen3:4b');
    expect(screen.queryByTestId('firstrun-suggest')).toBeNull();
  });

  it('with nothing installed, says so and offers the suggested model (zh-CN)', async () => {
    setLocale('zh-CN');
    guide({ modelInstalled: false, model: 'ollama/qwen3:4b', models: [], chatModels: [] }, [installed[0]]);
    const suggest = await screen.findByTestId('firstrun-suggest');
    expect(screen.queryByTestId('firstrun-models')).toBeNull();
    expect(screen.getByTestId('first-run').textContent).toContain('还没有安装聊天模型');
    expect(within(suggest).getByRole('button', { name: '下载 qwen3:4b' })).toBeTruthy();
  });
});
