import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/svelte';
import SettingsView from './SettingsView.svelte';
import { createApp } from '../lib/app.svelte';
import { setLocale } from '../lib/i18n.svelte';
import { createStatusStore } from '../lib/stores/status.svelte';
import { fakeApi, fakeStatus } from '../test-fixtures';

// Settings › Memory says why recall searches by words only, in the window's language:
// the backend sends the reason as a code beside its English.
function open() {
  localStorage.setItem('hearth.settingsSection', 'memory');
  const fake = fakeApi();
  const status = fakeStatus({
    recall: 'keyword',
    recallNote: 'the embedding model nomic-embed-text is not installed (hint: hearth models pull nomic-embed-text)',
    recallWhy: { code: 'recall.notInstalled', args: { model: 'nomic-embed-text' } },
  } as never);
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
      'Recall searches your memory by words only. — the embedding model nomic-embed-text is not installed (hint: hearth models pull nomic-embed-text)',
    );
  });

  it('says it in Chinese in a zh-CN window', async () => {
    setLocale('zh-CN');
    open();
    const mode = await vi.waitFor(() => screen.getByTestId('recall-mode'));
    expect(mode.textContent).toContain('嵌入模型 nomic-embed-text 尚未安装（提示：hearth models pull nomic-embed-text）');
    expect(mode.textContent).not.toContain('is not installed');
  });
});
