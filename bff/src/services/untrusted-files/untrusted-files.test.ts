import { slowLogo } from '../../../test/fixtures/tools/hostile';
import { GOOD_LOGO } from '../../../test/fixtures/tools/logos';
import { createUntrustedFiles, logoCheckUnavailable, QUEUE_PER_THREAD, type UntrustedFiles } from './untrusted-files';

// The logo verdicts kept by content, against the real worker threads and the real SVG Tiny PS check.
const log = { warn: () => undefined, error: () => undefined };

let files: UntrustedFiles;
afterEach(() => files.close());

describe('the untrusted files: logo verdicts kept by content', () => {
  it('reads a logo once: the same bytes again get the same verdict from the cache, other bytes are read', async () => {
    files = createUntrustedFiles({ extraMarkRoots: [], threads: 1, timeoutMs: 10_000, memoryMb: 64, log });
    const first = await files.checkLogo(Buffer.from(GOOD_LOGO));
    expect(first.checks.length).toBeGreaterThan(0);
    expect(files.logoChecks).toEqual({ read: 1, cached: 0 });

    const again = await files.checkLogo(Buffer.from(GOOD_LOGO));
    expect(again).toEqual(first);
    expect(files.logoChecks).toEqual({ read: 1, cached: 1 });

    const other = await files.checkLogo(Buffer.from(GOOD_LOGO.replace('Good Example', 'Another Example')));
    expect(files.logoChecks).toEqual({ read: 2, cached: 1 });
    expect(other.details).toEqual(expect.objectContaining({ title: 'Another Example' }));
    // One byte different is another file.
    await files.checkLogo(Buffer.from(`${GOOD_LOGO} `));
    expect(files.logoChecks).toEqual({ read: 3, cached: 1 });
  });

  it('hands out copies: a caller that changes its verdict does not change the next one', async () => {
    files = createUntrustedFiles({ extraMarkRoots: [], threads: 1, timeoutMs: 10_000, memoryMb: 64, log });
    const first = await files.checkLogo(Buffer.from(GOOD_LOGO));
    const kept = structuredClone(first);
    first.checks.length = 0;
    (first as { score: number }).score = -1;
    const second = await files.checkLogo(Buffer.from(GOOD_LOGO));
    expect(second).toEqual(kept);
    second.checks.pop();
    expect(await files.checkLogo(Buffer.from(GOOD_LOGO))).toEqual(kept);
  });

  it('keeps no verdict for a check that was stopped: the same file is read again next time', async () => {
    files = createUntrustedFiles({ extraMarkRoots: [], threads: 1, timeoutMs: 100, memoryMb: 64, log });
    const slow = Buffer.from(slowLogo());
    const stopped = await files.checkLogo(slow);
    expect(stopped.checks).toEqual([expect.objectContaining({ id: 'svg.check', title: 'Logo not checked', status: 'fail' })]);
    const again = await files.checkLogo(slow);
    expect(again.checks).toEqual([expect.objectContaining({ id: 'svg.check', title: 'Logo not checked' })]);
    expect(files.logoChecks).toEqual({ read: 0, cached: 0 });
  });

  it('says a logo the busy checker could not take is not checked, not that it is wrong', async () => {
    // Each slow logo is stopped at 100 ms: the queue is full when they are all sent, and empties soon.
    files = createUntrustedFiles({ extraMarkRoots: [], threads: 1, timeoutMs: 100, memoryMb: 64, log });
    // One running and QUEUE_PER_THREAD waiting fill the one thread's queue; the next is turned away.
    const verdicts = await Promise.all(Array.from({ length: QUEUE_PER_THREAD + 2 }, (_, index) => files.checkLogo(Buffer.from(`${slowLogo()}<!--${index}-->`))));
    const busy = verdicts.filter((verdict) => logoCheckUnavailable(verdict));
    expect(busy.length).toBeGreaterThan(0);
    for (const verdict of busy) {
      expect(verdict.checks).toEqual([expect.objectContaining({ id: 'svg.check', title: 'Logo not checked', status: 'unreachable', detail: expect.stringContaining('busy') })]);
    }
  });
});
