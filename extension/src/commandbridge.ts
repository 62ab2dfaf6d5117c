/**
 * The app's command registry, for the MIME renderer. Renderers are made by the rendermime
 * registry and never see the application; the `tcexplore:workbench` plugin (same package,
 * same module instance) hands its registry over here when it activates.
 */

import type { JupyterFrontEnd } from '@jupyterlab/application';

type CommandRegistry = JupyterFrontEnd['commands'];

let registry: CommandRegistry | null = null;

export function setCommands(commands: CommandRegistry): void {
  registry = commands;
}

export function commands(): CommandRegistry | null {
  return registry;
}
