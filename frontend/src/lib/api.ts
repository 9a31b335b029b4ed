// The one place that talks to the Go side (Wails bindings and events). Components and
// stores import from here, so tests can replace this module with a fake.
import * as App from '../../wailsjs/go/main/App';
import type { core } from '../../wailsjs/go/models';

/** What the footer and setup read: core.Status in Go (camelCase JSON fields). */
export type Status = core.Status;

export async function getStatus(): Promise<Status> {
  return App.Status();
}
