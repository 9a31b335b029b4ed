import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import SettingsView from './SettingsView.svelte';
import { createApp } from '../lib/app.svelte';
import { setLocale } from '../lib/i18n.svelte';
import { createStatusStore } from '../lib/stores/status.svelte';
import { fakeApi, fakeStatus } from '../test-fixtures';

// Settings › Memory says why recall searches by words only, in the window's language:
// the backend sends the reason as a code beside its English.
const notInstalled = {
  recallNote: 'the embedding model nomic-embed-text is not installed (hint: hearth models pull nomic-embed-text)',
  recallWhy: { code: 'recall.notInstalled', args: { model: 'nomic-embed-text' } },
};

function open(why: { recallNote: string; recallWhy: unknown } = notInstalled) {
  localStorage.setItem('hearth.settingsSection', 'memory');
  const fake = fakeApi();
  const status = fakeStatus({ recall: 'keyword', ...why } as never);
  const app = createApp(fake.api, createStatusStore(async () => status));
  void app.status.refresh();
  render(SettingsView, { props: { app } });
}

afterEach(() => setLocale('en'));

describe('Settings › Memory: why recall is keyword-only', () => {
  it('says it in English, with a space before the dash', async () => {
    open();
    const mode = await vi.waitFor(() => screen.getByTestId('recall-mode'));
    expect(mode.textContent?.replace(/\s+/g, ' ').trim()).toBe(
      'Recall searches your memory by words only. — the embedding model nomic-embed-text is not installed (hint: Download it in Models)',
    );
  });

  it('says it in Chinese in a zh-CN window', async () => {
    setLocale('zh-CN');
    open();
    const mode = await vi.waitFor(() => screen.getByTestId('recall-mode'));
    expect(mode.textContent).toContain('嵌入模型 nomic-embed-text 尚未安装（提示：在“模型”中下载）');
    expect(mode.textContent).not.toContain('is not installed');
  });

  it('says what to do when the model could not be checked, in Chinese', async () => {
    setLocale('zh-CN');
    const args = { model: 'nomic-embed-text', error: 'connection refused', host: 'http://127.0.0.1:11434' };
    open({
      recallNote: 'the embedding model nomic-embed-text could not be checked: connection refused',
      recallWhy: { code: 'recall.checkFailed', args },
    });
    const mode = await vi.waitFor(() => screen.getByTestId('recall-mode'));
    const text = mode.textContent ?? '';
    expect(text).toContain('无法检查嵌入模型 nomic-embed-text：connection refused（提示：确认 Ollama 正在 http://127.0.0.1:11434 运行');
    expect(text).toContain('在“模型”中下载该模型');
    expect(text).toContain('在“设置 › 记忆”中清空嵌入模型');
    expect(text).not.toContain('could not be checked');
  });
});
