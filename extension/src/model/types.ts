/**
 * The tcexplore document ("tcexplore/1") as the extension reads it. Its types are generated
 * from the JSON Schema (tcexplore/schema/tcexplore-1.schema.json, the one definition) into
 * document.generated.ts by `jlpm build:types`; a jest test fails when that file is stale.
 * Every field is still untrusted input: schema.ts checks a document's version and shape
 * before a view reads it. What is declared here belongs to the extension, not the document.
 */

import type {
  Compile,
  GraphBreak,
  TcexploreDocumentVersionTcexplore1
} from './document.generated';

export * from './document.generated';

export const MIME_TYPE = 'application/vnd.tcexplore.v1+json';
export const SCHEMA = 'tcexplore/1';

/** A document as checkDocument() hands it to the views: the containers they iterate are there. */
export type TcxDocument = Omit<
  TcexploreDocumentVersionTcexplore1,
  'summary' | 'compiles' | 'graph_breaks'
> & {
  summary: Record<string, number>;
  compiles: Compile[];
  graph_breaks: GraphBreak[];
};

/** Where a click can take the reader: a tab and the thing to show in it. */
export type Target =
  | { tab: 'overview'; file?: string; line?: number } // a graph-break site's finding
  | { tab: 'source'; file: string; line: number }
  | { tab: 'graphs'; compile: number; graph: string; node?: string }
  | { tab: 'bytecode'; compile: number; instruction?: number }
  | {
      tab: 'fusion';
      compile: number;
      output: number;
      kernel?: string;
      index?: number;
    }
  | { tab: 'code'; compile: number; output: number; kernel?: string }
  | { tab: 'guards'; compile: number }
  | { tab: 'cudagraphs' }
  | { tab: 'shapes' }
  | { tab: 'timing' }
  | { tab: 'profile'; kernel?: number }
  | { tab: 'run'; frame?: number; gap?: number }
  | { tab: 'memory' }
  | { tab: 'accuracy' }
  | { tab: 'compare' };

export type TabId = Target['tab'];
