// The MCP import in zh-CN against the real Go backend: a pasted block whose servers the
// import refuses (a key spelled in the wrong case, a url that is not http) says why in
// Chinese, one server a line with what to do, worded from the codes the backend sends.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, hearthWindow } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });

let page, app;
const win = hearthWindow({ models: [], replies: [] }, { config: { ui: { language: 'zh-CN' } }, locale: 'zh-CN', skipSetup: 'if-shown' });
before(async () => ({ page, app } = await win.start()));
after(() => win.stop());

describe('MCP import in zh-CN', () => {
  test('a refused block says each server’s problem in Chinese and imports nothing', async () => {
    await page.getByRole('navigation').getByRole('button', { name: 'MCP 服务器' }).click();
    const box = page.getByRole('form', { name: '从 Claude Desktop 导入' });
    await box.getByRole('textbox', { name: 'Claude Desktop JSON' }).fill('{"mcpServers": {"fs": {"Command": "npx"}, "web": {"url": "ftp://h"}}}');
    await box.getByRole('button', { name: '导入', exact: true }).click();
    const err = page.getByTestId('import-error');
    await err.waitFor();
    assert.equal(
      await err.innerText(),
      'fs：键 "Command" 应写作 "command"：键名区分大小写（在粘贴的内容中把 "Command" 改为 "command"，再重新导入；本次没有导入任何服务器）\n' +
        'web：地址 "ftp://h" 不是 http(s) 地址',
    );
    await err.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'mcp-import-zh.png') });
    await page.setViewportSize({ width: 640, height: 720 });
    await err.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'mcp-import-zh-640.png') });
    const saved = JSON.parse(readFileSync(app.configPath, 'utf8'));
    assert.equal(saved.tools?.mcpServers?.fs, undefined);
  });
});
