// The deployment's base URL, recorded with its snapshots in `dist/deployment.json` by the first
// build (`npm run build` or `npm start`): every URL in a snapshot is written with it, so a build for
// another origin would make the servers of this deployment serve links to the wrong place. Such a
// build is refused unless told explicitly (docs/reliability.md, "Builds and the file system").
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { layoutOf, MANIFEST_FILE } from './layout.ts';
import { readManifestBaseUrl } from './manifest.ts';
import { writeWhole } from './swap.ts';

export const DEPLOYMENT_FILE = 'deployment.json';

export interface Deployment {
  readonly baseUrl: string;
  /** where it was read: the record, or the current snapshot of a dist/ from before records */
  readonly from: string;
}

/** Where a build's base URL came from, for the refusal's message: `PUBLIC_BASE_URL`, `--base-url`... */
export interface OriginChoice {
  readonly source: string;
  /** the build may differ from the recorded base URL, and records its own */
  readonly newOrigin: boolean;
}

export class ForeignOriginError extends Error {}

export const deploymentFile = (distDir: string): string => join(distDir, DEPLOYMENT_FILE);

/**
 * The base URL this deployment serves: the record, or, for a dist/ built before records were kept,
 * the one the current snapshot was built for; undefined for a dist/ with neither.
 */
export function readDeployment(distDir: string): Deployment | undefined {
  const file = deploymentFile(distDir);
  if (existsSync(file)) {
    let baseUrl: unknown;
    try {
      baseUrl = (JSON.parse(readFileSync(file, 'utf8')) as { baseUrl?: unknown }).baseUrl;
    } catch (error) {
      throw new ForeignOriginError(`${file} cannot be read (${(error as Error).message}); build with --for-new-origin to record the base URL again`);
    }
    if (typeof baseUrl !== 'string' || baseUrl === '') throw new ForeignOriginError(`${file} names no base URL; build with --for-new-origin to record it again`);
    return { baseUrl, from: file };
  }
  const manifest = join(layoutOf(distDir).current, MANIFEST_FILE);
  if (!existsSync(manifest)) return undefined;
  const baseUrl = readManifestBaseUrl(manifest);
  return baseUrl === undefined ? undefined : { baseUrl, from: `the snapshot served now (${manifest}; ${DEPLOYMENT_FILE} is not written yet)` };
}

/**
 * Refuses a build for `baseUrl` when this deployment serves another one, unless `choice.newOrigin`.
 * The message says which base URL each side has, where the build's came from, and both ways on.
 */
export function checkDeploymentOrigin(distDir: string, baseUrl: string, choice: OriginChoice): void {
  if (choice.newOrigin) return;
  const deployment = readDeployment(distDir);
  if (deployment === undefined || deployment.baseUrl === baseUrl) return;
  throw new ForeignOriginError(
    `this deployment serves ${deployment.baseUrl} (recorded in ${deployment.from}), but this build is for ${baseUrl} (${choice.source}); ` +
    `its servers would serve every link pointing at the wrong origin, so nothing was built. ` +
    `To build for the deployment, set PUBLIC_BASE_URL=${deployment.baseUrl}; to move the deployment to ${baseUrl}, add --for-new-origin.`,
  );
}

/** Records the base URL this deployment serves (written whole: a temporary file renamed over it). */
export function recordDeployment(distDir: string, baseUrl: string): void {
  writeWhole(deploymentFile(distDir), `${JSON.stringify({ baseUrl })}\n`);
}

/** Describes where a command's base URL came from: its option, PUBLIC_BASE_URL, or the default. */
export function baseUrlSource(option: string | undefined, env: Record<string, string | undefined> = process.env): string {
  if (option !== undefined) return 'from --base-url';
  return env['PUBLIC_BASE_URL'] ? 'from PUBLIC_BASE_URL' : 'the default: PUBLIC_BASE_URL is not set';
}
