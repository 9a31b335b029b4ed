// CodeMirror 6 for the memory files: the Markdown editor (merge.ts adds the conflict's
// side-by-side view). Loaded on first use (a dynamic import), so the chat window's bundle
// does not carry the editor.
import { EditorState, StateEffect, StateField, type Extension } from '@codemirror/state';
import { Decoration, EditorView, drawSelection, highlightSpecialChars, keymap, placeholder, type DecorationSet } from '@codemirror/view';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { HighlightStyle, Language, LanguageSupport, syntaxHighlighting } from '@codemirror/language';
import { deleteMarkupBackward, insertNewlineContinueMarkup, markdownLanguage } from '@codemirror/lang-markdown';
import { tags } from '@lezer/highlight';
import type { MarkdownParser } from '@lezer/markdown';
import { frontMatter } from './frontmatter';

// Colours come from the window's CSS variables, so both themes follow the app's.
const theme = EditorView.theme({
  '&': { height: '100%', backgroundColor: 'var(--bg-elevated)', color: 'var(--text)', fontSize: '14px' },
  '&.cm-focused': { outline: 'none' },
  '.cm-scroller': { fontFamily: 'var(--font)', lineHeight: '1.65', overflow: 'auto' },
  '.cm-content': { padding: '18px 0 40vh', caretColor: 'var(--accent)', maxWidth: '880px' },
  '.cm-line': { padding: '0 28px' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--accent)', borderLeftWidth: '2px' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection':
    { backgroundColor: 'color-mix(in srgb, var(--accent) 22%, transparent)' },
  '.cm-placeholder': { color: 'var(--text-muted)' },
  '.cm-gutters': { backgroundColor: 'var(--bg-elevated)', borderRight: '1px solid var(--border)', color: 'var(--text-muted)' },
  // The merge view's change marks, calm in both themes: theirs amber, mine green.
  '&.cm-merge-a .cm-changedLine, .cm-deletedChunk': { backgroundColor: 'color-mix(in srgb, var(--warn-border) 16%, transparent)' },
  '&.cm-merge-b .cm-changedLine, .cm-inlineChangedLine': { backgroundColor: 'color-mix(in srgb, var(--ok) 10%, transparent)' },
  '&.cm-merge-a .cm-changedText': { background: 'color-mix(in srgb, var(--warn-border) 40%, transparent)' },
  '&.cm-merge-b .cm-changedText': { background: 'color-mix(in srgb, var(--ok) 26%, transparent)' },
  '&.cm-merge-a .cm-changedLineGutter': { background: 'var(--warn-border)' },
  '&.cm-merge-b .cm-changedLineGutter': { background: 'var(--ok)' },
});

const highlight = HighlightStyle.define([
  { tag: tags.heading1, fontSize: '1.3em', fontWeight: '700' },
  { tag: tags.heading2, fontSize: '1.15em', fontWeight: '650' },
  { tag: [tags.heading3, tags.heading4, tags.heading5, tags.heading6], fontWeight: '650' },
  { tag: tags.strong, fontWeight: '700' },
  { tag: tags.emphasis, fontStyle: 'italic' },
  { tag: tags.strikethrough, textDecoration: 'line-through' },
  { tag: [tags.link, tags.url], color: 'var(--accent)' },
  { tag: tags.monospace, fontFamily: 'var(--mono)', fontSize: '0.92em' },
  { tag: tags.quote, color: 'var(--text-muted)', fontStyle: 'italic' },
  { tag: [tags.processingInstruction, tags.meta, tags.contentSeparator], color: 'var(--text-muted)' },
]);

// Markdown with a skill's front matter read as metadata, not as a heading (frontmatter.ts).
const withFrontMatter = new Language(markdownLanguage.data, (markdownLanguage.parser as MarkdownParser).configure([frontMatter]), [], 'markdown');

export function base(label: string): Extension[] {
  return [
    highlightSpecialChars(),
    drawSelection(),
    history(),
    // markdown() would also bundle the HTML, CSS and JavaScript parsers for embedded code;
    // the language and its list-continuing keys are what memory notes need.
    keymap.of([
      { key: 'Enter', run: insertNewlineContinueMarkup },
      { key: 'Backspace', run: deleteMarkupBackward },
      ...defaultKeymap,
      ...historyKeymap,
      indentWithTab,
    ]),
    new LanguageSupport(withFrontMatter),
    syntaxHighlighting(highlight),
    EditorView.lineWrapping,
    EditorView.contentAttributes.of({ 'aria-label': label }),
    theme,
  ];
}

export function onText(fn: (text: string) => void): Extension {
  return EditorView.updateListener.of((u) => {
    if (u.docChanged) fn(u.state.doc.toString());
  });
}

/** Replaces the whole text when it differs (a reload), keeping the cursor where it can. */
export function setText(view: EditorView, text: string) {
  const cur = view.state.doc.toString();
  if (cur === text) return;
  const head = Math.min(view.state.selection.main.head, text.length);
  view.dispatch({ changes: { from: 0, to: cur.length, insert: text }, selection: { anchor: head } });
}

// The line a search landed on: marked until the text changes or another line is asked for.
const markLine = StateEffect.define<number | null>();
const foundLine = Decoration.line({ class: 'cm-found-line', attributes: { 'data-found': 'true' } });
const found = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    for (const e of tr.effects) {
      if (e.is(markLine)) return e.value === null ? Decoration.none : Decoration.set([foundLine.range(e.value)]);
    }
    return tr.docChanged ? Decoration.none : marks;
  },
  provide: (f) => EditorView.decorations.from(f),
});
const foundTheme = EditorView.theme({
  '.cm-found-line': { backgroundColor: 'color-mix(in srgb, var(--accent) 16%, transparent)', boxShadow: 'inset 3px 0 var(--accent)' },
});

/** Puts the cursor at the start of line n (1-based, clamped), scrolls it to the middle and marks it. */
export function goToLine(view: EditorView, n: number) {
  const doc = view.state.doc;
  const line = doc.line(Math.min(Math.max(1, Math.floor(n)), doc.lines));
  view.dispatch({
    selection: { anchor: line.from },
    effects: [markLine.of(line.from), EditorView.scrollIntoView(line.from, { y: 'center' })],
  });
}

export interface Editor {
  setText(text: string): void;
  /** Shows line n (1-based) in the middle of the view, marked, with the cursor on it. */
  goToLine?(n: number): void;
  focus(): void;
  destroy(): void;
}

export function createEditor(opts: {
  parent: HTMLElement;
  text: string;
  label: string;
  hint: string;
  onChange: (text: string) => void;
}): Editor {
  const view = new EditorView({
    parent: opts.parent,
    state: EditorState.create({
      doc: opts.text,
      extensions: [base(opts.label), placeholder(opts.hint), onText(opts.onChange), found, foundTheme],
    }),
  });
  return {
    setText: (text) => setText(view, text),
    goToLine: (n) => goToLine(view, n),
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
