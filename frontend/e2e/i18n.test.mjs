// What the backend says, in the window's language: with the UI in zh-CN, a refused tool
// call (exec is set to "never") shows its reason in Chinese on the tool card, and the
// run's notice (the tool-round limit) is Chinese too — both sent by the Go backend as a
// code with arguments (backend/i18n), worded by the window. The model still reads English.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, hearthWindow } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });

const script = {
  models: [
    { name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools'], parameterSize: '4.0B', quantization: 'Q4_K_M' },
  ],
  replies: [
    { toolCalls: [{ name: 'exec', arguments: { command: 'ls' } }], promptEvalCount: 300, evalCount: 9 },
    { content: '好的，我不会运行它。' },
  ],
};

let chrome, ollama, app, page, context, errors;
const win = hearthWindow(script, {
  config: { agents: { defaults: { model: 'ollama/qwen3:4b', maxToolIterations: 1 } }, tools: { approval: { never: ['exec'] } }, ui: { language: 'zh-CN' } },
  locale: 'zh-CN',
  skipSetup: false,
});
before(async () => ({ chrome, ollama, app, page, context, errors } = await win.start()));
after(() => win.stop());

describe('backend messages in zh-CN', () => {
  test('a refused call and a notice are worded in Chinese; the model reads English', async () => {
    await page.getByTestId('first-run').getByRole('button', { name: '跳过设置' }).click();
    const box = page.getByRole('textbox', { name: '给 Hearth 发消息…' });
    await box.fill('列出文件');
    await box.press('Enter');
    await page.getByText('好的，我不会运行它。').waitFor({ timeout: 20000 });
    const tool = page.getByTestId('tool-card').filter({ hasText: 'exec' });
    assert.equal(await tool.getByTestId('approval-state').textContent(), '从不允许');
    assert.equal(await tool.getByTestId('tool-preview').textContent(), '未运行：exec 被设置为从不允许（设置 › 工具与审批）。');
    await page.getByRole('note').filter({ hasText: '已达到单个请求 1 轮工具调用的上限' }).waitFor();
    await page.screenshot({ path: join(shots, 'i18n-zh-refusal-notice.png') });

    const chats = await (await fetch(`${ollama.host}/_fake/chats`)).json();
    const toolMsg = chats[1].messages.find((m) => m.role === 'tool');
    assert.match(toolMsg.content, /the user does not allow exec/);
  });

  test('no page errors', () => {
    assert.deepEqual(errors, []);
  });
});
