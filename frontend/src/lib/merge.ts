// The conflict's side-by-side merge (@codemirror/merge), loaded only when a save is refused.
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { MergeView } from '@codemirror/merge';
import { base, onText, setText, type Editor } from './editor';

/**
 * The conflict: theirs (the file now, read-only) beside mine (editable). Arrows copy a
 * change of theirs into mine, so a merge is a few clicks plus any typing.
 */
export function createMerge(opts: {
  parent: HTMLElement;
  theirs: string;
  mine: string;
  theirsLabel: string;
  mineLabel: string;
  /** The title of the arrow that copies a change of theirs into mine. */
  copyLabel: string;
  onChange: (text: string) => void;
}): Editor {
  const mv = new MergeView({
    parent: opts.parent,
    a: {
      doc: opts.theirs,
      extensions: [
        base(opts.theirsLabel),
        EditorState.readOnly.of(true),
        EditorView.editable.of(false),
        EditorState.phrases.of({ 'Revert this chunk': opts.copyLabel }),
      ],
    },
    b: { doc: opts.mine, extensions: [base(opts.mineLabel), onText(opts.onChange)] },
    revertControls: 'a-to-b',
    highlightChanges: true,
    gutter: true,
  });
  return {
    setText: (text) => setText(mv.b, text),
    focus: () => mv.b.focus(),
    destroy: () => mv.destroy(),
  };
}
