import { parentPort } from 'node:worker_threads';

/**
 * The little protocol between work-pool.ts and its worker threads: each task is sent with an id,
 * and the thread says when it starts it, so the pool's time limit counts the task's own run and
 * not its wait for a thread.
 */

export interface TaskMessage {
  id: number;
  input: unknown;
}

export interface TaskStart {
  untrustedTaskStarted: number;
}

export function isTaskStart(message: unknown): message is TaskStart {
  return typeof (message as Partial<TaskStart> | null)?.untrustedTaskStarted === 'number';
}

/** A task as the pool runs it: it first tells the pool it has started, then does the work. */
export function startsTimer<Input, Output>(task: (input: Input) => Output): (message: TaskMessage) => Output {
  return (message) => {
    parentPort?.postMessage({ untrustedTaskStarted: message.id } satisfies TaskStart);
    return task(message.input as Input);
  };
}
