import { describe, expect, it, afterEach } from 'vitest';
import { catalogsForTest, mergeCatalogs, resolveLocale, setLocale, t, tm } from './i18n.svelte';
import { vi } from 'vitest';

describe('i18n', () => {
  afterEach(() => setLocale('en'));

  it('follows the system language when set to auto', () => {
    expect(resolveLocale('auto', ['zh-CN', 'en-US'])).toBe('zh-CN');
    expect(resolveLocale('auto', ['zh-TW'])).toBe('zh-CN');
    expect(resolveLocale('auto', ['en-GB'])).toBe('en');
    expect(resolveLocale('auto', ['fr-FR'])).toBe('en');
    expect(resolveLocale('auto', [])).toBe('en');
    expect(resolveLocale('zh-CN', ['en-US'])).toBe('zh-CN');
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    setLocale('en');
    expect(t('status.ollamaDown', { host: 'http://127.0.0.1:11434' })).toBe(
      'Ollama not reachable at http://127.0.0.1:11434',
    );
    expect(t('status.ollamaUp', { host: 'h' })).toBe('Ollama {version} at h');
  });

  it('switches language', () => {
    setLocale('zh-CN');
    expect(t('sidebar.newChat')).toBe('新对话');
    expect(document.documentElement.lang).toBe('zh-CN');
  });

  it('falls back to the key when a string is missing everywhere', () => {
    expect(t('no.such.key')).toBe('no.such.key');
  });

  it('ships the same keys and placeholders in every language', () => {
    const en = catalogsForTest.en;
    const zh = catalogsForTest['zh-CN'];
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    const holes = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
    for (const key of Object.keys(en)) {
      expect(holes(zh[key]), key).toEqual(holes(en[key]));
    }
  });

  it('merges one catalog file per area and locale, warning on a key defined twice', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const merged = mergeCatalogs({
      '../i18n/en/shell.json': { 'a.x': 'X' },
      '../i18n/en/memory.json': { 'm.y': 'Y', 'a.x': 'again' },
      '../i18n/zh-CN/memory.json': { 'm.y': '乙' },
    });
    expect(merged.en).toEqual({ 'a.x': 'X', 'm.y': 'Y' });
    expect(merged['zh-CN']).toEqual({ 'm.y': '乙' });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('a.x defined twice'));
    warn.mockRestore();
  });

  it('words what the backend says from its own catalogs (backend/i18n/catalog)', () => {
    setLocale('zh-CN');
    expect(tm({ code: 'tray.quit' }, 'Quit')).toBe('退出');
    expect(tm({ code: 'gate.refused.never', args: { tool: 'exec' } }, 'x')).toBe('未运行：exec 被设置为从不允许（设置 › 工具与审批）。');
    // A code this build does not know (a newer backend) shows the English beside it.
    expect(tm({ code: 'gate.somethingNew' }, 'Something new')).toBe('Something new');
    expect(tm({}, 'Plain English')).toBe('Plain English');
    expect(tm(undefined)).toBe('');
  });

  it('words a list argument item by item and joins it as the language does (the fit notice)', () => {
    const m = {
      code: 'notice.fit.leftOut',
      args: { limit: '2048' },
      lists: { parts: [{ code: 'notice.fit.turns', args: { n: '3' } }, { code: 'notice.fit.recall' }], too: null, advice: [] },
    };
    setLocale('zh-CN');
    expect(tm(m, 'english')).toBe('为放进模型的上下文窗口（2048 个 token），省略了：这个对话中较早的 3 轮、回忆起的记忆。');
    setLocale('en');
    expect(tm(m, 'english')).toBe("Left out to fit the model's context window (2048 tokens): 3 older turns of this chat, the recalled memory.");
  });

  it('has no key in both the window and the backend catalogs', async () => {
    const own = import.meta.glob<Record<string, string>>('../i18n/en/*.json', { eager: true, import: 'default' });
    const backend = import.meta.glob<Record<string, string>>('../../../backend/i18n/catalog/en/*.json', {
      eager: true,
      import: 'default',
    });
    const ownKeys = new Set(Object.values(own).flatMap((m) => Object.keys(m)));
    const backendKeys = Object.values(backend).flatMap((m) => Object.keys(m));
    expect(backendKeys.length).toBeGreaterThan(10);
    expect(backendKeys.filter((k) => ownKeys.has(k))).toEqual([]);
  });
});

describe('applyAppearance', () => {
  afterEach(() => setLocale('en'));

  it('takes "auto" from the backend system language before the web view\'s own', async () => {
    const { applyAppearance } = await import('./app.svelte');
    const { locale } = await import('./i18n.svelte');
    const langs = vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['en-US']);
    applyAppearance({ theme: 'auto', language: 'auto', systemLanguage: 'zh-CN' });
    expect(locale()).toBe('zh-CN');
    applyAppearance({ theme: 'auto', language: 'auto' });
    expect(locale()).toBe('en');
    applyAppearance({ theme: 'auto', language: 'en', systemLanguage: 'zh-CN' });
    expect(locale()).toBe('en');
    langs.mockRestore();
  });

  it('names the theme as the colour scheme, so native popups (a <select>\'s) follow it', async () => {
    const { applyAppearance } = await import('./app.svelte');
    const meta = document.createElement('meta');
    meta.name = 'color-scheme';
    meta.content = 'light dark';
    document.head.append(meta);
    const root = document.documentElement;
    applyAppearance({ theme: 'dark', language: 'en' });
    expect([root.dataset.theme, root.style.getPropertyValue('color-scheme'), meta.content]).toEqual(['dark', 'dark', 'dark']);
    applyAppearance({ theme: 'light', language: 'en' });
    expect([root.dataset.theme, root.style.getPropertyValue('color-scheme'), meta.content]).toEqual(['light', 'light', 'light']);
    applyAppearance({ theme: 'auto', language: 'en' });
    expect([root.dataset.theme, root.style.getPropertyValue('color-scheme'), meta.content]).toEqual([undefined, 'light dark', 'light dark']);
    meta.remove();
  });
});

describe('hints in the window', () => {
  // Backend messages the terminal words with a command: the window names its button or view.
  const codes = [
    'error.hint.ollamaDown',
    'error.ollama.signin.hint',
    'error.ollama.modelMissing.hint',
    'error.ollama.internal.hint',
    'error.model.switch.hint',
    'memory.restore.absent',
    'memory.rev.unknown',
    'recall.notInstalled',
    'recall.checkFailed',
    'schedule.limit.count.hint',
  ];
  it('quote no terminal command, in either language', () => {
    for (const l of ['en', 'zh-CN'] as const) {
      setLocale(l);
      for (const code of codes) {
        const text = tm({ code, args: { model: 'qwen3:4b', file: 'MEMORY.md', rev: 'abc1', name: 'MEMORY.md', host: 'h', error: 'e' } });
        expect(text, `${l} ${code}`).not.toMatch(/`|hearth (models|memory|cron)|ollama (serve|signin)|journalctl/);
        expect(text).not.toBe(code);
      }
    }
    setLocale('en');
    expect(tm({ code: 'error.ollama.modelMissing.hint', args: { model: 'qwen3:4b' } })).toContain('Download');
  });
});
