import '@testing-library/svelte/vitest';
import { beforeAll } from 'vitest';

// jsdom parses its default style sheet at a file's first getComputedStyle, which
// testing-library's *ByRole queries call for every candidate element (is it hidden? what
// is its name?) and CodeMirror to measure: ~0.3 s of CPU, seconds under load. Inside a test
// it fell within the one-second window of a findBy… or vi.waitFor and failed it; here it
// is paid before the first test.
beforeAll(() => {
  getComputedStyle(document.body);
});
