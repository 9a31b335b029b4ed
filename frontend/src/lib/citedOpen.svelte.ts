// How a source clicked under an answer opens: a line citation in Hearth's own read-only
// view at the line (components/chat/CitedFile.svelte), a page (a PDF) — or any citation
// when no view is wired — in the system's viewer. Why a file did not open (a coded
// refusal: gone, behind a link…) is kept until the next click, for the chat to show.
import { errText, type FileView } from './api';

/** The read-only view: CitedFile's show. */
export interface CitedView {
  show(where: string, load: Promise<FileView>, system: () => Promise<void>): void;
}

/** What the chat wires in, read at each click (the props may change). */
export interface CitedWiring {
  sessionId?: string;
  openFile?: (sessionId: string, file: string) => Promise<void>;
  viewFile?: (sessionId: string, file: string, line: number) => Promise<FileView>;
  openKnowledge?: (place: string) => Promise<void>;
  viewKnowledge?: (place: string) => Promise<FileView>;
  view?: CitedView;
}

export class CitedOpener {
  error = $state('');
  #wiring: () => CitedWiring;

  constructor(wiring: () => CitedWiring) {
    this.#wiring = wiring;
  }

  #system(p: Promise<void>) {
    p.catch((err) => (this.error = errText(err)));
  }

  /** A file attached to the chat, cited by name (and line). */
  file = (file: string, line?: number) => {
    const { sessionId: id, openFile, viewFile, view } = this.#wiring();
    if (!id || !openFile) return;
    this.error = '';
    if (line && viewFile) view?.show(`${file} line ${line}`, viewFile(id, file, line), () => openFile(id, file));
    else this.#system(openFile(id, file));
  };

  /** A knowledge folder's file, cited as "Manuals/kiln.md line 12". */
  knowledge = (where: string, line?: number) => {
    const { openKnowledge, viewKnowledge, view } = this.#wiring();
    if (!openKnowledge) return;
    this.error = '';
    if (line && viewKnowledge) view?.show(where, viewKnowledge(where), () => openKnowledge(where));
    else this.#system(openKnowledge(where));
  };
}
