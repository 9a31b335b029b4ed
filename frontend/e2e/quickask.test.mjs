// The window side of the tray's Quick ask, as a person uses it: the tray's "Quick ask…"
// (here the event background.go emits, "quickask:open") covers the window with a small
// view; one question is answered by the real backend (fake Ollama) in a chat of its own,
// which stays in the sidebar; Esc leaves the full window as it was, and Open in Hearth
// shows the whole chat. The native smoke (scripts/smoke.sh) clicks the real tray entry and
// checks the window's size and title.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openBrowser, openPage, repoRoot, startFakeOllama, startHearth } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });

const model = { name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools'] };
let chrome, ollama, app;

before(async () => {
  chrome = await openBrowser();
  ollama = await startFakeOllama(undefined, {
    models: [model],
    replies: [
      { content: 'Soft-boiled eggs take **six to seven** minutes.', promptEvalCount: 200, evalCount: 12 },
      { content: 'Rice needs about twelve minutes.', promptEvalCount: 200, evalCount: 8 },
      { toolCalls: [{ name: 'exec', arguments: { command: 'echo quick-ok > quick.txt' } }], promptEvalCount: 300, evalCount: 9 },
      { content: 'I wrote quick.txt for you.', promptEvalCount: 320, evalCount: 7 },
    ],
  });
  app = await startHearth({ ollamaHost: ollama.host });
});
after(async () => {
  await chrome?.close();
  await app?.stop();
  await ollama?.stop();
});

const quickAsk = (page) => page.evaluate(() => window.runtime.EventsEmit('quickask:open'));

// The tray's own "Quick ask…" entry, clicked over D-Bus as a tray host would (the item is
// on the session bus even with no host to show it).
async function clickTray(label) {
  const item = `org.kde.StatusNotifierItem-${app.pid}-1`;
  const owned = () =>
    execFileSync('gdbus', ['call', '--session', '-d', 'org.freedesktop.DBus', '-o', '/org/freedesktop/DBus', '-m', 'org.freedesktop.DBus.NameHasOwner', item], { encoding: 'utf8' }).includes('true');
  for (let i = 0; i < 150 && !owned(); i++) await new Promise((r) => setTimeout(r, 100)); // the tray starts after the window
  const bus = (...args) => execFileSync('gdbus', ['call', '--session', '-d', item, '-o', '/StatusNotifierItem/menu', ...args], { encoding: 'utf8' });
  const layout = bus('-m', 'com.canonical.dbusmenu.GetLayout', '--', '0', '-1', '@as []');
  const id = layout.match(new RegExp(`\\((\\d+), \\{[^}]*'label': <'${label}'>`))?.[1];
  assert.ok(id, `the tray menu has "${label}": ${layout}`);
  bus('-m', 'com.canonical.dbusmenu.Event', id, 'clicked', "<''>", '0');
}

describe('Quick ask', () => {
  test('ask one question from the tray, read the answer, and go back to what you were doing', async () => {
    const { page, errors, context } = await openPage(chrome.browser, app.url);
    await page.getByTestId('first-run').getByRole('button', { name: 'Skip setup' }).click();
    // Something half-typed in the full window stays as it was.
    const composer = page.getByRole('textbox', { name: 'Message Hearth…' });
    await composer.fill('a draft I keep');

    await quickAsk(page);
    const view = page.getByTestId('quick-ask');
    await view.getByRole('heading', { name: 'Quick ask' }).waitFor();
    const box = view.getByTestId('quick-input');
    assert.ok(await box.evaluate((el) => el === document.activeElement), 'the question field has the focus');
    await box.fill('How long do soft-boiled eggs take?');
    await box.press('Enter');
    await view.getByTestId('quick-question').getByText('How long do soft-boiled eggs take?').waitFor();
    const answer = view.getByTestId('quick-answer');
    await answer.getByText('Soft-boiled eggs take').waitFor();
    assert.equal(await answer.locator('strong').innerText(), 'six to seven');
    await page.locator('[data-testid="quick-answer"][data-status="ok"]').waitFor();

    // Esc: the full window, as it was; the quick question is a chat in the sidebar.
    await page.keyboard.press('Escape');
    await view.waitFor({ state: 'detached' });
    assert.equal(await composer.inputValue(), 'a draft I keep');
    const chats = page.getByRole('list', { name: 'Chats' });
    await chats.getByText('How long do soft-boiled eggs take?').waitFor();

    // Again, and this time open the answer in the full window.
    await quickAsk(page);
    await view.getByTestId('quick-input').fill('And rice?');
    await view.getByRole('button', { name: 'Ask', exact: true }).click();
    await view.getByTestId('quick-answer').getByText('Rice needs about twelve minutes.').waitFor();
    await view.getByRole('button', { name: 'Open in Hearth' }).click();
    await view.waitFor({ state: 'detached' });
    await page.getByTestId('msg-assistant').getByText('Rice needs about twelve minutes.').waitFor();
    assert.equal(await page.getByTestId('msg-user').last().locator('.bubble').innerText(), 'And rice?');
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('allow a tool call from inside the Quick ask box', async () => {
    const { page, errors, context } = await openPage(chrome.browser, app.url);
    await page.setViewportSize({ width: 520, height: 400 }); // the box's size
    await quickAsk(page);
    const view = page.getByTestId('quick-ask');
    await view.getByTestId('quick-input').fill('Write quick-ok into quick.txt');
    await view.getByTestId('quick-input').press('Enter');
    const card = view.getByTestId('approval-card');
    await card.waitFor({ timeout: 15000 });
    assert.equal(await card.getAttribute('data-tool'), 'exec');
    assert.match(await card.locator('dl').textContent(), /command\s*echo quick-ok > quick\.txt/i);
    // The whole card — the command and every answer — fits the box without scrolling.
    const inView = (el) => {
      const r = el.getBoundingClientRect();
      const box = el.closest('[data-testid="quick-answer"]').getBoundingClientRect();
      return r.top >= box.top - 1 && r.bottom <= box.bottom + 1 && r.bottom <= innerHeight;
    };
    assert.ok(await card.locator('dl').evaluate(inView), 'the command is in view');
    for (const name of ['Allow once', 'Allow for this chat', 'Always allow this tool', 'Deny']) {
      assert.ok(await card.getByRole('button', { name }).evaluate(inView), `${name} is in view`);
    }
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Allow once');
    await page.screenshot({ path: join(shots, 'quick-ask-approval.png') });
    await page.keyboard.press('Enter'); // the card's default: allow once
    await view.getByTestId('quick-answer').getByText('I wrote quick.txt for you.').waitFor({ timeout: 15000 });
    assert.equal(await card.count(), 0, 'the card resolved');
    const file = join(app.workspace, 'quick.txt');
    assert.ok(existsSync(file), 'the allowed command ran');
    assert.equal(readFileSync(file, 'utf8').trim(), 'quick-ok');
    await page.keyboard.press('Escape');
    await view.waitFor({ state: 'detached' });
    assert.deepEqual(errors, []);
    await context.close();
  });

  test('Quick ask chosen in the tray before the page loaded opens once it is ready', async () => {
    await clickTray('Quick ask…'); // no page is open: the backend's event reaches nobody
    const { page, errors, context } = await openPage(chrome.browser, app.url);
    const view = page.getByTestId('quick-ask');
    await view.getByRole('heading', { name: 'Quick ask' }).waitFor();
    await page.keyboard.press('Escape'); // the backend leaves Quick ask as well
    await view.waitFor({ state: 'detached' });
    const again = await openPage(chrome.browser, app.url);
    await again.page.getByRole('textbox', { name: 'Message Hearth…' }).waitFor();
    assert.equal(await again.page.getByTestId('quick-ask').count(), 0, 'a later page opens the full window');
    assert.deepEqual([...errors, ...again.errors], []);
    await again.context.close();
    await context.close();
  });
});
