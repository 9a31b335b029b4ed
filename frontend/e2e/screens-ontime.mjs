// Screenshots of the moments "On time and as announced" (issue 30) mended, each in English
// and Chinese, light and dark, for a look by eye (scripts/screens.sh; SCREENS=ontime runs
// only these): a reminder's chat (the reminder as a reminder, a clock in the chat list),
// memory History asking before a Restore with what it would change, the approval card at
// 640 × 450 with its command in view, the Local only chip, a failed download's wrapped and
// translated error in the model picker, the first run's model step, and Activity's day
// filter and the reminder form's date and time written as the UI language writes dates.
// build/screens/.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBrowser, openPage, repoRoot, startFakeOllama, startHearth, waitFor } from './harness.mjs';

const out = join(repoRoot, 'build/screens');
mkdirSync(out, { recursive: true });

const qwen = { name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools', 'thinking'], parameterSize: '4.0B', quantization: 'Q4_K_M' };
// Alphabetically the tiny test model and the chat-only one would come first.
const firstRunModels = [
  { name: 'aaa-test:latest', family: 'llama', size: 20_000_000, contextLength: 2048, capabilities: ['completion'] },
  { name: 'gemma3:1b', family: 'gemma3', size: 815_319_791, contextLength: 32768, capabilities: ['completion'] },
  { name: 'llama3.2:3b', family: 'llama', size: 2_019_393_189, contextLength: 131072, capabilities: ['completion', 'tools'] },
  { name: 'nomic-embed-text:latest', family: 'nomic-bert', size: 274_302_450, contextLength: 2048, capabilities: ['embedding'] },
];
const rawPullError = `pull model manifest: file does not exist: registry.ollama.ai/library/gemma3/manifests/4b-${'0123456789abcdef'.repeat(6)}`;
const command = 'find . -name "*.log" -mtime +30 -print && du -sh ./logs ./cache ./build && echo cleaned-up';
const long = Array.from({ length: 24 }, (_, i) => `Line ${i + 1} of an earlier answer that fills the chat.`).join('\n\n');

const memoryV1 = '# Memory\n\n## About you\n- Lives in Lyon; works as a landscape architect\n- Sister Anna: birthday 3 May\n- Prefers short answers\n';
const memoryV2 = '# Memory\n\n## About you\n- Lives in Porto; works as a landscape architect\n- Sister Anna: birthday 3 May\n- Prefers short answers\n- Has a cat called Miso\n';

const words = {
  en: { skip: 'Skip setup', hide: 'Hide these until they change', box: 'Message Hearth…', memory: 'Memory', files: 'Memory files', history: 'History', restore: 'Restore this version', changes: 'Changes of this file, newest first', views: 'Views', activity: 'Activity', reminders: 'Reminders', newReminder: 'New reminder' },
  'zh-CN': { skip: '跳过设置', hide: '隐藏，直到它们有变化', box: '给 Hearth 发消息…', memory: '记忆', files: '记忆文件', history: '历史', restore: '恢复此版本', changes: '此文件的更改，最新的在前', views: '视图', activity: '活动', reminders: '提醒', newReminder: '新建提醒' },
};

const ago = (min) => new Date(Date.now() - min * 60_000).toISOString();
const chrome = await openBrowser();

/** One Hearth (one at a time: a second one on the session bus hands over to the first). */
async function withHearth(script, opts, fn) {
  const ollama = await startFakeOllama(undefined, script);
  const app = await startHearth({ ollamaHost: ollama.host, ...opts });
  try {
    await fn(app, ollama);
  } finally {
    await app.stop();
    await ollama.stop();
  }
}

async function page(app, lang, scheme, size) {
  const p = await openPage(chrome.browser, app.url, { colorScheme: scheme, locale: lang === 'en' ? 'en-US' : 'zh-CN' });
  if (size) await p.page.setViewportSize(size);
  return p;
}

async function skipSetup(pg, w) {
  const skip = pg.getByTestId('first-run').getByRole('button', { name: w.skip });
  await skip.waitFor({ timeout: 20000 });
  await skip.click();
  const hide = pg.getByTestId('config-warnings').getByRole('button', { name: w.hide });
  if (await hide.isVisible().catch(() => false)) await hide.click();
}

try {
  for (const lang of ['en', 'zh-CN']) {
    const w = words[lang];
    const ui = { language: lang };

    // The first run's model step, then (setup skipped) a failed download in the picker:
    // the configured model is not installed, so the picker offers to download it.
    await withHearth(
      { models: firstRunModels, replies: [], pulls: [{ error: rawPullError }, { error: rawPullError }] },
      { config: { agents: { defaults: { model: 'ollama/gemma3:4b', embeddingModel: '' } }, ui } },
      async (app) => {
        for (const scheme of ['light', 'dark']) {
          const { page: pg, context } = await page(app, lang, scheme);
          const shot = (name) => pg.screenshot({ path: join(out, `${name}-${lang}-${scheme}.png`) });
          await pg.getByTestId('first-run').getByTestId('firstrun-models').waitFor({ timeout: 20000 });
          await pg.getByTestId('status-model').waitFor(); // the footer has heard from the backend
          await pg.waitForTimeout(300);
          await shot('ontime-firstrun-models');
          await skipSetup(pg, w);
          await pg.setViewportSize({ width: 640, height: 450 });
          await pg.getByTestId('model-picker').click();
          const menu = pg.getByTestId('model-menu');
          await menu.getByTestId('download-gemma3:4b').click();
          const err = menu.getByTestId('pull-error-gemma3:4b');
          await err.waitFor({ timeout: 20000 });
          await err.locator('summary').click();
          await err.getByTestId('pull-error-detail').waitFor();
          await err.getByTestId('pull-error-detail').scrollIntoViewIfNeeded(); // the menu scrolls
          await shot('ontime-pull-error');
          await context.close();
        }
      },
    );

    // A reminder caught up at start (its chat), memory History, an approval card at
    // 640 × 450 and local-only mode.
    const jobs = { version: 1, jobs: [{ id: 'brief001', name: lang === 'en' ? 'Morning brief' : '早间简报', message: lang === 'en' ? 'Give me my morning brief' : '给我今天的早间简报', schedule: { kind: 'every', everySeconds: 86400 }, created: ago(5000), nextRun: ago(30) }] };
    await withHearth(
      {
        models: [qwen],
        replies: [
          { content: lang === 'en' ? 'Good morning: the courtyard drawings are due today, and Anna called yesterday.' : '早上好：庭院图纸今天到期，Anna 昨天来过电话。', promptEvalCount: 500, evalCount: 18 },
          { content: long },
          { toolCalls: [{ name: 'exec', arguments: { command } }] },
        ],
      },
      { config: { localOnly: true, agents: { defaults: { model: 'ollama/qwen3:4b', embeddingModel: '' } }, ui }, files: { 'data/hearth/cron/jobs.json': JSON.stringify(jobs) } },
      async (app) => {
        const jobsFile = join(app.home, 'data/hearth/cron/jobs.json');
        await waitFor(() => JSON.parse(readFileSync(jobsFile, 'utf8')).jobs.find((j) => j.id === 'brief001')?.lastStatus === 'ok', 'the reminder caught up at start');
        // Two versions of MEMORY.md besides onboarding's, written as an editor does.
        const memFile = join(app.workspace, 'memory', 'MEMORY.md');
        for (const text of [memoryV1, memoryV2]) {
          writeFileSync(`${memFile}.tmp`, text);
          renameSync(`${memFile}.tmp`, memFile);
          await new Promise((r) => setTimeout(r, 1500)); // each its own change in the history
        }
        for (const scheme of ['light', 'dark']) {
          const { page: pg, context } = await page(app, lang, scheme);
          const shot = (name) => pg.screenshot({ path: join(out, `${name}-${lang}-${scheme}.png`) });
          await skipSetup(pg, w);
          // The reminder's chat: the reminder shown as one, a clock beside it in the list.
          await pg.locator('li:has([data-testid="session-reminder"]) button.open').first().click();
          await pg.getByTestId('msg-reminder').first().waitFor();
          await pg.getByTestId('msg-assistant').first().waitFor();
          await shot('ontime-reminder-chat');

          // Memory History: the outside edit is newest; Restore of the version before it
          // first shows what it would change in the file as it is now.
          await pg.getByRole('tablist').getByRole('tab', { name: w.memory }).first().click();
          await pg.getByRole('navigation', { name: w.files }).getByRole('button', { name: 'MEMORY.md', exact: true }).click();
          await pg.getByRole('button', { name: w.history, exact: true }).click();
          const rows = pg.getByRole('list', { name: w.changes }).getByRole('button');
          await waitFor(async () => (await rows.count()) >= 3, 'three changes of MEMORY.md');
          await rows.nth(1).click();
          await pg.getByRole('button', { name: w.restore }).click();
          await pg.getByTestId('memory-restore-preview').locator('span.del').first().waitFor();
          await shot('ontime-memory-restore');
          await pg.getByTestId('memory-restore-what').getByRole('button').last().click(); // Cancel

          // Activity's day filter, typed in the order the UI language writes a date.
          await pg.getByRole('navigation', { name: w.views }).getByRole('button', { name: w.activity }).click();
          const day = pg.getByTestId('date-field');
          await day.locator('input').first().click();
          const today = new Date();
          const parts = { year: String(today.getFullYear()), month: String(today.getMonth() + 1).padStart(2, '0'), day: String(today.getDate()).padStart(2, '0') };
          for (const f of lang === 'en' ? ['month', 'day', 'year'] : ['year', 'month', 'day']) await pg.keyboard.type(parts[f]);
          await pg.keyboard.press('Tab');
          await pg.waitForTimeout(500);
          await shot('ontime-activity-day');

          // The reminder form's date and time, in the same order, on the 24-hour clock.
          await pg.getByRole('navigation', { name: w.views }).getByRole('button', { name: w.reminders }).click();
          await pg.getByRole('button', { name: w.newReminder }).first().click();
          await pg.getByTestId('date-field').waitFor();
          await shot('ontime-reminder-form');

          await context.close();
        }
        // The approval card waits from here on: every page opened later shows it again.
        {
          const { page: pg, context } = await page(app, lang, 'light', { width: 640, height: 450 });
          await skipSetup(pg, w);
          const box = pg.getByRole('textbox', { name: w.box });
          await box.fill(lang === 'en' ? 'Tell me a long story' : '给我讲个长故事');
          await box.press('Enter');
          await pg.getByText('Line 24 of an earlier answer').waitFor({ timeout: 20000 });
          await box.fill(lang === 'en' ? 'Clean up the old logs' : '清理旧日志');
          await box.press('Enter');
          await pg.getByTestId('approval-card').waitFor({ timeout: 20000 });
          await pg.waitForTimeout(600);
          await pg.screenshot({ path: join(out, `ontime-approval-640x450-${lang}-light.png`) });
          await context.close();
        }
        for (const scheme of ['light', 'dark']) {
          // 640 × 450 from the start: the card comes into view when it shows, not on a resize.
          const { page: pg, context } = await page(app, lang, scheme, { width: 640, height: 450 });
          const shot = (name) => pg.screenshot({ path: join(out, `${name}-${lang}-${scheme}.png`) });
          await skipSetup(pg, w);
          // The chat with the card, with the Local only chip in the footer; then the chip
          // opens its setting.
          await pg.locator('li:has([data-testid="session-reminder"])').first().waitFor();
          const chats = pg.locator('ul li button.open').filter({ hasNot: pg.getByTestId('session-reminder') });
          await chats.first().click();
          await pg.getByTestId('approval-card').waitFor({ timeout: 20000 });
          await pg.waitForTimeout(600);
          if (scheme === 'dark') await shot('ontime-approval-640x450');
          await pg.getByTestId('status-localonly').click();
          await pg.waitForTimeout(400);
          await shot('ontime-localonly');
          await context.close();
        }
      },
    );
  }
  console.log(`issue 30's screens written to ${out}`);
} finally {
  await chrome.close();
}
