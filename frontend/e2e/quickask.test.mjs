// The window side of the tray's Quick ask, as a person uses it: the tray's "Quick ask…"
// (here the event background.go emits, "quickask:open") covers the window with a small
// view; one question is answered by the real backend (fake Ollama) in a chat of its own,
// which stays in the sidebar; Esc leaves the full window as it was, and Open in Hearth
// shows the whole chat. The native smoke (scripts/smoke.sh) clicks the real tray entry and
// checks the window's size and title.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, openPage, startFakeOllama, startHearth } from './harness.mjs';

const model = { name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools'] };
let chrome, ollama, app;

before(async () => {
  chrome = await openBrowser();
  ollama = await startFakeOllama(undefined, {
    models: [model],
    replies: [
      { content: 'Soft-boiled eggs take **six to seven** minutes.', promptEvalCount: 200, evalCount: 12 },
      { content: 'Rice needs about twelve minutes.', promptEvalCount: 200, evalCount: 8 },
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
});
