// Worker thread of the import: decodes and validates blocks of lines (read-ndjson.ts,
// validate-records.ts) off the main thread, which reads the file and writes the records meanwhile.
// Valid records go back as one JSON text (parsing it is far cheaper than a structured clone).
import { parentPort } from 'node:worker_threads';
import { linesOfBlock, type LineBlock } from './read-ndjson.ts';
import type { CatalogueRecord } from './records.ts';
import { parseRecordLine, type LineError } from './validate-records.ts';

export interface ValidateJob {
  readonly batch: number;
  readonly block: LineBlock;
}

export interface ValidatedBlock {
  /** non-blank lines in the block */
  readonly lines: number;
  /** the valid records, in order */
  readonly records: { readonly line: number; readonly record: CatalogueRecord }[];
  readonly errors: LineError[];
}

export interface ValidateResult {
  readonly batch: number;
  readonly lines: number;
  /** JSON of ValidatedBlock['records'] */
  readonly records: string;
  readonly errors: LineError[];
}

/** Decodes and validates one block. */
export function validateBlock(block: LineBlock): ValidatedBlock {
  const records: ValidatedBlock['records'] = [];
  const errors: LineError[] = [];
  let lines = 0;
  for (const entry of linesOfBlock(block)) {
    lines++;
    if ('unreadable' in entry) { errors.push({ line: entry.line, field: '(line)', message: entry.unreadable }); continue; }
    const parsed = parseRecordLine(entry.line, entry.text);
    if (parsed.errors) errors.push(...parsed.errors);
    else records.push({ line: entry.line, record: parsed.record });
  }
  return { lines, records, errors };
}

parentPort?.on('message', (job: ValidateJob) => {
  const { lines, records, errors } = validateBlock(job.block);
  const result: ValidateResult = { batch: job.batch, lines, records: JSON.stringify(records), errors };
  parentPort!.postMessage(result);
});
