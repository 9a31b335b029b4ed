import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/svelte';
import ModelsView from './ModelsView.svelte';
import { createApp } from '../lib/app.svelte';
import { setLocale } from '../lib/i18n.svelte';
import { createStatusStore } from '../lib/stores/status.svelte';
import { fakeApi, fakeCheck, fakeStatus } from '../test-fixtures';

const qwen = { name: 'qwen3:4b', size: 2497293918, family: 'qwen3', contextLength: 40960, capabilities: ['completion', 'tools'] };
const tiny = { name: 'tiny', size: 1000, family: 'llama', contextLength: 4096, capabilities: ['completion', 'tools'] };
const embed = { name: 'nomic-embed-text:latest', size: 274302450, contextLength: 2048, capabilities: ['embedding'] };

function view(over = {}) {
  const fake = fakeApi(over);
  const app = createApp(fake.api, createStatusStore(async () => fakeStatus()));
  render(ModelsView, { props: { app } });
  return fake;
}

afterEach(() => setLocale('en'));

describe('the fitness check in the Models view', () => {
  it('shows a kept check as badges, with its speed and what the badges mean', async () => {
    view({
      listModels: async () => [
        { ...qwen, fitness: fakeCheck() },
        { ...tiny, fitness: fakeCheck({ model: 'ollama/tiny:latest', verdict: 'text-fallback', toolCalls: 'text', caveats: ['slow', 'small-context'], tokensPerSecond: 2.5, contextMax: 4096 }) },
        embed,
      ],
    });
    const row = await screen.findByTestId('model-qwen3:4b');
    expect(row.dataset.verdict).toBe('good');
    expect(within(row).getAllByTestId('fitness-badge').map((b) => b.textContent)).toEqual(['good for tools']);
    expect(within(row).getByTestId('fitness-badge').title).toMatch(/^Calls tools the way Ollama expects\. Checked /);
    expect(row.textContent).toContain('40960 context · 21.5 tok/s');

    const small = screen.getByTestId('model-tiny');
    const badges = within(small).getAllByTestId('fitness-badge');
    expect(badges.map((b) => b.textContent)).toEqual(['text tool calls', 'slow', 'small window']);
    expect(badges[1].title).toBe('2.5 tokens per second on this machine: a smaller model answers faster.');
    expect(badges[2].title).toBe('Its window holds 4096 tokens: long chats and files are cut to fit.');
    // An embedding model does not chat: nothing to check.
    expect(within(screen.getByTestId('model-nomic-embed-text:latest')).queryByRole('button', { name: 'Check' })).toBeNull();
  });

  it('checks a model on request: Checking… while it runs, then its badges', async () => {
    let finish!: (r: ReturnType<typeof fakeCheck>) => void;
    const fake = view({
      listModels: vi.fn(async () => [tiny]),
      checkModel: (name: string) => new Promise((ok) => (finish = ok)).then((r) => ({ ...(r as object), model: `ollama/${name}:latest` })),
    });
    const row = await screen.findByTestId('model-tiny');
    expect(within(row).queryByTestId('fitness-badge')).toBeNull();
    await fireEvent.click(within(row).getByRole('button', { name: 'Check' }));
    const busy = within(row).getByRole('button', { name: 'Checking…' }) as HTMLButtonElement;
    expect(busy.disabled).toBe(true);
    finish(fakeCheck({ verdict: 'chat-only', toolCalls: 'none' }));
    await within(row).findByText('chat only');
    expect(within(row).getByRole('button', { name: 'Check' })).toBeTruthy();
    expect(row.dataset.verdict).toBe('chat-only');
    expect(fake.mocks.listModels).toHaveBeenCalledTimes(1); // the result arrived without a reload
  });

  it('says why a check failed, on the model’s row', async () => {
    view({
      listModels: async () => [qwen],
      checkModel: async () => {
        throw 'check qwen3:4b: cannot reach Ollama at http://127.0.0.1:11434 (hint: start it with `ollama serve`)';
      },
    });
    const row = await screen.findByTestId('model-qwen3:4b');
    await fireEvent.click(within(row).getByRole('button', { name: 'Check' }));
    expect((await within(row).findByRole('alert')).textContent).toContain('cannot reach Ollama');
    expect(within(row).getByRole('button', { name: 'Check' })).toBeTruthy();
  });

  it('shows a check the app ran by itself', async () => {
    const fake = view({ listModels: async () => [qwen] });
    const row = await screen.findByTestId('model-qwen3:4b');
    fake.emitModelChecked(fakeCheck({ verdict: 'good', caveats: ['calls-without-need'] }));
    await within(row).findByText('calls tools needlessly');
    expect(within(row).getByText('good for tools')).toBeTruthy();
  });

  it('speaks Chinese', async () => {
    setLocale('zh-CN');
    view({ listModels: async () => [{ ...qwen, fitness: fakeCheck({ verdict: 'chat-only', toolCalls: 'none' }) }] });
    const row = await screen.findByTestId('model-qwen3:4b');
    expect(within(row).getByText('仅聊天')).toBeTruthy();
    expect(within(row).getByRole('button', { name: '检测' })).toBeTruthy();
  });
});
