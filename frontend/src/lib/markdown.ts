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

// An instance of its own with its settings fixed once: given per call, DOMPurify would read
// them again for every block it cleans.
const purify = DOMPurify();
purify.setConfig({ ADD_ATTR: ['target'] });

/** Renders markdown to sanitized HTML. */
export function renderMarkdown(text: string, opts: { highlight?: boolean; copyLabel?: string } = {}): string {
  const highlight = opts.highlight ?? true;
  const copyLabel = opts.copyLabel ?? 'Copy';
  const k = `${highlight}|${copyLabel}`;
  let m = cache.get(k);
  if (!m) cache.set(k, (m = makeMarked(highlight, copyLabel)));
  const html = m.parse(text, { async: false }) as string;
  return purify.sanitize(html);
}

/**
 * Splits markdown at blank lines outside code fences. All blocks but the last are complete;
 * joining them with "\n\n" gives back the text (up to the blank lines themselves).
 */
export function splitBlocks(text: string): string[] {
  return splitFrom(text, 0).blocks;
}

/** splitBlocks from offset from (which must start a block); starts are text offsets. */
export function splitFrom(text: string, from: number): { blocks: string[]; starts: number[] } {
  const blocks: string[] = [];
  const starts: number[] = [];
  let fence = '';
  let blockStart = -1;
  let pos = from;
  while (pos <= text.length) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = text.length;
    const line = text.slice(pos, end);
    const m = line.match(/^\s{0,3}(`{3,}|~{3,})/);
    if (m) {
      if (!fence) fence = m[1];
      else if (m[1][0] === fence[0] && m[1].length >= fence.length && line.trim() === m[1]) fence = '';
    }
    // The unterminated last line may still grow: it never ends a block.
    const blank = line.trim() === '' && end < text.length;
    if (!fence && blank) {
      if (blockStart >= 0) {
        blocks.push(text.slice(blockStart, pos - 1));
        starts.push(blockStart);
        blockStart = -1;
      }
    } else if (blockStart < 0 && (line !== '' || end < text.length)) {
      blockStart = pos;
    }
    pos = end + 1;
  }
  if (blockStart >= 0) {
    blocks.push(text.slice(blockStart));
    starts.push(blockStart);
  } else {
    blocks.push('');
    starts.push(text.length);
  }
  return { blocks, starts };
}

/**
 * Splits a growing text, re-reading only from the start of the last block of the previous
 * call (a stream only appends). Call it with the same state object each time.
 */
export function splitGrowing(text: string, st: { text: string; blocks: string[]; starts: number[] }): string[] {
  const n = st.blocks.length;
  if (n > 0 && text.startsWith(st.text)) {
    const from = st.starts[n - 1];
    const tail = splitFrom(text, from);
    st.blocks = st.blocks.slice(0, n - 1).concat(tail.blocks);
    st.starts = st.starts.slice(0, n - 1).concat(tail.starts);
  } else {
    const all = splitFrom(text, 0);
    st.blocks = all.blocks;
    st.starts = all.starts;
  }
  st.text = text;
  return st.blocks;
}
