// Shared stop switch: set by the benchmark's signal handler, checked before anything new starts
// (a Chromium launch, the next page), so nothing is started after clean-up began.
export const stopSwitch = { stopped: false };

export class Stopped extends Error {
  constructor() {
    super('stopped');
    this.name = 'Stopped';
  }
}

export function throwIfStopped() {
  if (stopSwitch.stopped) throw new Stopped();
}
