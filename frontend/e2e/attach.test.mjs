// Attaching files in the window (docs/files.md#attaching-files), against the dev build, the
// real Go backend and a scripted fake Ollama: a text file dropped on the composer shows as a
// chip, goes with the message, its text reaches the model (the fake's request log), the chat
// notes what it did, the answer's citation shows as a source under it — a click shows the
// file read-only at the cited line, marked — and the chip stays
// on the message when the chat is opened again. A file Hearth cannot read shows its problem
// on its chip and the rest of the message still goes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hearthWindow, repoRoot, waitFor } from './harness.mjs';

const script = {
  models: [
    { name: 'qwen3:4b', family: 'qwen3', size: 2497293918, contextLength: 40960, capabilities: ['completion', 'tools', 'thinking'], parameterSize: '4.0B', quantization: 'Q4_K_M' },
  ],
  replies: [
    { content: 'The spare key is under the blue pot [notes.txt line 2].' },
    { content: 'Noted.' },
    { content: 'Seven keys, one a sample.' },
    { content: 'The boiler is serviced in May.' },
  ],
};

mkdirSync(join(repoRoot, 'build/e2e'), { recursive: true });
let ollama, app, page;
const win = hearthWindow(script);
before(async () => ({ ollama, app, page } = await win.start()));
after(() => win.stop());

const box = () => page.getByRole('textbox', { name: 'Message Hearth…' });
const chats = async () => (await fetch(`${ollama.host}/_fake/chats`)).json();

/** Drops files ({name, type, text} or {name, type, b64}) on the composer as a file manager would. */
async function drop(files) {
  await page.evaluate((files) => {
    const dt = new DataTransfer();
    const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    for (const f of files) dt.items.add(new File([f.b64 ? bytes(f.b64) : f.text], f.name, { type: f.type }));
    const target = document.querySelector('.composer .box');
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, files);
}

describe('attaching files', () => {
  test('a dropped text file shows as a chip and its text reaches the model', async () => {
    await drop([{ name: 'notes.txt', type: 'text/plain', text: 'Household notes.\nThe spare key is under the blue pot by the door.\n' }]);
    const chip = page.getByTestId('file-chip');
    await chip.waitFor();
    assert.match(await chip.textContent(), /notes\.txt\s*66 bytes/);
    await box().fill('Where is the spare key?');
    await box().press('Enter');
    await page.getByText('The spare key is under the blue pot').waitFor();
    await waitFor(async () => (await chats()).length >= 1, 'a request to the model');
    const [first] = await chats();
    const user = first.messages.filter((m) => m.role === 'user').at(-1).content;
    assert.match(user, /Attached file notes\.txt/);
    assert.match(user, /under the blue pot by the door/);
    assert.match(user, /Where is the spare key\?/);
    // The message keeps its chip; the chat says the file went whole.
    const msg = page.getByTestId('msg-user').last();
    assert.match(await msg.getByTestId('file-chip').textContent(), /notes\.txt/);
    await page.getByText('notes.txt: whole').waitFor();
    // The answer cites the file: its source shows under the answer.
    await page.getByTestId('sources').getByRole('button', { name: 'notes.txt line 2' }).waitFor();
    // The copy is in the chat's attachments folder, beside the sessions.
    const dir = join(app.home, 'data', 'hearth', 'attachments');
    await waitFor(() => existsSync(dir) && readdirSync(dir).length === 1, 'the chat\'s attachments folder');
    const chat = readdirSync(dir)[0];
    assert.ok(readdirSync(join(dir, chat)).includes('notes.txt'));
  });

  test('a click on the text source opens the file at the cited line, marked; Esc closes it; 640 px still fits', async () => {
    const source = page.getByTestId('sources').getByRole('button', { name: 'notes.txt line 2' });
    const view = page.getByTestId('cited-file');
    const check = async () => {
      await source.click();
      await view.waitFor();
      const marked = view.locator('[data-found="true"]');
      assert.equal(await marked.count(), 1);
      assert.equal(await marked.getAttribute('data-line'), '2');
      assert.match(await marked.innerText(), /The spare key is under the blue pot by the door\./);
      await view.getByRole('button', { name: "Open in the system's viewer" }).waitFor();
    };
    await check();
    await page.keyboard.press('Escape');
    await view.waitFor({ state: 'detached' });
    const size = page.viewportSize();
    await page.setViewportSize({ width: 640, height: 560 });
    try {
      await check();
      const b = await view.boundingBox();
      assert.ok(b.x >= 0 && b.x + b.width <= 640, `the view is ${JSON.stringify(b)} at 640 px`);
      const wide = await view.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
      assert.equal(wide, false, 'the view scrolls sideways at 640 px');
      await page.screenshot({ path: join(repoRoot, 'build/e2e/attach-cited-640.png') });
      await view.getByRole('button', { name: 'Close (Esc)' }).click();
      await view.waitFor({ state: 'detached' });
    } finally {
      await page.setViewportSize(size);
    }
  });

  test('a file Hearth cannot read is refused on its chip, and the message still goes', async () => {
    await drop([{ name: 'photo.raw', type: 'application/octet-stream', text: 'not text' }]);
    await page.getByTestId('file-chip').first().waitFor();
    await box().fill('And this one?');
    await box().press('Enter');
    await page.getByText('Noted.').waitFor();
    // Once the turn ended, the message's chip says what the backend recorded: refused, and why.
    await page.getByTestId('msg-user').last().getByTestId('file-chip-error').waitFor();
    // The records come back when the chat is opened again.
    await page.reload();
    await page.getByRole('list', { name: 'Chats' }).getByText('Where is the spare key?').click();
    await page.getByText('Noted.').waitFor();
    const chips = page.getByTestId('file-chip');
    await waitFor(async () => (await chips.count()) === 2, 'both messages\' chips after reopening');
    assert.match(await page.getByTestId('file-chip-error').textContent(), /not a kind Hearth reads/);
    // What the first turn told about its file is shown again, once.
    await page.getByText('notes.txt: whole').waitFor();
    assert.equal(await page.getByText('notes.txt: whole').count(), 1);
    const sent = await chats();
    assert.equal(sent.at(-1).messages.filter((m) => m.role === 'user').at(-1).content.includes('And this one?'), true);
  });

  test('each kind of document Hearth reads (PDF, Word, HTML, CSV, Markdown, code, text) reaches the model', async () => {
    // The samples come from the Go test documents (backend/internal/testdocs): a real PDF and .docx.
    const dir = mkdtempSync(join(tmpdir(), 'hearth-samples-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    execFileSync('go', ['run', './backend/internal/testdocs/cmd/samples', dir], { cwd: repoRoot });
    const names = readdirSync(dir).sort();
    assert.equal(names.length, 7);
    await page.getByRole('button', { name: 'New chat' }).click();
    await drop(names.map((name) => ({ name, type: '', b64: readFileSync(join(dir, name)).toString('base64') })));
    await waitFor(async () => (await page.getByTestId('file-chip').count()) === 7, 'seven chips');
    await box().fill('What do the samples keep?');
    await box().press('Enter');
    await page.getByText('Seven keys, one a sample.').waitFor();
    const user = (await chats()).at(-1).messages.filter((m) => m.role === 'user').at(-1).content;
    for (const name of names) {
      const ext = name.split('.').pop();
      assert.ok(user.includes(`The ${ext} sample keeps the ${ext} key.`), `${name}'s text did not reach the model`);
    }
    // The PDF's chip says its pages once the backend has read it.
    const chip = page.getByTestId('msg-user').last().getByTestId('file-chip').filter({ hasText: 'sample.pdf' });
    await waitFor(async () => /2 pages/.test(await chip.textContent()), 'the PDF chip with its pages');
    assert.equal(await page.getByTestId('msg-user').last().getByTestId('file-chip-error').count(), 0);
  });

  test("files dropped from the desktop attach by path: the window's native drop gives their paths", async () => {
    // The native drop (Wails' wails:file-drop with the paths) as the desktop window sends it.
    const dir = mkdtempSync(join(tmpdir(), 'hearth-drop-'));
    after(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'boiler.md'), '# Boiler\n\nThe boiler is serviced every May by the plumber.\n');
    symlinkSync(join(dir, 'boiler.md'), join(dir, 'link.md'));
    await page.getByRole('button', { name: 'New chat' }).click();
    await page.evaluate((paths) => window.runtime.EventsEmit('wails:file-drop', 10, 10, paths), [join(dir, 'boiler.md'), join(dir, 'link.md')]);
    await waitFor(async () => (await page.getByTestId('file-chip').count()) === 2, 'two chips');
    assert.match(await page.getByTestId('file-chip').first().textContent(), /boiler\.md\s*59 bytes/);
    assert.match(await page.getByTestId('file-chip-error').textContent(), /a link: attach the file it points to/);
    await box().fill('When is the boiler serviced?');
    await box().press('Enter');
    await page.getByText('The boiler is serviced in May.').waitFor();
    const user = (await chats()).at(-1).messages.filter((m) => m.role === 'user').at(-1).content;
    assert.match(user, /Attached file boiler\.md/);
    assert.match(user, /serviced every May by the plumber/);
    assert.equal(await page.getByTestId('msg-user').last().getByTestId('file-chip').count(), 1); // the link was not sent
  });
});
