// A skill's SKILL.md starts with front matter (---, name: …, description: …, ---). Plain
// Markdown reads the closing --- as the underline of a heading, so the memory editor
// showed "description: …" as a big heading. This block parser takes the front matter
// at the very start of a document as one block, shown as metadata.
import type { MarkdownConfig } from '@lezer/markdown';
import { tags } from '@lezer/highlight';

const fence = (text: string) => /^---\s*$/.test(text);

export const frontMatter: MarkdownConfig = {
  defineNodes: [{ name: 'FrontMatter', block: true, style: tags.meta }],
  parseBlock: [
    {
      name: 'FrontMatter',
      before: 'HorizontalRule',
      parse(cx, line) {
        if (cx.lineStart !== 0 || !fence(line.text)) return false;
        const from = cx.lineStart;
        let to = from + line.text.length;
        // Up to the closing --- (or the end, for front matter still being typed).
        while (cx.nextLine()) {
          to = cx.lineStart + line.text.length;
          if (fence(line.text)) {
            cx.nextLine();
            break;
          }
        }
        cx.addElement(cx.elt('FrontMatter', from, to));
        return true;
      },
    },
  ],
};
