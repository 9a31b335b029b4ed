// A failed download, in the picker's Download and in the Models view: it wraps inside its
// container, names the model in the UI language, keeps the provider's words behind
// "Details", and goes away when a later download succeeds.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/svelte';
import { tick } from 'svelte';
import DownloadButton from './chat/DownloadButton.svelte';
import { createModelsStore } from '../lib/stores/models.svelte';
import { setLocale } from '../lib/i18n.svelte';
import { fakeApi } from '../test-fixtures';
import source from './chat/PullError.svelte?raw';
import pickerSource from './chat/ModelPicker.svelte?raw';

afterEach(() => {
  cleanup();
  setLocale('en');
});

const raw = 'pull model manifest: Get "https://registry.ollama.ai/v2/library/nope/manifests/1b": dial tcp: lookup registry.ollama.ai: no such host';
const failed = {
  done: true,
  error: `pull nope:1b: Ollama cannot reach the model registry: ${raw}`,
  why: { text: { code: 'error.pull.offline', args: { model: 'nope:1b' } }, hint: [{ code: 'error.pull.offline.hint', args: { model: 'nope:1b' } }] },
  detail: raw,
};

async function failedDownload() {
  const fake = fakeApi();
  let n = 0;
  fake.mocks.pullModel.mockImplementation(async () => `p${++n}`);
  const models = createModelsStore(fake.api);
  render(DownloadButton, { props: { model: 'ollama/nope:1b', models } });
  await fireEvent.click(screen.getByTestId('download-nope:1b'));
  fake.emitPull('p1', { model: 'nope:1b', ...failed });
  await tick();
  return { fake, models };
}

describe('a failed download', () => {
  it('is worded from its codes, names the model and keeps the raw text behind Details', async () => {
    await failedDownload();
    const box = screen.getByTestId('pull-error-nope:1b');
    expect(box.classList.contains('pull-error')).toBe(true);
    expect(box.querySelector('.text')?.textContent).toBe('pull nope:1b: Ollama cannot reach the model registry');
    const details = box.querySelector('details')!;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')?.textContent).toBe('Details');
    expect(details.querySelector('.raw')?.textContent).toBe(raw);
    // The raw text is not in the visible message: it would run past the picker's edge.
    expect(box.querySelector('.text')?.textContent).not.toContain('dial tcp');
  });

  it('wraps inside its container: its own line in a flex row, long words broken', async () => {
    await failedDownload();
    const box = screen.getByTestId('pull-error-nope:1b');
    // jsdom applies no component CSS: the structure is checked here, the rules in the source
    // (the e2e measures the box in a real browser).
    expect(box.tagName).toBe('DIV');
    expect(box.querySelector('details .raw')).toBeTruthy();
    const rule = (sel: string) => source.slice(source.indexOf(`${sel} {`), source.indexOf('}', source.indexOf(`${sel} {`)));
    expect(rule('.pull-error')).toMatch(/flex: 1 0 100%/);
    expect(rule('.pull-error')).toMatch(/min-width: 0/);
    expect(rule('.pull-error')).toMatch(/max-width: 100%/);
    expect(rule('.pull-error')).toMatch(/overflow-wrap: anywhere/);
    expect(rule('.raw')).toMatch(/white-space: pre-wrap/);
    expect(pickerSource).toMatch(/\.row\.missing \{[^}]*flex-wrap: wrap/);
  });

  it('is said in Chinese in zh-CN, Details included', async () => {
    setLocale('zh-CN');
    await failedDownload();
    const box = screen.getByTestId('pull-error-nope:1b');
    expect(box.querySelector('.text')?.textContent).toBe('下载 nope:1b：Ollama 无法访问模型库');
    expect(box.querySelector('.hint')?.textContent).toContain('请检查网络连接');
    expect(box.querySelector('summary')?.textContent).toBe('详情');
  });

  it('without codes (an older backend) still names the model in the UI language', async () => {
    setLocale('zh-CN');
    const fake = fakeApi();
    const models = createModelsStore(fake.api);
    render(DownloadButton, { props: { model: 'nope:1b', models } });
    await fireEvent.click(screen.getByTestId('download-nope:1b'));
    fake.emitPull('p1', { model: 'nope:1b', done: true, error: raw });
    await tick();
    const box = screen.getByTestId('pull-error-nope:1b');
    expect(box.querySelector('.text')?.textContent).toBe('无法下载 nope:1b。');
    expect(box.querySelector('.raw')?.textContent).toBe(raw);
  });

  it('clears when a later download of the model succeeds', async () => {
    const { fake, models } = await failedDownload();
    await fireEvent.click(screen.getByTestId('download-nope:1b'));
    fake.emitPull('p2', { model: 'nope:1b', status: 'success', done: true });
    await tick();
    expect(screen.queryByTestId('pull-error-nope:1b')).toBeNull();
    expect(screen.getByTestId('download-done')).toBeTruthy();
    expect(models.pulls.map((p) => p.id)).toEqual(['p2']);
  });

  it('a success of another model clears the failures listed before it', async () => {
    const { fake, models } = await failedDownload();
    await models.pull('tiny:1b');
    fake.emitPull('p2', { model: 'tiny:1b', status: 'success', done: true });
    await tick();
    expect(models.pulls.map((p) => p.model)).toEqual(['tiny:1b']);
  });

  it('a cancelled download is no error', async () => {
    const fake = fakeApi();
    const models = createModelsStore(fake.api);
    render(DownloadButton, { props: { model: 'nope:1b', models } });
    await fireEvent.click(screen.getByTestId('download-nope:1b'));
    fake.emitPull('p1', { model: 'nope:1b', done: true, error: 'cancelled' });
    await tick();
    expect(screen.queryByTestId('pull-error-nope:1b')).toBeNull();
  });
});
