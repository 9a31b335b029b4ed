// Citations of attached files in an answer: the model is asked to cite a passage as
// [file p. N] or [file line N] (backend/attach). Only names of files attached to the chat
// count, so a bracket that merely looks like one is left alone.

export interface Citation {
  file: string;
  page?: number;
  line?: number;
  /** As shown: "report.pdf p. 150", "notes.txt line 12". */
  where: string;
}

const pattern = /\[([^[\]\n]{1,200}?) (p\.|page|line) (\d{1,7})\]/g;

/** The distinct citations of files (their names) in text, in order of first mention. */
export function citations(text: string, files: readonly string[]): Citation[] {
  if (!files.length) return [];
  const out: Citation[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(pattern)) {
    const [, file, kind, n] = m;
    if (!files.includes(file)) continue;
    const where = `${file} ${kind === 'line' ? 'line' : 'p.'} ${n}`;
    if (seen.has(where)) continue;
    seen.add(where);
    out.push(kind === 'line' ? { file, line: Number(n), where } : { file, page: Number(n), where });
  }
  return out;
}
