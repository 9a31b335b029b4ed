// Pictures to a model that cannot see them, against the dev build, the real Go backend and
// a scripted fake Ollama that has a vision model installed beside the chat's: the send is
// refused before anything is saved, the refusal offers the model that can see, a click
// switches the chat to it, and the message (still in the composer) goes with its picture to
// that model (docs/files.md#pictures).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { hearthWindow, waitFor } from './harness.mjs';

const script = {
  models: [
    { name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools'] },
    { name: 'gemma3:4b', family: 'gemma3', size: 3338801804, contextLength: 131072, capabilities: ['completion', 'vision'] },
  ],
  replies: [{ content: 'A single dot.' }],
};

let ollama, page;
const win = hearthWindow(script);
before(async () => ({ ollama, page } = await win.start()));
after(() => win.stop());

const chats = async () => (await fetch(`${ollama.host}/_fake/chats`)).json();

describe('a picture to a model that cannot see', () => {
  test('is refused with the model that can see offered; one click switches, and it goes', async () => {
    await page.locator('.box').evaluate((box) => {
      const b64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'dot.png', { type: 'image/png' }));
      box.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await page.getByRole('img', { name: 'dot.png' }).waitFor();
    const box = page.getByRole('textbox', { name: 'Message Hearth…' });
    await box.fill('What is in this picture?');
    await box.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'cannot see pictures' }).waitFor();
    assert.equal((await chats()).length, 0, 'nothing reached a model');
    await page.getByTestId('vision-offer').getByRole('button', { name: 'Use gemma3:4b for this chat' }).click();
    await page.getByTestId('vision-offer').waitFor({ state: 'detached' });
    // The message and its picture are still in the composer: send them again.
    assert.equal(await box.inputValue(), 'What is in this picture?');
    await page.getByRole('img', { name: 'dot.png' }).waitFor();
    await box.press('Enter');
    await page.getByText('A single dot.').waitFor();
    await waitFor(async () => (await chats()).length === 1, 'one request');
    const [req] = await chats();
    assert.equal(req.model, 'gemma3:4b');
    assert.equal(req.messages.at(-1).images?.length, 1);
  });
});
