import { createContext, useContext } from 'react';
import type { Source } from '@chorus/shared/api/conversations';

/** A passage of one of the user's knowledge bases, which a citation can open. */
export const isPassage = (source: Source): boolean =>
  Boolean(source.chunk_id && source.knowledge_base_id);

/** The number a reply cites a source by: its own `index`, or its place in the list. */
export const citationNumber = (source: Source, position: number): number =>
  source.index ?? position + 1;

/** The passage a reply's `[n]` refers to, if it has one. */
export const findPassage = (sources: Source[], n: number): Source | undefined =>
  sources.find((source, position) => citationNumber(source, position) === n && isPassage(source));

export type Citations = {
  sources: Source[];
  /** Opens the passage a citation refers to. */
  open: (source: Source) => void;
};

/** The citations of the message being rendered, for the `[n]` markers in its text. */
export const CitationsContext = createContext<Citations | null>(null);

export const useCitations = (): Citations | null => useContext(CitationsContext);
