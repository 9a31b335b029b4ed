// Screenshots of typing while Hearth works (issue 31, docs/chat.md#while-it-works), in English
// and Chinese, light and dark, for a look by eye (scripts/screens.sh; SCREENS=steer runs only
// these): the waiting list under a running answer with a steer and a queued message and the
// mode beside Send (also at 640 × 450), the steer shown where it was taken with the queued
// turn after it, a stop and send, and the chat opened again with the steer marked.
// build/screens/steer-*.png.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBrowser, openPage, repoRoot, startFakeOllama, startHearth } from './harness.mjs';

const out = join(repoRoot, 'build/screens');
mkdirSync(out, { recursive: true });

const qwen = { name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools', 'thinking'], parameterSize: '4.0B', quantization: 'Q4_K_M' };
const words = {
  en: {
    skip: 'Skip setup',
    hide: 'Hide these until they change',
    box: 'Message Hearth…',
    newChat: 'New chat',
    chats: 'Chats',
    ask: 'Tidy the Downloads folder: move the photos into Pictures',
    steer: 'Keep the screenshots where they are',
    queue: 'Then tell me how much space that freed',
    answer: 'Moved 214 photos into Pictures/2026; the 31 screenshots stayed in Downloads, as you asked.',
    queued: 'About 1.8 GB: Downloads went from 2.4 GB to 0.6 GB.',
    story: ['Once upon a time,', ' in a house by the sea,', ' there lived an old clockmaker', ' who never'],
    instead: 'Make it a four-line poem instead',
    poem: 'An old clockmaker by the sea\nwound every hour but his own;\nthe tide kept time more patiently\nand left him shells, and then the moon.',
    tell: 'Tell me a long story about a clockmaker',
  },
  'zh-CN': {
    skip: '跳过设置',
    hide: '隐藏，直到它们有变化',
    box: '给 Hearth 发消息…',
    newChat: '新对话',
    chats: '对话',
    ask: '整理下载文件夹：把照片移到图片文件夹',
    steer: '截图留在原处',
    queue: '然后告诉我腾出了多少空间',
    answer: '已把 214 张照片移到 Pictures/2026；31 张截图按你的要求留在下载文件夹。',
    queued: '大约 1.8 GB：下载文件夹从 2.4 GB 减到 0.6 GB。',
    story: ['从前，', '在海边的一座房子里，', '住着一位老钟表匠，', '他从来不'],
    instead: '改成一首四行小诗',
    poem: '海边的老钟表匠\n为每个钟上弦，唯独忘了自己；\n潮水比他更耐心地计时，\n留给他贝壳，然后是月亮。',
    tell: '给我讲一个关于钟表匠的长故事',
  },
};

const exec = (command) => ({ toolCalls: [{ name: 'exec', arguments: { command } }], promptEvalCount: 900, evalCount: 24 });
// The call runs until the gate file is there, so the list is shot under a running answer.
const gated = (gate) => exec(`while [ ! -e ${gate} ]; do sleep 0.1; done; echo moved 214 photos`);

const chrome = await openBrowser();
try {
  for (const lang of ['en', 'zh-CN']) {
    const w = words[lang];
    const schemes = ['light', 'dark'];
    const replies = schemes.flatMap((scheme) => [
      gated(`gate-${scheme}`),
      { content: w.answer, promptEvalCount: 1300, evalCount: 40 },
      { content: w.queued, promptEvalCount: 1400, evalCount: 30 },
      { chunks: w.story, delayMs: 200, hang: true },
      { content: w.poem, promptEvalCount: 600, evalCount: 50 },
    ]);
    const ollama = await startFakeOllama(undefined, { models: [qwen], replies });
    const app = await startHearth({
      ollamaHost: ollama.host,
      config: { agents: { defaults: { model: 'ollama/qwen3:4b', embeddingModel: '' } }, tools: { approval: { mode: 'all' } }, ui: { language: lang } },
    });
    try {
      for (const scheme of schemes) {
        const { page: pg, context } = await openPage(chrome.browser, app.url, { colorScheme: scheme, locale: lang === 'en' ? 'en-US' : 'zh-CN' });
        const shot = (name) => pg.screenshot({ path: join(out, `${name}-${lang}-${scheme}.png`) });
        const skip = pg.getByTestId('first-run').getByRole('button', { name: w.skip });
        await skip.waitFor({ timeout: 20000 });
        await skip.click();
        const hide = pg.getByTestId('config-warnings').getByRole('button', { name: w.hide });
        if (await hide.isVisible().catch(() => false)) await hide.click();
        const box = pg.getByRole('textbox', { name: w.box });
        const say = async (text, key = 'Enter') => {
          await box.click();
          await box.fill(text);
          await box.press(key);
        };

        // A steer and a queued message wait under the running answer.
        await pg.getByRole('button', { name: w.newChat }).click();
        await say(w.ask);
        await pg.getByTestId('tool-card').waitFor({ timeout: 20000 });
        // Narrow first: the chat keeps the list in view as messages start to wait.
        await pg.setViewportSize({ width: 640, height: 450 });
        await say(w.steer);
        await pg.getByTestId('pending-item').nth(0).waitFor();
        await say(w.queue, 'Alt+Enter');
        await pg.getByTestId('pending-item').nth(1).waitFor();
        await box.fill(lang === 'en' ? 'And empty the trash' : '再清空回收站');
        await pg.waitForTimeout(400);
        await shot('steer-waiting-640x450');
        await pg.setViewportSize({ width: 1100, height: 720 });
        await pg.waitForTimeout(400);
        await shot('steer-waiting');
        await box.fill('');

        // The steer where it was taken, the queued turn after it.
        writeFileSync(join(app.workspace, `gate-${scheme}`), '');
        await pg.getByText(w.queued).waitFor({ timeout: 30000 });
        await pg.getByRole('button', { name: w.newChat }).waitFor();
        await pg.waitForTimeout(400);
        await shot('steer-taken');

        // Opened again: the steer is marked as said meanwhile.
        await pg.reload();
        await pg.getByRole('list', { name: w.chats }).getByText(w.ask).first().click(); // newest first
        await pg.getByTestId('steered').waitFor({ timeout: 20000 });
        await pg.waitForTimeout(400);
        await shot('steer-reopened');

        // Stop and send: the story stops where it was, the poem is its own turn.
        await pg.getByRole('button', { name: w.newChat }).click();
        await say(w.tell);
        await pg.getByText(w.story[1].trim(), { exact: false }).waitFor({ timeout: 20000 });
        await say(w.instead, 'Control+Shift+Enter');
        await pg.getByText(w.poem.split('\n')[0]).waitFor({ timeout: 30000 });
        await pg.waitForTimeout(400);
        await shot('steer-stopsend');
        await context.close();
      }
    } finally {
      await app.stop();
      await ollama.stop();
    }
  }
  console.log(`issue 31's screens written to ${out}`);
} finally {
  await chrome.close();
}
