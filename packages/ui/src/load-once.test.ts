import { loadOnce } from './load-once';

describe('loadOnce', () => {
  it('loads once for every caller', async () => {
    const load = jest.fn(async () => 'module');
    const once = loadOnce(load);
    expect(await Promise.all([once(), once()])).toEqual(['module', 'module']);
    expect(await once()).toBe('module');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('loads again after a failure, and keeps what then loaded', async () => {
    const load = jest.fn<Promise<string>, []>().mockRejectedValueOnce(new Error('ChunkLoadError')).mockResolvedValue('module');
    const once = loadOnce(load);
    await expect(once()).rejects.toThrow('ChunkLoadError');
    expect(await once()).toBe('module');
    expect(await once()).toBe('module');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
