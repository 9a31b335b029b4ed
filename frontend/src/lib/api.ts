// The one place that talks to the Go side (Wails bindings and events). Components and
// stores import from here, so tests can replace this module with a fake.
import * as App from '../../wailsjs/go/main/App';

/** Mirrors core.Status in Go (JSON field names). */
export interface Status {
  version: string;
  configFile: string;
  configError: string;
  configWarnings: string[] | null;
  workspace: string;
  workspaceError: string;
  dataDir: string;
  stateDir: string;
  model: string;
  modelProvider: string;
  modelConfigured: boolean;
  modelProblem: string;
  ollamaHost: string;
  ollamaReachable: boolean;
  ollamaVersion: string;
  ollamaError: string;
}

export async function getStatus(): Promise<Status> {
  return (await App.Status()) as unknown as Status;
}
