// Faults of the file system a build can meet while writing a snapshot, said as such (docs/reliability.md,
// "Builds and the file system"): a full disk, a quota, a file-size limit, a read-only file system.
import { writeSync } from 'node:fs';

/** What each error code means for someone running a build, and what to do about it. */
const FAULTS: Readonly<Record<string, { readonly what: string; readonly advice: string }>> = {
  ENOSPC: { what: 'the disk is full (ENOSPC)', advice: 'Free space there{size} and build again.' },
  EDQUOT: { what: 'the disk quota is used up (EDQUOT)', advice: 'Free space or raise the quota{size} and build again.' },
  EFBIG: { what: 'a file grew past the file-size limit (EFBIG)', advice: 'Raise the limit (ulimit -f){size} and build again.' },
  EROFS: { what: 'the file system is read-only (EROFS)', advice: 'Mount it writable and build again.' },
};

export class DiskFaultError extends Error {
  readonly code: string;
  constructor(message: string, code: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/** The error's code when it is a fault of the file system a build should name, else undefined. */
export function diskFaultCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code !== undefined && code in FAULTS ? code : undefined;
}

/**
 * `error` said as a fault of the file system when it is one: what happened, where, what was done
 * about it (`aftermath`) and what to do; `error` itself otherwise.
 */
export function describeDiskFault(error: unknown, where: string, aftermath: string, needed: number | undefined): unknown {
  const code = diskFaultCode(error);
  if (code === undefined) return error;
  const fault = FAULTS[code]!;
  const size = needed === undefined ? '' : ` (the snapshot served now takes ${(needed / 1e6).toFixed(1)} MB)`;
  return new DiskFaultError(`${fault.what} while writing the snapshot in ${where}: ${aftermath}. ${fault.advice.replace('{size}', size)}`, code, { cause: error });
}

/**
 * Writes all of `data` at the file's position. write(2) may write only part (the disk filled, or
 * the file reached the size limit, part way): the rest is written again, and that write fails with
 * the cause. One unchecked short write would leave a truncated file that looks complete.
 */
export function writeAll(fd: number, data: Uint8Array): void {
  let done = 0;
  while (done < data.length) done += writeSync(fd, data, done, data.length - done);
}
