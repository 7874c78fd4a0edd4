import { readFile, stat } from 'node:fs/promises';

/** What a build file holds right now: its parsed content, or why there is none. */
export type BuildFileState<T> = { status: 'ok'; value: T } | { status: 'missing' } | { status: 'invalid'; reason: string };

/**
 * Reads a file of a build output and parses it again only when it changed on disk, so a deploy
 * that renames new files over old ones is seen on the next request without a restart.
 * `onChange` hears each new state once, which keeps a missing or broken file from flooding the log.
 */
export function watchBuildFile<T>(filePath: string, parse: (text: string) => T, onChange?: (state: BuildFileState<T>) => void): () => Promise<BuildFileState<T>> {
  let lastVersion: string | undefined;
  let lastState: BuildFileState<T> = { status: 'missing' };
  // Requests that ask at the same time share one look at the file (under load, one stat serves many).
  let looking: Promise<BuildFileState<T>> | undefined;

  return function current() {
    looking ??= look().finally(() => {
      looking = undefined;
    });
    return looking;
  };

  async function look(): Promise<BuildFileState<T>> {
    let version: string;
    try {
      const stats = await stat(filePath);
      // A renamed-over file has a new inode even when a copy kept the old mtime and size.
      version = `${stats.ino}:${stats.mtimeMs}:${stats.size}`;
    } catch {
      version = 'missing';
    }
    if (version === lastVersion) return lastState;

    let state: BuildFileState<T>;
    if (version === 'missing') {
      state = { status: 'missing' };
    } else {
      try {
        state = { status: 'ok', value: parse(await readFile(filePath, 'utf8')) };
      } catch (error) {
        state = isNotFound(error) ? { status: 'missing' } : { status: 'invalid', reason: describeError(error) };
      }
    }
    lastVersion = version;
    lastState = state;
    onChange?.(state);
    return state;
  }
}

/**
 * Fetches a JSON file of a build served from another origin, waiting at most `timeoutMs` and
 * keeping the answer (good or bad) for `cacheMs`, so a slow or down remote host costs one wait
 * per period rather than one per page view.
 */
export function watchRemoteBuildFile<T>(
  url: string,
  parse: (text: string) => T,
  { timeoutMs, cacheMs }: { timeoutMs: number; cacheMs: number },
  onChange?: (state: BuildFileState<T>) => void,
): () => Promise<BuildFileState<T>> {
  let cached: { expiresAt: number; state: Promise<BuildFileState<T>> } | undefined;
  let lastStatus: string | undefined;

  async function fetchState(): Promise<BuildFileState<T>> {
    let state: BuildFileState<T>;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
      if (response.status === 404) state = { status: 'missing' };
      else if (!response.ok) state = { status: 'invalid', reason: `HTTP ${response.status}` };
      else state = { status: 'ok', value: parse(await response.text()) };
    } catch (error) {
      state = { status: 'invalid', reason: describeError(error) };
    }
    const statusKey = state.status === 'invalid' ? `invalid:${state.reason}` : state.status;
    if (statusKey !== lastStatus) onChange?.(state);
    lastStatus = statusKey;
    return state;
  }

  return function current() {
    const now = Date.now();
    if (!cached || cached.expiresAt <= now) {
      cached = { expiresAt: now + cacheMs, state: fetchState() };
    }
    return cached.state;
  };
}

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';
}

function describeError(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'timed out';
  if (error instanceof Error) return error.message.split('\n')[0] ?? error.name;
  return String(error);
}
