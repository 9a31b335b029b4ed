// Markdown for answers: marked parses, highlight.js colours code, DOMPurify cleans the
// result before it reaches {@html}. Streaming answers are split into blocks: every block
// but the last is final and rendered once; only the growing last block is parsed again.
import { Marked, type Tokens } from 'marked';
import DOMPurify from 'dompurify';
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const langs = { bash, c, cpp, css, diff, go, java, javascript, json, markdown, python, rust, shell, sql, typescript, xml, yaml };
for (const [name, def] of Object.entries(langs)) hljs.registerLanguage(name, def);
hljs.registerAliases(['sh', 'zsh', 'console'], { languageName: 'bash' });
hljs.registerAliases(['js', 'jsx', 'mjs'], { languageName: 'javascript' });
hljs.registerAliases(['ts', 'tsx'], { languageName: 'typescript' });
hljs.registerAliases(['py'], { languageName: 'python' });
hljs.registerAliases(['html', 'svg'], { languageName: 'xml' });
hljs.registerAliases(['yml'], { languageName: 'yaml' });
hljs.registerAliases(['golang'], { languageName: 'go' });
hljs.registerAliases(['rs'], { languageName: 'rust' });
hljs.registerAliases(['md'], { languageName: 'markdown' });

const escapeHTML = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function makeMarked(highlight: boolean, copyLabel: string) {
  return new Marked({
    gfm: true,
    breaks: false,
    renderer: {
      code({ text, lang }: Tokens.Code) {
        const language = (lang ?? '').trim().split(/\s+/)[0].toLowerCase();
        let body: string;
        if (highlight && language && hljs.getLanguage(language)) {
          body = hljs.highlight(text, { language, ignoreIllegals: true }).value;
        } else {
          body = escapeHTML(text);
        }
        const label = language ? `<span class="lang">${escapeHTML(language)}</span>` : '';
        return `<div class="code-block">${label}<button type="button" class="copy" data-copy="1">${escapeHTML(copyLabel)}</button><pre><code class="hljs${language ? ` language-${escapeHTML(language)}` : ''}">${body}</code></pre></div>`;
      },
      link({ href, title, tokens }: Tokens.Link) {
        // `this` is the renderer; marked binds it when calling.
        const inner = (this as unknown as { parser: { parseInline(t: unknown): string } }).parser.parseInline(tokens);
        const t = title ? ` title="${escapeHTML(title)}"` : '';
        return `<a href="${escapeHTML(href)}"${t} target="_blank" rel="noopener noreferrer">${inner}</a>`;
      },
    },
  });
}

const cache = new Map<string, ReturnType<typeof makeMarked>>();

/** Renders markdown to sanitized HTML. */
export function renderMarkdown(text: string, opts: { highlight?: boolean; copyLabel?: string } = {}): string {
  const highlight = opts.highlight ?? true;
  const copyLabel = opts.copyLabel ?? 'Copy';
  const k = `${highlight}|${copyLabel}`;
  let m = cache.get(k);
  if (!m) cache.set(k, (m = makeMarked(highlight, copyLabel)));
  const html = m.parse(text, { async: false }) as string;
  return DOMPurify.sanitize(html, { ADD_ATTR: ['target'] });
}

/**
 * Splits markdown at blank lines outside code fences. All blocks but the last are complete;
 * joining them with "\n\n" gives back the text (up to the blank lines themselves).
 */
export function splitBlocks(text: string): string[] {
  const lines = text.split('\n');
  const blocks: string[] = [];
  let cur: string[] = [];
  let fence = '';
  for (const line of lines) {
    const m = line.match(/^\s{0,3}(`{3,}|~{3,})/);
    if (m) {
      if (!fence) fence = m[1];
      else if (m[1][0] === fence[0] && m[1].length >= fence.length && line.trim() === m[1]) fence = '';
    }
    if (!fence && line.trim() === '' && cur.length > 0) {
      blocks.push(cur.join('\n'));
      cur = [];
      continue;
    }
    cur.push(line);
  }
  blocks.push(cur.join('\n'));
  return blocks;
}
