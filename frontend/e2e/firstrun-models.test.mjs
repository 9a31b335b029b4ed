// The first run's model step, against the dev build, the real Go backend and a scripted fake
// Ollama: the installed models as the model picker lists them (fit for chat first, badges and
// sizes, the embedder left out), Download of the suggested model with its progress, and the
// guide moving on once it is there (screenshots into build/e2e/).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, hearthWindow } from './harness.mjs';

const shots = join(repoRoot, 'build/e2e');
mkdirSync(shots, { recursive: true });

// Alphabetically the tiny test model and the chat-only one would come first.
const models = [
  { name: 'aaa-test:latest', family: 'llama', size: 20_000_000, contextLength: 2048, capabilities: ['completion'] },
  { name: 'gemma3:1b', family: 'gemma3', size: 815_319_791, contextLength: 32768, capabilities: ['completion'] },
  { name: 'llama3.2:3b', family: 'llama', size: 2_019_393_189, contextLength: 131072, capabilities: ['completion', 'tools'] },
  { name: 'nomic-embed-text:latest', family: 'nomic-bert', size: 274_302_450, contextLength: 2048, capabilities: ['embedding'] },
];

describe('the first run, step 2', () => {
  const win = hearthWindow(
    { models, replies: [], pulls: [{ delayMs: 150, steps: [{ status: 'pulling manifest' }, { status: 'pulling', total: 1000, completed: 400 }, { status: 'success' }] }] },
    { config: { agents: { defaults: { model: 'ollama/missing:7b' } } }, skipSetup: false },
  );
  let page, errors;
  before(async () => ({ page, errors } = await win.start()));
  after(() => win.stop());

  test('lists the models fit for chat first, with badges and sizes, and downloads the suggested one', async () => {
    const guide = page.getByTestId('first-run');
    const list = guide.getByTestId('firstrun-models');
    await list.waitFor({ timeout: 15000 });
    assert.match(await guide.textContent(), /Step 2 of 3/);
    const ids = await list.getByRole('button').evaluateAll((bs) => bs.map((b) => b.dataset.testid));
    assert.deepEqual(ids, ['firstrun-model-llama3.2:3b', 'firstrun-model-gemma3:1b', 'firstrun-model-aaa-test:latest']);
    const best = guide.getByTestId('firstrun-model-llama3.2:3b');
    assert.match(await best.textContent(), /2\.0 GB/);
    assert.match(await best.textContent(), /tools/);
    await page.screenshot({ path: join(shots, 'firstrun-models.png') });

    await guide.getByTestId('firstrun-suggest').getByRole('button', { name: 'Download qwen3:4b' }).click();
    // Once downloaded it is the model, and the guide moves on by itself.
    await guide.getByText('Your workspace').waitFor({ timeout: 20000 });
    assert.deepEqual(errors, []);
  });
});
