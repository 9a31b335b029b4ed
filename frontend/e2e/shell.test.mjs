// What a person sees when Hearth opens: the shell, the footer's status, the config problem
// banner, and the theme following the system.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, openBrowser, openPage, repoRoot, startFakeOllama, startHearth } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });

let chrome;
before(async () => {
  chrome = await openBrowser();
});
after(async () => {
  await chrome?.close();
});

describe('the window shell', () => {
  let ollama, app;
  before(async () => {
    ollama = await startFakeOllama();
    app = await startHearth({ ollamaHost: ollama.host });
  });
  after(async () => {
    await app?.stop();
    await ollama?.stop();
  });

  test('shows sidebar, chat, a ready composer and a live footer', async () => {
    const { page, errors, context } = await openPage(chrome.browser, app.url);
    await page.getByRole('heading', { name: 'New chat' }).waitFor();
    assert.ok(await page.getByRole('tab', { name: 'Chats' }).isVisible());
    // The list arrives from ListSessions, which answers at once (the sessions service needs
    // no agent); wait for the state rather than a fixed time.
    await page.getByText('No chats yet').waitFor({ timeout: 5000 });

    const composer = page.getByRole('textbox', { name: 'Message Hearth…' });
    assert.equal(await composer.isDisabled(), false);
    // Send waits for something to send.
    assert.equal(await page.getByRole('button', { name: 'Send' }).isDisabled(), true);

    // The footer comes from App.Status() through the real Go backend.
    const ollamaStatus = page.getByTestId('status-ollama');
    await ollamaStatus.filter({ hasText: `at ${ollama.host}` }).waitFor();
    assert.match(await ollamaStatus.innerText(), /^\s*Ollama \S+ at http:\/\/127\.0\.0\.1:\d+\s*$/);
    assert.match(await page.getByTestId('status-workspace').textContent(), new RegExp(app.workspace));
    assert.match(await page.getByTestId('status-model').textContent(), /ollama\/qwen3:4b/);
    assert.match(await page.locator('#composer-hint').textContent(), /Enter sends/);
    await page.screenshot({ path: join(shots, 'shell.png') });
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('memory tab lists the files that onboarding wrote', async () => {
    const { page, context } = await openPage(chrome.browser, app.url);
    await page.getByRole('tab', { name: 'Memory' }).click();
    await page.getByRole('navigation', { name: 'Memory files' }).getByRole('button', { name: 'SOUL.md' }).waitFor();
    // The path arrives with the first App.Status() answer.
    await page.getByRole('tabpanel').getByText(`In ${app.workspace}`).waitFor();
    for (const f of ['AGENTS.md', 'SOUL.md', 'USER.md', 'TOOLS.md', 'HEARTBEAT.md', 'memory/MEMORY.md', 'memory/HISTORY.md']) {
      assert.ok(existsSync(join(app.workspace, f)), `${f} was not written by onboarding`);
    }
    await context.close();
  });

  test('follows the system theme', async () => {
    const bg = async (scheme) => {
      const { page, context } = await openPage(chrome.browser, app.url, { colorScheme: scheme });
      await page.getByRole('heading', { name: 'New chat' }).waitFor();
      const colour = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      if (scheme === 'dark') await page.screenshot({ path: join(shots, 'shell-dark.png') });
      await context.close();
      return colour;
    };
    const light = await bg('light');
    const dark = await bg('dark');
    const lum = (c) => c.match(/\d+/g).slice(0, 3).reduce((a, b) => a + Number(b), 0);
    assert.ok(lum(light) > 600, `light background ${light}`);
    assert.ok(lum(dark) < 150, `dark background ${dark}`);
  });

  test('speaks Simplified Chinese on a Chinese system', async () => {
    const { page, context } = await openPage(chrome.browser, app.url, { locale: 'zh-CN' });
    await page.getByRole('heading', { name: '新对话' }).waitFor();
    assert.ok(await page.getByRole('tab', { name: '记忆' }).isVisible());
    await context.close();
  });
});

describe('on a system whose locale variables say Chinese', () => {
  let app;
  before(async () => {
    app = await startHearth({ env: { LANG: 'zh_CN.UTF-8' } });
  });
  after(async () => {
    await app?.stop();
  });

  // The desktop's web view falls back to English when the system's locale is not
  // generated, while LANG still says Chinese: the window speaks as the tray does.
  test('speaks Chinese although the web view says English', async () => {
    const { page, context } = await openPage(chrome.browser, app.url, { locale: 'en-US' });
    await page.getByRole('heading', { name: '新对话' }).waitFor();
    assert.ok(await page.getByRole('tab', { name: '记忆' }).isVisible());
    await context.close();
  });
});

describe('when Ollama is not running', () => {
  let app, port, ollama;
  before(async () => {
    port = await freePort();
    app = await startHearth({ ollamaHost: `127.0.0.1:${port}` });
  });
  after(async () => {
    await app?.stop();
    await ollama?.stop();
  });

  test('the footer and composer say what to do, and notice when it starts', async () => {
    const { page, context } = await openPage(chrome.browser, app.url);
    const status = page.getByTestId('status-ollama');
    await status.filter({ hasText: 'not reachable' }).waitFor();
    // No `ollama` on this PATH: no Start button, and no terminal command either.
    const hint = await page.locator('#composer-hint').textContent();
    assert.match(hint, /install or start it/);
    assert.doesNotMatch(hint, /ollama serve/);

    ollama = await startFakeOllama(port);
    await status.click(); // "check again"
    await status.filter({ hasText: /^\s*Ollama \S+ at/ }).waitFor({ timeout: 10000 });
    assert.match(await page.locator('#composer-hint').textContent(), /Enter sends/);
    await context.close();
  });
});

describe('with a broken config.json', () => {
  const broken = '{\n  "agents": {\n    "defaults": {"model": "ollama/qwen3:4b",}\n  }\n}\n';
  let app;
  before(async () => {
    app = await startHearth({ config: broken });
  });
  after(async () => {
    await app?.stop();
  });

  test('starts on defaults, shows where the error is, and keeps the file', async () => {
    const { page, context } = await openPage(chrome.browser, app.url);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const text = await alert.textContent();
    assert.match(text, /config\.json: line 3, column \d+/, text);
    assert.match(text, /remove the comma before this closing bracket/, text);
    assert.match(text, /will not be overwritten/);
    assert.match(await page.getByTestId('status-model').textContent(), /ollama\/qwen3:4b/);
    await page.screenshot({ path: join(shots, 'broken-config.png') });
    assert.equal(readFileSync(app.configPath, 'utf8'), broken);
    await context.close();
  });
});
