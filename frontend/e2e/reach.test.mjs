// The MCP servers and Skills views against the dev build and the real Go backend: a Claude
// Desktop block naming a real stdio MCP server (backend/internal/fakemcp, built here) is
// imported and connects with its tools; a broken server shows its error; a server is
// edited, tested (saved, and from the form before saving) and removed; a skill is turned off and stays off after a reload.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBrowser, openPage, repoRoot, startFakeOllama, startHearth } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });

let chrome, ollama, app, page, context, errors, binDir, fakemcp;
before(async () => {
  binDir = mkdtempSync(join(tmpdir(), 'hearth-fakemcp-'));
  fakemcp = join(binDir, 'fakemcp');
  execFileSync('go', ['build', '-o', fakemcp, './backend/internal/fakemcp'], { cwd: repoRoot, stdio: 'inherit' });
  chrome = await openBrowser();
  ollama = await startFakeOllama();
  app = await startHearth({ ollamaHost: ollama.host });
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

const config = () => JSON.parse(readFileSync(app.configPath, 'utf8'));
const server = (name) => page.getByTestId(`mcp-${name}`);

describe('MCP servers', () => {
  test('a pasted Claude Desktop block that is not JSON says why and keeps the text', async () => {
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'MCP servers' }).click();
    await page.getByText('No MCP servers yet').waitFor();
    const box = page.getByRole('textbox', { name: 'Claude Desktop JSON' });
    await box.fill('"mcpServers": { "local": { "command": ');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const err = page.getByTestId('import-error');
    await err.waitFor();
    assert.match(await err.innerText(), /not valid JSON/);
    assert.equal(await box.inputValue(), '"mcpServers": { "local": { "command": ');
  });

  test('an imported stdio server connects and shows its tools; a test lists them', async () => {
    const block = JSON.stringify({ mcpServers: { local: { command: fakemcp, env: { GREETING: 'there' } } } }, null, 2);
    await page.getByRole('textbox', { name: 'Claude Desktop JSON' }).fill(block);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Imported: local' }).waitFor();
    await page.locator('[data-testid="mcp-local"][data-state="connected"]').waitFor({ timeout: 20000 });
    assert.equal(await server('local').getByTestId('mcp-tools').innerText(), '3 tools');
    await server('local').getByText('Show tools').click();
    await server('local').getByText('mcp_local_echo').waitFor();
    assert.deepEqual(config().tools.mcpServers.local, { command: fakemcp, env: { GREETING: 'there' } });

    await server('local').getByRole('button', { name: 'Test connection' }).click();
    const result = server('local').getByTestId('mcp-test');
    await result.waitFor({ timeout: 20000 });
    assert.match(await result.innerText(), /Connected to fakemcp 1\.0\.0 in \d+ ms\. It offers 3 tools:/);
    await result.getByText('mcp_local_greeting').waitFor();
    await page.screenshot({ path: join(shots, 'reach-mcp.png') });
  });

  test('a broken server shows its error, in the list and when tested', async () => {
    const block = `"broken": { "command": ${JSON.stringify(fakemcp)}, "args": ["-fail", "cannot open the notes database"] }`;
    await page.getByRole('textbox', { name: 'Claude Desktop JSON' }).fill(block);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.locator('[data-testid="mcp-broken"][data-state="failed"]').waitFor({ timeout: 20000 });
    assert.match(await server('broken').getByTestId('mcp-error').innerText(), /cannot open the notes database/);
    assert.equal(await server('broken').getByTestId('mcp-state').innerText(), 'Not connected');
    // The working server is untouched by its neighbour.
    await page.locator('[data-testid="mcp-local"][data-state="connected"]').waitFor();

    await server('broken').getByRole('button', { name: 'Test connection' }).click();
    const result = server('broken').getByTestId('mcp-test');
    await result.waitFor({ timeout: 20000 });
    assert.match(await result.innerText(), /The test failed:[\s\S]*cannot open the notes database/);
  });

  test('editing a server limits its tools and sets its timeout; removing one drops it from config.json', async () => {
    await server('local').getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit local' });
    await form.getByLabel('Only these tools').fill('echo\nadd');
    await form.getByLabel('Tool timeout (seconds)').fill('45');
    // The saved value is hidden until asked for.
    assert.equal(await form.getByTestId('masked-pairs').innerText(), 'GREETING=••••••••');
    assert.ok(!(await form.innerText()).includes('there'), 'the value is on screen');
    await form.getByRole('button', { name: 'Show values' }).click();
    assert.equal(await form.getByLabel('Environment').inputValue(), 'GREETING=there');
    await form.getByLabel('Environment').fill('GREETING');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Write NAME=value (not "GREETING").').waitFor();
    await form.getByLabel('Environment').fill('GREETING=again');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await page.locator('[data-testid="mcp-local"][data-state="connected"]').filter({ hasText: '2 tools' }).waitFor({ timeout: 20000 });
    assert.deepEqual(config().tools.mcpServers.local, {
      command: fakemcp,
      env: { GREETING: 'again' },
      enabledTools: ['echo', 'add'],
      toolTimeout: 45,
    });

    await server('broken').getByRole('button', { name: 'Remove' }).click();
    await server('broken').getByText('Remove broken?').waitFor();
    await server('broken').getByRole('button', { name: 'Remove' }).click();
    await server('broken').waitFor({ state: 'detached' });
    assert.deepEqual(Object.keys(config().tools.mcpServers), ['local']);
  });

  test('a new HTTP server is added from the form and shows why it cannot connect', async () => {
    await page.getByRole('button', { name: 'Add server' }).click();
    const form = page.getByRole('form', { name: 'New MCP server' });
    await form.getByLabel('Name', { exact: true }).fill('remote');
    await form.getByLabel('Connection').selectOption('streamableHttp');
    await form.getByLabel('URL').fill('http://127.0.0.1:9/mcp');
    await form.getByLabel('Headers').fill('Authorization: Bearer ${HEARTH_E2E_TOKEN}');
    // Tested before it is saved: the form says why it cannot connect, config.json is untouched.
    await form.getByRole('button', { name: 'Test connection' }).click();
    const tested = form.getByTestId('mcp-test');
    await tested.waitFor({ timeout: 20000 });
    assert.match(await tested.innerText(), /The test failed:[\s\S]*connection refused/);
    assert.equal(config().tools.mcpServers.remote, undefined);
    await form.getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-testid="mcp-remote"][data-state="failed"]').waitFor({ timeout: 20000 });
    assert.deepEqual(config().tools.mcpServers.remote, {
      url: 'http://127.0.0.1:9/mcp',
      headers: { Authorization: 'Bearer ${HEARTH_E2E_TOKEN}' },
    });
    assert.match(await server('remote').innerText(), /Streamable HTTP/);
  });
});

describe('skills', () => {
  test('skills list with source and availability; one turned off stays off after a reload', async () => {
    const dir = join(app.workspace, 'skills', 'transcribe');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'SKILL.md'),
      '---\nname: transcribe\ndescription: Turn recordings into text.\nbins: [hearth-no-such-whisper]\nenv: [HEARTH_E2E_WHISPER_KEY]\n---\n# Transcribe\n',
    );
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Skills' }).click();
    const memory = page.getByTestId('skill-memory');
    await memory.waitFor();
    assert.match(await memory.innerText(), /Built-in/);
    assert.equal(await memory.getAttribute('data-enabled'), 'true');

    const tr = page.getByTestId('skill-transcribe');
    assert.match(await tr.innerText(), /Workspace/);
    assert.match(await tr.innerText(), /Unavailable/);
    assert.equal(
      await tr.getByTestId('skill-missing').innerText(),
      'Missing: bin: hearth-no-such-whisper, env: HEARTH_E2E_WHISPER_KEY',
    );
    // A workspace skill opens in the memory editor; back to the list afterwards.
    await tr.getByRole('button', { name: 'Open in editor' }).click();
    await page.getByTestId('memory-editor').locator('.cm-content').getByText('Turn recordings into text.').waitFor();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Skills' }).click();

    await memory.getByRole('switch', { name: 'Offer memory to the model' }).uncheck();
    await page.locator('[data-testid="skill-memory"][data-enabled="false"]').waitFor();
    // The switch shows the change at once; the file follows when the backend answers.
    await page.locator('[data-testid="skill-memory"] input[role="switch"]:not([disabled])').waitFor();
    const kept = JSON.parse(readFileSync(join(app.workspace, '.hearth', 'skills.json'), 'utf8'));
    assert.deepEqual(kept.disabled, ['memory']);
    await page.screenshot({ path: join(shots, 'reach-skills.png') });
    await page.reload();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Skills' }).click();
    await page.locator('[data-testid="skill-memory"][data-enabled="false"]').waitFor();
    assert.equal(await page.getByRole('switch', { name: 'Offer memory to the model' }).isChecked(), false);
    assert.equal(await page.getByRole('switch', { name: 'Offer reminders to the model' }).isChecked(), true);
    assert.deepEqual(errors, []);
  });
});
