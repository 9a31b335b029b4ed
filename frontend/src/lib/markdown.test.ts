import { describe, expect, it } from 'vitest';
import { renderMarkdown, splitBlocks, splitGrowing } from './markdown';

describe('markdown', () => {
  it('renders GFM, highlights code with a copy button, and strips scripts', () => {
    const html = renderMarkdown('**bold** <script>alert(1)</script><img src=x onerror=alert(1)>\n\n```go\nfunc main() {}\n```', {
      copyLabel: 'Copy',
    });
    expect(html).toContain('<strong>bold</strong>');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('onerror');
    expect(html).toContain('<button type="button" class="copy" data-copy="1">Copy</button>');
    expect(html).toMatch(/<span class="hljs-keyword">func<\/span>/);
    expect(renderMarkdown('[x](https://e.org)')).toContain('target="_blank"');
    expect(renderMarkdown('[x](javascript:alert(1))')).not.toContain('javascript:');
  });

  it('splits at blank lines but never inside a code fence', () => {
    expect(splitBlocks('a\n\nb\n\n```\nx\n\ny\n```\n\nc')).toEqual(['a', 'b', '```\nx\n\ny\n```', 'c']);
    expect(splitBlocks('a\n\n')).toEqual(['a', '']);
  });

  it('splits a growing text like the whole text, re-reading only the tail', () => {
    const full = 'Intro line\n\n1. one\n2. two\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n\nThe end.\n';
    const st = { text: '', blocks: [] as string[], starts: [] as number[] };
    for (let i = 1; i <= full.length; i += 3) {
      const part = full.slice(0, i);
      expect(splitGrowing(part, st)).toEqual(splitBlocks(part));
    }
    expect(splitGrowing('other', st)).toEqual(['other']);
  });
});
