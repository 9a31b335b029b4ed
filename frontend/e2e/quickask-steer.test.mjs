// Quick ask while its answer runs (docs/reminders-and-tray.md#quick-ask), against the dev
// build, the real Go backend and a scripted fake Ollama: the box keeps a field under the
// running answer; Enter there sends in the default mode (steer), the message waits in view
// with its mode, and the model's very next request — after the tool's result — holds it,
// shown in the answer where it was taken. The tool call waits on a gate file the test
// creates once the message waits, so nothing depends on how fast a machine is.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hearthWindow, waitFor } from './harness.mjs';

const script = {
  models: [{ name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools'] }],
  replies: [
    { toolCalls: [{ name: 'exec', arguments: { command: 'while [ ! -e qgate ]; do sleep 0.1; done; echo qgate-open' } }], promptEvalCount: 300, evalCount: 9 },
    { content: 'Built with the release profile.' },
  ],
};

let ollama, app, page, errors;
const win = hearthWindow(script);
before(async () => ({ ollama, app, page, errors } = await win.start()));
after(() => win.stop());

const chats = async () => (await fetch(`${ollama.host}/_fake/chats`)).json();

describe('Quick ask while it works', () => {
  test('a message sent while the answer runs steers it: it waits in view, then reaches the next request after the tool result', async () => {
    await page.setViewportSize({ width: 520, height: 400 }); // the box's size
    await page.evaluate(() => window.runtime.EventsEmit('quickask:open'));
    const view = page.getByTestId('quick-ask');
    await view.getByTestId('quick-input').fill('Build the project');
    await view.getByTestId('quick-input').press('Enter');
    const card = view.getByTestId('approval-card');
    await card.waitFor({ timeout: 15000 });
    await page.keyboard.press('Enter'); // the card's default: allow once
    await card.waitFor({ state: 'detached', timeout: 15000 });

    const more = view.getByTestId('quick-more');
    await more.fill('Use the release profile');
    await more.press('Enter');
    const item = view.getByTestId('pending-item');
    await item.waitFor();
    assert.equal(await item.getByTestId('pending-mode').textContent(), 'Steer');
    assert.equal(await more.inputValue(), '');
    assert.equal((await chats()).length, 1, 'nothing was sent while the tool ran');
    writeFileSync(join(app.workspace, 'qgate'), '');

    await view.getByTestId('quick-answer').getByText('Built with the release profile.').waitFor({ timeout: 20000 });
    await waitFor(async () => (await chats()).length >= 2, 'the request after the tool', 20000);
    const msgs = (await chats())[1].messages;
    const at = msgs.findLastIndex((m) => m.role === 'tool');
    assert.match(msgs[at].content, /qgate-open/);
    const tail = msgs.slice(at + 1).map((m) => [m.role, m.content.split('\n\n[Runtime Context]')[0]]);
    assert.deepEqual(tail, [['user', 'Use the release profile']]);
    assert.equal(await item.count(), 0, 'the list emptied when the run took it');
    assert.match(await view.getByTestId('quick-steer').textContent(), /You, meanwhile:\s*Use the release profile/);
    await view.locator('[data-testid="quick-answer"][data-status="ok"]').waitFor();
    assert.equal(await more.count(), 0, 'the field goes with the run');
    assert.deepEqual(errors, []);
  });
});
