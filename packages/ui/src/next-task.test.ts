import { nextTask } from './next-task';

/** A stand-in document with the visibility the test sets (jest runs these tests in Node). */
const fakeDocument = { visibilityState: 'visible' as DocumentVisibilityState };
(globalThis as unknown as { document: typeof fakeDocument }).document = fakeDocument;

/** Whether a timer set before `wait` ran before `wait` went on. */
async function timerRanBefore(wait: () => Promise<void>): Promise<boolean> {
  let timerRan = false;
  setTimeout(() => (timerRan = true), 0);
  await wait();
  return timerRan;
}

describe('nextTask', () => {
  afterAll(() => delete (globalThis as { document?: unknown }).document);

  it('goes on in a new task in a visible page', async () => {
    fakeDocument.visibilityState = 'visible';
    expect(await timerRanBefore(nextTask)).toBe(true);
  });

  it('goes on at once in a hidden tab, where a timer waits a second or more', async () => {
    fakeDocument.visibilityState = 'hidden';
    expect(await timerRanBefore(nextTask)).toBe(false);
  });

  it('goes on at once on the server, where nothing is painted', async () => {
    delete (globalThis as { document?: unknown }).document;
    expect(await timerRanBefore(nextTask)).toBe(false);
  });
});
