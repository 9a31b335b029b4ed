// Slash replies, error cards and the config banner in the window's language: with the UI
// in zh-CN, /model and /help answer in Chinese, a run Ollama cannot load fails with a
// Chinese error card and hint (the server's own words beside them), and a config.json
// with a bad value shows its problem in Chinese — each sent by the Go backend as codes
// with arguments (backend/i18n), worded by the window.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openBrowser, openPage, repoRoot, startFakeOllama, startHearth } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });

const script = {
  models: [
    { name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools'], parameterSize: '4.0B', quantization: 'Q4_K_M' },
  ],
  replies: [{ status: 500, error: 'model requires more system memory (9.0 GiB) than is available (4.1 GiB)' }],
};

let chrome, ollama;
before(async () => {
  chrome = await openBrowser();
  ollama = await startFakeOllama(undefined, script);
});
after(async () => {
  await chrome?.close();
  await ollama?.stop();
});

describe('slash replies and error cards in zh-CN', () => {
  let app, page, context, errors;
  before(async () => {
    app = await startHearth({
      ollamaHost: ollama.host,
      config: { agents: { defaults: { model: 'ollama/qwen3:4b' } }, ui: { language: 'zh-CN' } },
    });
    ({ page, errors, context } = await openPage(chrome.browser, app.url, { locale: 'zh-CN' }));
    await page.getByTestId('first-run').getByRole('button', { name: '跳过设置' }).click();
  });
  after(async () => {
    await context?.close();
    await app?.stop();
  });

  const send = async (text) => {
    const box = page.getByRole('textbox', { name: '给 Hearth 发消息…' });
    await box.fill(text);
    await box.press('Enter');
  };

  test('/model and /help answer in Chinese, as plain text', async () => {
    await send('/model');
    const reply = page.getByTestId('command-reply').last();
    await reply.filter({ hasText: '模型：ollama/qwen3:4b' }).waitFor({ timeout: 20000 });
    assert.equal(await reply.textContent(), '模型：ollama/qwen3:4b\n用 /model <provider>/<model> 切换，例如 /model ollama/qwen3:4b。');

    await send('/help');
    const help = page.getByTestId('command-reply').filter({ hasText: '命令：' });
    await help.waitFor();
    const lines = (await help.textContent()).split('\n');
    assert.equal(lines[0], '命令：');
    assert.ok(lines.includes('  /new            归档当前对话并开始新对话'), lines.join('\n'));
    assert.ok(lines.includes('  /remember 内容  把一条事实存入长期记忆（memory/MEMORY.md）'), lines.join('\n'));
    assert.equal(lines.at(-1), '  /help           显示此列表');
    // Line breaks are kept: the reply is one block of pre-wrapped text, not Markdown.
    assert.equal(await help.evaluate((el) => getComputedStyle(el).whiteSpace), 'pre-wrap');
  });

  test('a failed run shows its error card and hint in Chinese, the server’s words beside them', async () => {
    await send('你好');
    const card = page.getByTestId('error-card').last();
    await card.waitFor({ timeout: 20000 });
    assert.equal(await card.getByTestId('error-text').textContent(), 'Ollama 无法加载模型 qwen3:4b');
    assert.equal(
      await card.getByTestId('error-hint').textContent(),
      '该模型需要的内存超过了空闲内存——请换一个更小的模型，或调低 agents.defaults.contextTokens',
    );
    assert.match(await card.textContent(), /requires more system memory/);
    await page.screenshot({ path: join(shots, 'i18n-zh-slash-error.png') });
  });

  test('no page errors', () => {
    assert.deepEqual(errors, []);
  });
});

describe('a config.json with a bad value in zh-CN', () => {
  let app, page, context, errors;
  before(async () => {
    app = await startHearth({
      ollamaHost: ollama.host,
      config: '{\n  "agents": {"defaults": {"temperature": 7}}\n}\n',
    });
    ({ page, errors, context } = await openPage(chrome.browser, app.url, { locale: 'zh-CN' }));
  });
  after(async () => {
    await context?.close();
    await app?.stop();
  });

  test('the banner names the place and says what is wrong and what to do, in Chinese', async () => {
    const problems = page.getByTestId('config-problems');
    await problems.waitFor({ timeout: 20000 });
    const text = await problems.textContent();
    assert.match(text, /第 2 行，第 \d+ 列/);
    assert.match(text, /agents\.defaults\.temperature/);
    assert.match(text, /应在 0 到 2 之间，实际为 7/);
    assert.match(text, /请使用 0 到 2 之间的数字；使用工具时 0\.3 比较合适/);
    await page.screenshot({ path: join(shots, 'i18n-zh-config-banner.png') });
  });

  test('no page errors', () => {
    assert.deepEqual(errors, []);
  });
});
