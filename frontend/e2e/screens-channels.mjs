// Screenshots of Settings › Channels and a Telegram chat in the chat list, in English and
// Chinese, light and dark, and at the minimum width (640 px), for a look by eye
// (scripts/screens.sh; SCREENS=channels runs only these): build/screens/channels-*.png.
// The channels service behind the dev build may still be the stub (off, refusing every
// change): "channels-off" is what it says; for the rest the page's Status binding is
// replaced with a sample — connected, a pairing code open, one person paired, one asking.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openBrowser, openPage, repoRoot, startFakeOllama, startHearth } from './harness.mjs';

const out = join(repoRoot, 'build/screens');
mkdirSync(out, { recursive: true });

const qwen = { name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools'], parameterSize: '4.0B', quantization: 'Q4_K_M' };
const words = {
  en: { skip: 'Skip setup', hide: 'Hide these until they change', views: 'Views', settings: 'Settings', channels: 'Channels', phone: 'Shopping list for Saturday', desk: 'Plan the garden beds' },
  'zh-CN': { skip: '跳过设置', hide: '隐藏，直到它们有变化', views: '视图', settings: '设置', channels: '渠道', phone: '周六的购物清单', desk: '规划花坛' },
};

// A chat as the session store keeps it (backend/session): the id's ':' escaped in the name.
const chat = (id, title, question, answer) =>
  [
    { type: 'meta', v: 1, id, title, created: new Date(Date.now() - 3600_000).toISOString(), updated: new Date(Date.now() - 600_000).toISOString(), model: 'ollama/qwen3:4b', lastConsolidated: -1, archived: false },
    { type: 'message', at: new Date(Date.now() - 900_000).toISOString(), runId: 'r1', role: 'user', content: question },
    { type: 'message', at: new Date(Date.now() - 600_000).toISOString(), runId: 'r1', role: 'assistant', content: answer },
    { type: 'run', at: new Date(Date.now() - 600_000).toISOString(), runId: 'r1', status: 'ok', final: answer, usage: { promptTokens: 300, completionTokens: 9 }, durationMs: 2100, ...(id.startsWith('telegram:') ? { channel: 'telegram' } : {}) },
  ]
    .map((l) => JSON.stringify(l))
    .join('\n') + '\n';

const sample = (lang) => ({
  telegram: {
    enabled: true,
    hasToken: true,
    state: 'ready',
    bot: 'hearth_home_bot',
    code: '482913',
    codeExpires: new Date(Date.now() + 9 * 60_000 + 42_000).toISOString(),
    paired: [{ id: '5551234', name: lang === 'en' ? 'Ann Lee' : '李安', since: new Date(Date.now() - 3 * 86400_000).toISOString() }],
    requests: [{ id: '7788990', name: lang === 'en' ? 'Bob' : '小波' }],
    groups: false,
    notifyIn: 'both',
  },
});

const chrome = await openBrowser();
try {
  for (const lang of ['en', 'zh-CN']) {
    const w = words[lang];
    const ollama = await startFakeOllama(undefined, { models: [qwen], replies: [] });
    const app = await startHearth({
      ollamaHost: ollama.host,
      config: { agents: { defaults: { model: 'ollama/qwen3:4b', embeddingModel: '' } }, ui: { language: lang } },
      files: {
        'data/hearth/sessions/telegram%3A5551234.jsonl': chat('telegram:5551234', w.phone, lang === 'en' ? 'What do I need for Saturday?' : '周六需要买什么？', lang === 'en' ? 'Eggs, flour and basil.' : '鸡蛋、面粉和罗勒。'),
        'data/hearth/sessions/20261207T090000-0a1b2c3d.jsonl': chat('20261207T090000-0a1b2c3d', w.desk, lang === 'en' ? 'Which beds get the most sun?' : '哪些花坛日照最多？', lang === 'en' ? 'The south ones.' : '南边的。'),
      },
    });
    try {
      for (const scheme of ['light', 'dark']) {
        const { page: pg, context } = await openPage(chrome.browser, app.url, { colorScheme: scheme, locale: lang === 'en' ? 'en-US' : 'zh-CN' });
        const shot = (name) => pg.screenshot({ path: join(out, `${name}-${lang}-${scheme}.png`) });
        const skip = pg.getByTestId('first-run').getByRole('button', { name: w.skip });
        if (await skip.isVisible({ timeout: 5000 }).catch(() => false)) await skip.click();
        const hide = pg.getByTestId('config-warnings').getByRole('button', { name: w.hide });
        if (await hide.isVisible().catch(() => false)) await hide.click();
        await pg.getByTestId('session-telegram').first().waitFor({ timeout: 20000 });
        await pg.getByRole('navigation', { name: w.views }).getByRole('button', { name: w.settings }).click();
        await pg.getByRole('tab', { name: w.channels }).click();
        await pg.locator('[data-testid="channels-state"][data-state="off"]').waitFor();
        await pg.waitForTimeout(300);
        await shot('channels-off');
        // The sample: the page's own binding answers until the page closes.
        await pg.evaluate((s) => {
          window.go.main.ChannelsAPI.Status = async () => JSON.parse(JSON.stringify(s));
        }, sample(lang));
        await pg.locator('[data-testid="channels-state"][data-state="ready"]').waitFor({ timeout: 5000 });
        await pg.getByTestId('channels-code').waitFor();
        await pg.waitForTimeout(300);
        await shot('channels');
        await pg.getByTestId('channels-people').scrollIntoViewIfNeeded();
        await shot('channels-people');
        if (scheme === 'light') {
          await pg.setViewportSize({ width: 640, height: 900 });
          await pg.waitForTimeout(300);
          await pg.screenshot({ path: join(out, `channels-640-${lang}.png`), fullPage: true });
          await pg.getByTestId('channels-people').scrollIntoViewIfNeeded();
          await pg.screenshot({ path: join(out, `channels-640-people-${lang}.png`) });
          await pg.setViewportSize({ width: 1100, height: 720 });
        }
        // The Telegram chat in the list, opened at the desk.
        await pg.getByTestId('session-telegram').first().click();
        await pg.getByText(lang === 'en' ? 'Eggs, flour and basil.' : '鸡蛋、面粉和罗勒。').waitFor();
        await pg.waitForTimeout(300);
        await shot('channels-chat');
        await context.close();
      }
    } finally {
      await app.stop();
      await ollama.stop();
    }
  }
  console.log(`Settings › Channels' screens written to ${out}`);
} finally {
  await chrome.close();
}
