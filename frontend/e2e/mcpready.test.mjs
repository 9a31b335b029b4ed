// MCP servers are ready for the first message in the window: the dev build starts the
// configured servers as it opens, the first message waits (bounded, 5 s) for the ones still
// connecting and says so in the chat, its first model request offers the tools of the
// server that answered, and a server that never answers is not waited for again.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBrowser, openPage, repoRoot, startFakeOllama, startHearth } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });

let chrome, ollama, app, page, context, errors, binDir;
before(async () => {
  binDir = mkdtempSync(join(tmpdir(), 'hearth-fakemcp-'));
  const fakemcp = join(binDir, 'fakemcp');
  execFileSync('go', ['build', '-o', fakemcp, './backend/internal/fakemcp'], { cwd: repoRoot, stdio: 'inherit' });
  chrome = await openBrowser();
  ollama = await startFakeOllama(undefined, {
    models: [{ name: 'qwen3:4b', family: 'qwen3', contextLength: 40960, capabilities: ['completion', 'tools'] }],
    default: { content: 'Hello from the model.' },
  });
  app = await startHearth({
    ollamaHost: ollama.host,
    config: { tools: { mcpServers: { notes: { command: fakemcp }, stuck: { command: fakemcp, args: ['-hang'] } } } },
  });
  ({ page, errors, context } = await openPage(chrome.browser, app.url));
  await page.getByTestId('first-run').getByRole('button', { name: 'Skip setup' }).click();
});
after(async () => {
  await context?.close();
  await chrome?.close();
  await app?.stop();
  await ollama?.stop();
  if (binDir) rmSync(binDir, { recursive: true, force: true });
});

async function send(text) {
  const box = page.getByRole('textbox', { name: 'Message Hearth…' });
  await box.fill(text);
  await box.press('Enter');
}
const chats = async () => (await fetch(`${ollama.host}/_fake/chats`)).json();
const toolNames = (req) => (req.tools ?? []).map((t) => t.function.name);

describe('MCP servers on the first message', () => {
  test('the first message waits for the stuck server, says so, and offers the tools of the one that answered', async () => {
    await send('hello');
    await page.getByText('Hello from the model.').waitFor({ timeout: 30000 });
    const notices = await page.locator('.notice').allInnerTexts();
    assert.ok(notices.some((n) => /Waiting for MCP servers? .*stuck.* to connect \(up to 5 s\)/.test(n)), notices.join('\n'));
    assert.ok(notices.some((n) => n.includes('MCP server stuck did not connect within 5 s')), notices.join('\n'));
    const sent = await chats();
    assert.equal(sent.length, 1);
    assert.ok(toolNames(sent[0]).includes('mcp_notes_echo'), toolNames(sent[0]).join(' '));
    await page.screenshot({ path: join(shots, 'mcp-waiting.png') });
  });

  test('the next message does not wait for the stuck server again', async () => {
    await page.getByRole('button', { name: 'New chat' }).click();
    await send('hello again');
    await page.getByText('Hello from the model.').waitFor({ timeout: 30000 });
    assert.deepEqual(await page.locator('.notice').allInnerTexts(), []);
    const sent = await chats();
    assert.equal(sent.length, 2);
    assert.ok(toolNames(sent[1]).includes('mcp_notes_echo'));
    assert.deepEqual(errors, []);
  });
});
